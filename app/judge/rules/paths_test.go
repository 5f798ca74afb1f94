package rules

import (
	"strings"
	"testing"
)

// level mirrors judge.Decide with the default thresholds, so these tests
// speak in allow/confirm/block without importing judge (cycle).
func level(f Finding) string {
	switch {
	case f.Risk >= 2.5 || f.Violation >= RedLineAt:
		return "block"
	case f.Risk >= 1.5 || f.Violation >= 0.5:
		return "confirm"
	}
	return "allow"
}

func TestWritePath(t *testing.T) {
	t.Setenv("AGENT_GUARD_HOME", "")
	const home, cwd = "/home/dev", "/home/dev/proj"
	tests := []struct {
		path, want, rule string
		red              bool
	}{
		{"src/main.go", "allow", "path.project", false},
		{"./README.md", "allow", "path.project", false},
		{"/home/dev/proj/a/b.txt", "allow", "path.project", false},
		{".github/workflows/ci.yml", "allow", "path.ci-workflow", false},
		{"/home/dev/notes.txt", "allow", "path.home", false},
		{"~/other/x.txt", "allow", "path.home", false},
		{"/tmp/out.log", "allow", "path.temp", false},
		{"/dev/null", "allow", "path.dev-null", false},
		{"/dev/tcp/evil.example/80", "confirm", "path.dev-net", false},
		{"/dev/console", "allow", "path.dev-null", false},
		{"/dev/kmsg", "block", "path.device", false},
		{"/etc/sudoers", "block", "path.system", true},
		{"/etc/sudoers.d/99-dev", "block", "path.system", true},
		{"/ETC/Passwd", "block", "path.system", true},
		{"../../../etc/shadow", "block", "path.system", true},
		{"/etc/hosts", "block", "path.system", true},
		{"/etc/crontab", "block", "path.system", true},
		{"/etc/cron.d/evil", "block", "path.system", true},
		{"/etc/cron.daily/x", "block", "path.system", true},
		{"/etc/profile.d/x.sh", "block", "path.system", true},
		{"/etc/environment", "block", "path.system", true},
		{"/etc/ld.so.preload", "block", "path.system", true},
		{"/var/spool/cron/crontabs/dev", "confirm", "path.crontab", false},
		{"/var/spool/cron/crontabs/root", "block", "path.system", true},
		{"/etc/apt/apt.conf.d/99hook", "block", "path.system", true},
		{"/etc/udev/rules.d/99-x.rules", "block", "path.system", true},
		{"/etc/NetworkManager/dispatcher.d/99-x", "block", "path.system", true},
		{"/etc/nginx/sites-available/app", "confirm", "path.etc", false},
		{"/var/spool/cron/root", "block", "path.system", true},
		{`C:\ProgramData\ssh\administrators_authorized_keys`, "block", "path.ssh-authorized-keys", true},
		{"\x00dyn/agent-guard/config.json", "block", "self.guard-files", true},
		{"\x00dyn/x/agent-guard/config.json", "confirm", "path.dynamic", false},
		{"\x00dyn/agent-guard/bin", "confirm", "path.dynamic", false},
		{"\x00dyn/agent-guard/state.json", "block", "self.guard-files", true},
		{"/usr/local/bin/tool", "block", "path.system", true},
		{"/etc/fstab", "block", "path.system", true},
		{"/etc/ssh/sshd_config", "block", "path.system", true},
		{"/etc/systemd/system/evil.service", "block", "path.system", true},
		{"/lib/systemd/system/x.service", "block", "path.system", true},
		{"/usr/bin/ls", "block", "path.system", true},
		{"/bin/sh", "block", "path.system", true},
		{"/boot/grub/grub.cfg", "block", "path.system", true},
		{"/Library/LaunchDaemons/com.evil.plist", "block", "path.system", true},
		{`C:\Windows\System32\drivers\etc\hosts`, "block", "path.system", true},
		{`c:\windows\win.ini`, "block", "path.system", true},
		{`D:\Windows\System32\cmd.exe`, "block", "path.system", true},
		{"/dev/sda", "block", "path.disk-device", true},
		{"/dev/nvme0n1", "block", "path.disk-device", true},
		{`\\.\PhysicalDrive0`, "block", "path.disk-device", true},
		{"~/.ssh/authorized_keys", "block", "path.ssh-authorized-keys", true},
		{"$HOME/.ssh/authorized_keys2", "block", "path.ssh-authorized-keys", true},
		{"/root/.ssh/authorized_keys", "block", "path.ssh-authorized-keys", true},
		{"~/.ssh/id_ed25519", "block", "path.ssh-key", false},
		{"~/.ssh/config", "confirm", "path.ssh", false},
		{"~/.aws/credentials", "confirm", "path.credentials", false},
		{"~/.gnupg/gpg.conf", "confirm", "path.gnupg", false},
		{"~/.bashrc", "confirm", "path.shell-rc", false},
		{"${HOME}/.zshrc", "confirm", "path.shell-rc", false},
		{"/home/dev/.profile", "confirm", "path.shell-rc", false},
		{"~/.bash_profile", "confirm", "path.shell-rc", false},
		{`%USERPROFILE%\Documents\WindowsPowerShell\Microsoft.PowerShell_profile.ps1`, "confirm", "path.shell-rc", false},
		{".git/hooks/pre-commit", "confirm", "path.git-hook", false},
		{".git/config", "confirm", "path.git-config", false},
		{"~/.gitconfig", "confirm", "path.git-config", false},
		{"/var/spool/cron/crontabs/dev", "confirm", "path.crontab", false},
		{"/var/spool/cron/crontabs/root", "block", "path.system", true},
		{"/etc/apt/apt.conf.d/99hook", "block", "path.system", true},
		{"/etc/udev/rules.d/99-x.rules", "block", "path.system", true},
		{"/etc/NetworkManager/dispatcher.d/99-x", "block", "path.system", true},
		{"/etc/nginx/sites-available/app", "confirm", "path.etc", false},
		{"/var/spool/cron/root", "block", "path.system", true},
		{"~/.config/autostart/x.desktop", "confirm", "path.autostart", false},
		{"~/Library/LaunchAgents/com.x.plist", "confirm", "path.autostart", false},
		{"/etc/nginx/nginx.conf", "confirm", "path.etc", false},
		{"/opt/app/x.conf", "confirm", "path.system-area", false},
		{"/mnt/data/x", "confirm", "path.outside", false},
		{"", "confirm", "path.empty", false},
		{"~/.config/agent-guard/config.json", "block", "self.guard-files", true},
	}
	for _, tt := range tests {
		f := WritePath(tt.path, cwd, home)
		if got := level(f); got != tt.want || f.Rule != tt.rule || f.RedLine != tt.red {
			t.Errorf("WritePath(%q) = %s %s red=%v (%s); want %s %s red=%v", tt.path, got, f.Rule, f.RedLine, f.Reason, tt.want, tt.rule, tt.red)
		}
		if f.Reason == "" {
			t.Errorf("WritePath(%q): empty reason", tt.path)
		}
	}
}

