package rules

import (
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// KillsGuard is what the process and service packs call; it must see the
// guard in every spelling and leave read-only service verbs alone.
func TestKillsGuard(t *testing.T) {
	cases := []struct {
		line string
		want bool
	}{
		{"pkill agent-guard", true},
		{"killall -9 agent-guard", true},
		{"taskkill /F /IM agent-guard.exe", true},
		{"Stop-Process -Name agent-guard -Force", true},
		{"systemctl --user stop agent-guard.service", true},
		{"systemctl --user disable --now agent-guard", true},
		{"launchctl bootout gui/501/dev.agent-guard", true},
		{"sc stop AgentGuard", true},
		{"kill -9 1234", false},
		{"pkill node", false},
		{"systemctl --user status agent-guard", false},
		{"systemctl --user start agent-guard", false},
		{"sc query agent-guard", false},
		{"ls agent-guard", false},
	}
	for _, c := range cases {
		a := shell.Analyze(c.line)
		if len(a.Cmds) == 0 {
			t.Fatalf("%q: no command", c.line)
		}
		if got := KillsGuard(&a.Cmds[0]); got != c.want {
			t.Errorf("KillsGuard(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
