package install

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// Kimi Code keeps its hooks in TOML (~/.kimi-code/config.toml). We have no
// TOML library and edit nothing of the user's: our entry is one [[hooks]]
// block between two marker comments, appended at the end (a [[hooks]]
// header starts a new array element wherever it stands), replaced or
// removed as a whole.
const (
	kimiBegin = "# >>> agent-guard hook (agent-guard install --kimi; agent-guard uninstall --kimi removes it)"
	kimiEnd   = "# <<< agent-guard hook"
)

func kimiBlock(h Hook) (string, error) {
	cmd, err := plainCommand(Kimi, h)
	if err != nil {
		return "", err
	}
	return strings.Join([]string{
		kimiBegin,
		"[[hooks]]",
		`event = "PreToolUse"`,
		"matcher = " + string(mustMarshal(kimiMatcher)),
		"command = " + string(mustMarshal(cmd)), // a JSON string is a TOML basic string
		fmt.Sprintf("timeout = %d", int64(h.HostTimeout/time.Second)),
		kimiEnd,
	}, "\n") + "\n", nil
}

// kimiConflict finds a hooks key our [[hooks]] block would clash with: an
// inline `hooks = [...]` or a plain [hooks] table make the file invalid
// TOML once an array-of-tables [[hooks]] is added.
var kimiConflict = lazyre.New(`(?m)^[ \t]*(hooks[ \t]*=|\[[ \t]*hooks[ \t]*\])`)

func checkText(data []byte) error {
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return errors.New("not a UTF-8 text file")
	}
	return nil
}

// splitKimi returns the file without our blocks, and how many it had. An
// unterminated block is an error: we would not know where ours ends.
func splitKimi(data []byte) ([]byte, int, error) {
	var out []string
	n, in, start := 0, false, 0
	lines := strings.SplitAfter(string(data), "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case !in && t == kimiBegin:
			in, start = true, i+1
			n++
		case in && t == kimiEnd:
			in = false
		case !in:
			out = append(out, l)
		}
	}
	if in {
		return nil, 0, fmt.Errorf("line %d: agent-guard's block has no %q line; fix it by hand, nothing was changed", start, kimiEnd)
	}
	return []byte(strings.Join(out, "")), n, nil
}

func applyKimi(data []byte, h Hook) ([]byte, error) {
	if err := checkText(data); err != nil {
		return nil, err
	}
	rest, _, err := splitKimi(data)
	if err != nil {
		return nil, err
	}
	if loc := kimiConflict.Re().FindIndex(rest); loc != nil {
		line := bytes.Count(rest[:loc[0]], []byte("\n")) + 1
		return nil, fmt.Errorf("line %d: hooks is defined there as a table or inline array, so a [[hooks]] entry cannot be added; move your hooks to [[hooks]] blocks, nothing was changed", line)
	}
	block, err := kimiBlock(h)
	if err != nil {
		return nil, err
	}
	rest = bytes.TrimRight(rest, "\n")
	if len(rest) > 0 {
		rest = append(rest, "\n\n"...)
	}
	return append(rest, block...), nil
}

func removeKimi(data []byte) ([]byte, int, error) {
	if err := checkText(data); err != nil {
		return nil, 0, err
	}
	rest, n, err := splitKimi(data)
	if err != nil || n == 0 {
		return data, 0, err
	}
	rest = bytes.TrimRight(rest, "\n")
	if len(rest) > 0 {
		rest = append(rest, '\n')
	}
	return rest, n, nil
}

var (
	kimiCommand = lazyre.New(`(?m)^command = (".*")$`)
	kimiTimeout = lazyre.New(`(?m)^timeout = (\d+)$`)
)

func inspectKimi(data []byte) (*Installed, error) {
	if err := checkText(data); err != nil {
		return nil, err
	}
	s := string(data)
	i := strings.Index(s, kimiBegin)
	if i < 0 {
		return nil, nil
	}
	j := strings.Index(s[i:], kimiEnd)
	if j < 0 {
		return nil, fmt.Errorf("agent-guard's block has no %q line", kimiEnd)
	}
	block := s[i : i+j]
	in := &Installed{Enabled: true, Count: strings.Count(s, kimiBegin)}
	if m := kimiCommand.FindStringSubmatch(block); m != nil {
		if cmd, err := strconv.Unquote(m[1]); err == nil {
			if w := splitCommand(cmd); len(w) > 0 {
				v := hookView{Command: w[0], Args: w[1:]}
				in.Command, in.Args, in.Deadline = v.Command, v.Args, v.deadline()
			}
		}
	}
	if m := kimiTimeout.FindStringSubmatch(block); m != nil {
		n, _ := strconv.Atoi(m[1])
		in.HostTimeout = time.Duration(n) * time.Second
	}
	return in, nil
}