func TestWritePathWindowsHome(t *testing.T) {
	t.Setenv("AGENT_GUARD_HOME", "")
	const home, cwd = `C:\Users\Dev`, `C:\Users\Dev\proj`
	tests := []struct{ path, want, rule string }{
		{`src\main.go`, "allow", "path.project"},
		{`C:\USERS\dev\PROJ\x.txt`, "allow", "path.project"},
		{`C:\Users\Dev\Desktop\a.txt`, "allow", "path.home"},
		{`C:\Users\Dev\proj\..\..\..\Windows\System32\x.dll`, "block", "path.system"},
		{`%APPDATA%\agent-guard\config.json`, "block", "self.guard-files"},
		{`C:\Program Files\App\x.ini`, "confirm", "path.system-area"},
		{`C:\Users\Dev\.ssh\authorized_keys`, "block", "path.ssh-authorized-keys"},
	}
	for _, tt := range tests {
		f := WritePath(tt.path, cwd, home)
		if got := level(f); got != tt.want || f.Rule != tt.rule {
			t.Errorf("WritePath(%q) = %s %s (%s); want %s %s", tt.path, got, f.Rule, f.Reason, tt.want, tt.rule)
		}
	}
}

func TestProtected(t *testing.T) {
	gh := t.TempDir()
	t.Setenv("AGENT_GUARD_HOME", gh)
	const home, cwd = "/home/dev", "/home/dev/proj"
	yes := []string{
		"~/.config/agent-guard/config.json",
		"/home/other/.config/agent-guard/config.json",
		"/root/.cache/agent-guard/judgments.json",
		"~/.local/state/agent-guard/audit.jsonl",
		"/Users/dev/Library/Application Support/agent-guard/config.json",
		`C:\Users\dev\AppData\Local\agent-guard\audit.jsonl`,
		`%APPDATA%\agent-guard\config.json`,
		"~/.zcode/cli/config.json",
		".zcode/config.json",
		"/srv/ws/.zcode/config.json",
		"~/.claude/settings.json",
		"../.claude/settings.local.json",
		".claude/settings.json",
		"~/.agentguardrc",
		gh + "/config.json",
		gh + "/cache/judgments.json",
		"/usr/local/bin/agent-guard-hook",
		"/Library/Application Support/ClaudeCode/managed-settings.json",
		"~/.config/../.config/agent-guard/x",
	}
	for _, p := range yes {
		f, ok := Protected(p, cwd, home)
		if !ok || !f.RedLine || !strings.HasPrefix(f.Rule, "self.") || level(f) != "block" || !strings.Contains(f.Reason, "own guard") {
			t.Errorf("Protected(%q) = %v %+v; want a self.* red line", p, ok, f)
		}
	}
	no := []string{
		"src/agent-guard/main.go",
		"/home/dev/src/agent-guard/app/judge/judge.go",
		"~/.config/other/config.json",
		".zcode/notes.md",
		".claude/commands/x.md",
		"config.json",
		"",
	}
	for _, p := range no {
		if f, ok := Protected(p, cwd, home); ok {
			t.Errorf("Protected(%q) = %+v; want not protected", p, f)
		}
	}
}

