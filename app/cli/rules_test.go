package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/internal/testbin"
)

// buildAgentGuard builds the real agent-guard binary (cgo-free, no tray),
// or installs the prebuilt one testbin names.
func buildAgentGuard(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "agent-guard")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if ok, err := testbin.Install(bin); ok {
		if err != nil {
			t.Fatal(err)
		}
		return bin
	}
	build := exec.Command("go", "build", "-tags", "nogui", "-o", bin, "./cmd/agent-guard")
	build.Dir = filepath.Join("..", "..")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func runBin(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "AGENT_GUARD_HOME="+t.TempDir(), "TYPESAFE_API_KEY=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestRulesJSONBinary: `agent-guard rules --json` from the real binary
// lists the whole catalog in the promised shape, and the binary's own
// check decides a listed example by the listed rule.
func TestRulesJSONBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildAgentGuard(t)
	out, errOut, code := runBin(t, bin, "rules", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("not a JSON array: %v\n%.300s", err, out)
	}
	if want := len(rules.Catalog()); len(list) != want || want < 500 {
		t.Fatalf("%d entries; the catalog has %d", len(list), want)
	}
	byID := map[string]map[string]json.RawMessage{}
	setups := 0
	for _, e := range list {
		for _, k := range []string{"id", "risk", "red_line", "category", "reason", "examples"} {
			if _, ok := e[k]; !ok {
				t.Fatalf("entry lacks %q: %v", k, e)
			}
		}
		var id string
		json.Unmarshal(e["id"], &id)
		var exs []json.RawMessage
		if err := json.Unmarshal(e["examples"], &exs); err != nil {
			t.Fatalf("%s: examples is not an array: %s", id, e["examples"])
		}
		for _, ex := range exs {
			if c := bytes.TrimSpace(ex)[0]; c != '"' && c != '{' {
				t.Errorf("%s: example is neither a command string nor an event object: %s", id, ex)
			}
			// An example with a setup carries its call beside it.
			var withSetup struct {
				Command string
				Event   json.RawMessage
				Setup   json.RawMessage
			}
			if json.Unmarshal(ex, &withSetup) == nil && withSetup.Setup != nil {
				if (withSetup.Command == "") == (withSetup.Event == nil) {
					t.Errorf("%s: an example with a setup needs exactly one of command and event: %s", id, ex)
				}
				setups++
			}
		}
		byID[id] = e
	}
	if setups == 0 {
		t.Error("no example carries a setup; the config, disk and fault rules have lost theirs")
	}
	for _, id := range []string{"fs.rm-root", "git.force-push", "self.guard-files"} {
		e, ok := byID[id]
		if !ok {
			t.Errorf("%s is not listed", id)
			continue
		}
		if string(e["red_line"]) != "true" {
			t.Errorf("%s: red_line %s, want true", id, e["red_line"])
		}
	}
	// A listed command example, judged by the same binary, names its rule.
	var exs []string
	json.Unmarshal(byID["git.force-push"]["examples"], &exs)
	if len(exs) == 0 {
		t.Fatal("git.force-push has no command example")
	}
	vout, errOut, code := runBin(t, bin, "check", "--offline", "--json", "--cwd", "/home/dev/proj", "--cmd", exs[0])
	var v struct{ Rule, Level string }
	if code != 0 || json.Unmarshal([]byte(vout), &v) != nil {
		t.Fatalf("check %q: exit %d: %s %s", exs[0], code, vout, errOut)
	}
	if v.Rule != "git.force-push" || v.Level != "block" {
		t.Errorf("check %q: %s by %s; want block by git.force-push", exs[0], v.Level, v.Rule)
	}
}

func TestRulesText(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		out    []string // in stdout
		errOut string   // in stderr
	}{
		{"all", nil, 0, []string{"ID", "RISK", "RED LINE", "CATEGORY", "WHERE", "fs.rm-root", "app/judge/rules/fs.go", "aws.<svc>.<op>"}, ""},
		{"filter", []string{"git.force"}, 0, []string{"git.force-push ", "version control"}, ""},
		{"help", []string{"-h"}, 0, []string{"usage: agent-guard rules", "app/judge/rules"}, ""},
		{"no match", []string{"no-such-rule-anywhere"}, 1, nil, "no rule id or category contains"},
		{"bad flag", []string{"--yaml"}, 2, nil, "usage: agent-guard rules"},
		{"two filters", []string{"git", "fs"}, 2, nil, "at most one FILTER"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", append([]string{"rules"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, errOut)
			}
			for _, w := range tt.out {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%.500s", w, out)
				}
			}
			if !strings.Contains(errOut, tt.errOut) {
				t.Errorf("stderr %q lacks %q", errOut, tt.errOut)
			}
		})
	}
	// The filter keeps only matching rules.
	_, out, _ := runCLI(t, "", "rules", "git.force")
	if strings.Contains(out, "fs.rm-root") {
		t.Errorf("the filter git.force kept fs.rm-root")
	}
}

// TestCheckShowsCatalogEntry: check's text output names the deciding
// rule's catalog entry, for a plain id and for a route to one.
func TestCheckShowsCatalogEntry(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string
	}{
		{"git push --force origin main", []string{"rule:      git.force-push", "category:  version control", "where:     app/judge/rules/packs/git/git.go"}},
		{"ssh host rm -rf /", []string{"rule:      ssh/fs.rm-root", "catalog:   fs.rm-root", "where:     app/judge/rules/fs.go", "route:     ssh: a command run on another host over ssh"}},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, "", "check", "--offline", "--cwd", "/home/dev/proj", "--cmd", tt.cmd)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", tt.cmd, code, errOut)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%q: output lacks %q:\n%s", tt.cmd, w, out)
			}
		}
	}
}
