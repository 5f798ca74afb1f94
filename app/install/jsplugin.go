package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// jsPlugin is a host whose hook is a JavaScript/TypeScript plugin file
// that is wholly ours (opencode, Amp): written from a template that starts
// with marker and declares HOOK, ARGS and TIMEOUT_MS, read back by those
// constants, and refused when the file at our path is someone else's.
type jsPlugin struct {
	host     string // the host's name (its --flag)
	marker   string // the template's first line: the file is ours
	template string // fmt template: HOOK (JSON), ARGS (JSON), TIMEOUT_MS
	register string // the text that hooks into the host (a damaged file lacks it)
	label    string // how errors name the file
}

// The constants every plugin template declares, one per line.
var (
	pluginHook    = lazyre.New(`(?m)^const HOOK = (.*);$`)
	pluginArgs    = lazyre.New(`(?m)^const ARGS = (.*);$`)
	pluginTimeout = lazyre.New(`(?m)^const TIMEOUT_MS = (\d+);$`)
)

func (p jsPlugin) render(h Hook) ([]byte, error) {
	return []byte(fmt.Sprintf(p.template, mustMarshal(h.Path), mustMarshal(h.hookArgs(p.host)), h.HostTimeout.Milliseconds())), nil
}

func (p jsPlugin) ours(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(data, "\ufeff \n"), []byte(p.marker))
}

// apply refuses to overwrite a file at our path that is not ours.
func (p jsPlugin) apply(data []byte, h Hook) ([]byte, error) {
	if len(bytes.TrimSpace(data)) > 0 && !p.ours(data) {
		return nil, fmt.Errorf("the file is not agent-guard's plugin (it does not start with %q); move it away, nothing was changed", p.marker)
	}
	return p.render(h)
}

// remove: the whole file is ours, so it goes.
func (p jsPlugin) remove(data []byte) ([]byte, int, error) {
	if p.ours(data) {
		return nil, 1, nil
	}
	return data, 0, nil
}

func (p jsPlugin) inspect(data []byte) (*Installed, error) {
	if !p.ours(data) {
		return nil, nil
	}
	in := &Installed{Enabled: true, Count: 1}
	if m := pluginHook.Re().FindSubmatch(data); m != nil {
		_ = json.Unmarshal(m[1], &in.Command)
	}
	if m := pluginArgs.Re().FindSubmatch(data); m != nil {
		_ = json.Unmarshal(m[1], &in.Args)
	}
	in.Deadline = hookView{Args: in.Args}.deadline()
	if m := pluginTimeout.Re().FindSubmatch(data); m != nil {
		var ms int64
		fmt.Sscan(string(m[1]), &ms)
		in.HostTimeout = time.Duration(ms) * time.Millisecond
	}
	if in.Command == "" || !strings.Contains(string(data), p.register) {
		return nil, fmt.Errorf("agent-guard's %s file is damaged; reinstall with agent-guard install --%s", p.label, p.host)
	}
	return in, nil
}