func TestProtectedTree(t *testing.T) {
	gh := t.TempDir()
	t.Setenv("AGENT_GUARD_HOME", gh)
	const home, cwd = "/home/dev", "/home/dev/proj"
	for _, p := range []string{"~/.config", "~/.zcode", "/home/dev/.claude", "~/.local", ".zcode", gh, gh + "/cache"} {
		if f, ok := ProtectedTree(p, cwd, home); !ok || !f.RedLine {
			t.Errorf("ProtectedTree(%q) = %v; want protected", p, ok)
		}
	}
	for _, p := range []string{"build", "node_modules", "~/Downloads", "/tmp/x"} {
		if _, ok := ProtectedTree(p, cwd, home); ok {
			t.Errorf("ProtectedTree(%q) protected; want not", p)
		}
	}
}

func TestSecretPath(t *testing.T) {
	const home, cwd = "/home/dev", "/home/dev/proj"
	for _, p := range []string{"~/.ssh/id_rsa", "~/.aws/credentials", ".env", ".env.production", "~/.netrc", "/etc/shadow", "~/.kube/config"} {
		if !SecretPath(p, cwd, home) {
			t.Errorf("SecretPath(%q) = false", p)
		}
	}
	for _, p := range []string{"~/.ssh/id_rsa.pub", "src/main.go", ".env.example", "README.md"} {
		if SecretPath(p, cwd, home) {
			t.Errorf("SecretPath(%q) = true", p)
		}
	}
}

func FuzzWritePath(f *testing.F) {
	for _, s := range []string{"~/.ssh/authorized_keys", `C:\Windows\x`, "../../etc/passwd", "~x/y", "%APPDATA%", "c:", "\x00dyn/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		w := WritePath(p, "/home/dev/proj", "/home/dev")
		if w.Rule == "" || w.Reason == "" {
			t.Fatalf("WritePath(%q) without rule or reason: %+v", p, w)
		}
		Protected(p, "", "")
		ProtectedTree(p, "proj", "")
	})
}
