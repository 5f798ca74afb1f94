package peer

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestFlagValue(t *testing.T) {
	cases := []struct {
		args []string
		want string
		ok   bool
	}{
		{[]string{"serve", "--headless", "--pipe", "/a.sock"}, "/a.sock", true},
		{[]string{"serve", "-pipe=/b.sock"}, "/b.sock", true},
		{[]string{"serve", "--pipe=/c", "-pipe", "/d"}, "/d", true},
		{[]string{"serve", "--headless"}, "", false},
		{[]string{"serve", "--", "--pipe", "/e"}, "", false},
		{[]string{"serve", "--pipe"}, "", false},
		{[]string{"pipe", "/f"}, "", false},
	}
	for _, c := range cases {
		if got, ok := flagValue(c.args, "pipe"); got != c.want || ok != c.ok {
			t.Errorf("%q: %q %v, want %q %v", c.args, got, ok, c.want, c.ok)
		}
	}
}

func TestHomeOf(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	if got := HomeOf(env(map[string]string{"AGENT_GUARD_HOME": "/x/y/", "HOME": "/h"})); got != filepath.Clean("/x/y") {
		t.Errorf("AGENT_GUARD_HOME: %q", got)
	}
	if runtime.GOOS != "linux" {
		return
	}
	cases := map[string]map[string]string{
		"/h/.config/agent-guard": {"HOME": "/h"},
		"/xdg/agent-guard":       {"HOME": "/h", "XDG_CONFIG_HOME": "/xdg"},
		// A relative XDG_CONFIG_HOME is ignored, as os.UserConfigDir does.
		"/h2/.config/agent-guard": {"HOME": "/h2", "XDG_CONFIG_HOME": "rel"},
		"":                        {},
	}
	for want, kv := range cases {
		if got := HomeOf(env(kv)); got != want {
			t.Errorf("%v: %q, want %q", kv, got, want)
		}
	}
}

func TestParseProcArgs(t *testing.T) {
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, 3)
	b = append(b, "/Applications/agent-guard\x00\x00\x00\x00agent-guard\x00serve\x00--pipe=/s\x00HOME=/Users/u\x00AGENT_GUARD_HOME=/g\x00\x00junk"...)
	exe, args, env, err := parseProcArgs(b)
	if err != nil || exe != "/Applications/agent-guard" || len(args) != 2 || args[1] != "--pipe=/s" || len(env) != 2 || env[1] != "AGENT_GUARD_HOME=/g" {
		t.Fatalf("%q %q %q %v", exe, args, env, err)
	}
	for _, bad := range [][]byte{nil, {1, 0}, {2, 0, 0, 0, 'x'}, {2, 0, 0, 0, '/', 0, 'a', 0}} {
		if _, _, _, err := parseProcArgs(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestErrorSaysWhoAndWhat(t *testing.T) {
	var err error = &Error{Pipe: "/run/s.sock", Proc: Process{PID: 42, Exe: "/tmp/x"}, Binary: "/opt/agent-guard", Why: "another executable"}
	want := "the process serving /run/s.sock is /tmp/x (pid 42), not the agent-guard binary /opt/agent-guard (another executable); it was ignored"
	if err.Error() != want || !errors.Is(err, ErrImpostor) {
		t.Fatalf("%v", err)
	}
}

func TestRelativeOrMissingBinaryIsNeverTrusted(t *testing.T) {
	for _, bin := range []string{"agent-guard", "", filepath.Join(t.TempDir(), "missing")} {
		if _, err := VerifyServer(nil, Expect{Binary: bin, Pipe: "p"}); !errors.Is(err, ErrImpostor) {
			t.Errorf("%q: %v", bin, err)
		}
	}
}

func TestDefaultBinaryIsBesideTheExecutable(t *testing.T) {
	self, _ := os.Executable()
	self, _ = filepath.EvalSymlinks(self)
	if got := DefaultBinary(); filepath.Dir(got) != filepath.Dir(self) || filepath.Base(got)[:11] != "agent-guard" {
		t.Fatalf("%q", got)
	}
}
