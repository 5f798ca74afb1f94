package hostproto

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestLookupAndAll(t *testing.T) {
	all := All()
	if len(all) < 2 {
		t.Fatalf("hosts: %v", Names())
	}
	for i, h := range all {
		if i > 0 && all[i-1].Name >= h.Name {
			t.Errorf("All not sorted: %v", Names())
		}
		got, ok := Lookup(h.Name)
		if !ok || got.Name != h.Name || h.Display == "" || h.FailOpen == "" {
			t.Errorf("host %q: lookup %v, display %q, fail-open %q", h.Name, ok, h.Display, h.FailOpen)
		}
		if u, ok := Lookup(strings.ToUpper(h.Name)); !ok || u.Name != h.Name {
			t.Errorf("Lookup is not case-insensitive for %q", h.Name)
		}
	}
	if _, ok := Lookup("nosuchhost"); ok {
		t.Error("unknown host found")
	}
}

// Ask reaches a host only when it honours ask; everywhere else Render
// turns it into a deny that says why.
func TestAskNeverReachesAHostThatIgnoresIt(t *testing.T) {
	for _, h := range All() {
		ask, deny := h.Render(Ask, "R"), h.Render(Deny, "R")
		if h.AskHonoured() {
			if bytes.Equal(ask.Stdout, deny.Stdout) && bytes.Equal(ask.Stderr, deny.Stderr) && ask.Code == deny.Code {
				t.Errorf("%s honours ask but renders it as deny", h.Name)
			}
			continue
		}
		want := h.Render(Deny, "agent-guard: this call needs a human's confirmation, and "+h.Display+" cannot ask for it reliably, so it is denied. R")
		if !bytes.Equal(ask.Stdout, want.Stdout) || !bytes.Equal(ask.Stderr, want.Stderr) || ask.Code != want.Code {
			t.Errorf("%s: ask rendered %q/%q/%d, want the deny %q/%q/%d", h.Name, ask.Stdout, ask.Stderr, ask.Code, want.Stdout, want.Stderr, want.Code)
		}
	}
}

// A deny is never empty output with exit 0: every host would run the tool.
func TestDenyIsNeverSilent(t *testing.T) {
	for _, h := range All() {
		o := h.Render(Deny, "no")
		if len(o.Stdout) == 0 && o.Code == 0 {
			t.Errorf("%s renders deny as nothing with exit 0", h.Name)
		}
		if !bytes.Contains(append(o.Stdout, o.Stderr...), []byte("no")) {
			t.Errorf("%s deny drops the reason: %q %q", h.Name, o.Stdout, o.Stderr)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }

func TestEmitWhenStdoutFails(t *testing.T) {
	var errb bytes.Buffer
	code := Claude.Emit(failWriter{}, &errb, Deny, "the reason")
	if code != 2 || !strings.Contains(errb.String(), "could not write the decision (closed); blocking. the reason") {
		t.Fatalf("code %d stderr %q", code, errb.String())
	}
	var out bytes.Buffer
	errb.Reset()
	if code := Claude.Emit(&out, &errb, Allow, "ok"); code != 0 || errb.Len() != 0 || !strings.Contains(out.String(), `"allow"`) {
		t.Fatalf("allow: %d %q %q", code, out.String(), errb.String())
	}
}

// leafPackages are this module's packages hostproto may import: each is
// itself held to the standard library below.
var leafPackages = map[string]string{"github.com/agent-guard/agent-guard/app/internal/jsonenc": "../internal/jsonenc"}

// The thin hook links this package: it must stay standard library only
// (and the module's leaf packages that are).
func TestImportsOnlyStdlib(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, dir := range leafPackages {
		more, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		if len(more) == 0 {
			t.Fatalf("no Go files in %s", dir)
		}
		files = append(files, more...)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if _, leaf := leafPackages[p]; !leaf && strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
				t.Errorf("%s imports %s; hostproto must use the standard library only", f, p)
			}
		}
	}
}

// Every host's own shell event parses back to the command, and what the
// host makes of each rendered decision is that decision (ask: where the
// host honours it).
func TestShellEventAndHostDecisionRoundTrip(t *testing.T) {
	for _, h := range All() {
		ev, judged, err := h.Parse(h.ShellEvent("rm -rf /tmp/x", "/w", "s1"))
		if err != nil || !judged || ev.ToolName != "Bash" || !strings.Contains(string(ev.ToolInput), `"command":"rm -rf /tmp/x"`) {
			t.Errorf("%s: ShellEvent parses to %+v judged=%v err=%v", h.Name, ev, judged, err)
		}
		for _, d := range []string{Allow, Deny, Ask} {
			got, reason, err := h.HostDecision(h.Render(d, "because"))
			want := d
			if d == Ask && !h.AskHonoured() {
				want = Deny
			}
			if err != nil || got != want {
				t.Errorf("%s: %s renders to what the host reads as %q (%v)", h.Name, d, got, err)
			}
			if want == Deny && !strings.Contains(reason, "because") {
				t.Errorf("%s: deny reason lost: %q", h.Name, reason)
			}
		}
		// Output the host does not understand is never read as a deny
		// unless the host fails closed.
		got, _, err := h.HostDecision(Output{Stdout: []byte("garbage\n"), Code: 0})
		exitCodeOnly := h.Name == "windsurf" || h.Name == "kiro" || h.Name == "auggie"
		if h.Name != "cursor" && h.Name != "opencode" && h.Name != "amp" && (got != Allow || (err == nil) != exitCodeOnly) {
			t.Errorf("%s: garbage read as %q, %v; the host would run the tool", h.Name, got, err)
		}
	}
}

// decodeBoth reads what one decode per spelling read.
func TestDecodeBothAsTwoDecodes(t *testing.T) {
	for _, in := range []string{
		`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/w","tool_name":"Bash","tool_input":{"command":"ls"},"permission_mode":"x","tool_use_id":"u"}`,
		`{"hookEventName":"PreToolUse","sessionId":"s","cwd":"/w","toolName":"Bash","toolInput":{"command":"ls"},"permissionMode":"x","toolUseId":"u"}`,
		`{"tool_name":"Bash","toolName":"Write","TOOL_NAME":"Edit","ToolName":"x","tool_input":null,"toolInput":{"a":1},"Cwd":"/c","cwd":"/d"}`,
		`{"Tool_Input":{"command":"rm"},"tool_input":{"command":"ls"},"TOOLINPUT":{"command":"x"}}`,
	} {
		var s claudeEvent
		var c camelEvent
		if err := json.Unmarshal([]byte(in), &s); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(in), &c); err != nil {
			t.Fatal(err)
		}
		gs, gc, err := decodeBoth([]byte(in))
		if err != nil || !reflect.DeepEqual(gs, s) || !reflect.DeepEqual(gc, c) {
			t.Errorf("%s:\n got %+v %+v %v\nwant %+v %+v", in, gs, gc, err, s, c)
		}
	}
	if _, _, err := decodeBoth([]byte(`{"tool_name":5}`)); err == nil || !strings.Contains(err.Error(), "Event.tool_name") {
		t.Errorf("type error reads %v", err)
	}
}
