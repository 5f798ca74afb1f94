package shell

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf16"
)

// wspec describes a wrapper program: which options take an argument, how
// many positional words precede the wrapped command, and which option
// carries shell code instead of a command.
type wspec struct {
	short    string   // short options taking an argument
	long     []string // long options taking a separate argument
	pos      int      // positional words before the command
	code     byte     // short option whose argument is shell code (su -c)
	longCode string   // its long form (--command)
	noCmd    bool     // operands are not a command (su user, script file)
}

var wrappers = map[string]wspec{
	"sudo":     {short: "ugCDprtTUh", long: []string{"--user", "--group", "--prompt", "--chdir", "--role", "--type", "--close-from", "--other-user", "--host"}},
	"doas":     {short: "uC"},
	"run0":     {short: "ugD", long: []string{"--user", "--group", "--chdir"}},
	"pkexec":   {long: []string{"--user"}},
	"env":      {short: "uCPS", long: []string{"--unset", "--chdir"}},
	"nohup":    {},
	"timeout":  {short: "sk", long: []string{"--signal", "--kill-after"}, pos: 1},
	"gtimeout": {short: "sk", long: []string{"--signal", "--kill-after"}, pos: 1},
	"nice":     {short: "n", long: []string{"--adjustment"}},
	"ionice":   {short: "cnp", long: []string{"--class", "--classdata", "--pid"}},
	"stdbuf":   {short: "ioe", long: []string{"--input", "--output", "--error"}},
	"time":     {short: "fo", long: []string{"--format", "--output"}},
	"command":  {},
	"builtin":  {},
	"exec":     {short: "a"},
	// xargs, parallel and watch are runners (runners.go): read with the
	// opts grammar, their arguments opened up.
	"xargs":            {},
	"strace":           {short: "abeoOpPsSuEXI"},
	"ltrace":           {short: "eoOpsunAD"},
	"chroot":           {long: []string{"--userspec", "--groups"}, pos: 1},
	"setsid":           {},
	"flock":            {short: "wE", long: []string{"--timeout", "--conflict-exit-code"}, pos: 1, code: 'c', longCode: "--command"},
	"unbuffer":         {},
	"su":               {short: "sgGw", long: []string{"--shell", "--group", "--supp-group"}, code: 'c', longCode: "--command", noCmd: true},
	"runuser":          {short: "ugGsw", long: []string{"--user", "--group", "--supp-group", "--shell"}, code: 'c', longCode: "--command"},
	"sg":               {pos: 1, code: 'c'},
	"script":           {short: "ETIOBm", code: 'c', longCode: "--command", noCmd: true},
	"watch":            {},
	"parallel":         {},
	"taskset":          {pos: 1},
	"chrt":             {pos: 1},
	"caffeinate":       {short: "tw"},
	"proxychains":      {short: "f"},
	"proxychains4":     {short: "f"},
	"torsocks":         {short: "uapP"},
	"tsocks":           {},
	"unshare":          {short: "S", long: []string{"--setuid", "--setgid"}},
	"nsenter":          {short: "tSG", long: []string{"--target", "--setuid", "--setgid"}},
	"systemd-run":      {short: "pEuMH", long: []string{"--unit", "--property", "--description", "--slice", "--uid", "--gid", "--setenv", "--working-directory", "--machine", "--host"}},
	"firejail":         {},
	"xvfb-run":         {short: "nsfepw", long: []string{"--server-num", "--server-args", "--auth-file", "--error-file"}},
	"dbus-run-session": {},
	"busybox":          {},
	"toybox":           {},
	"catchsegv":        {},
	"rlwrap":           {},
	"coproc":           {},
	"gsudo":            {short: "ud", long: []string{"--user", "--chdir"}},
	"wsl":              {short: "du", long: []string{"--distribution", "--user", "--cd", "--shell-type"}},
}

// unwrap peels wrapper n off args. It returns the wrapped command's argv,
// whether n is a wrapper, and shell code the wrapper runs (su -c 'code',
// watch 'code', env -S 'code').
func unwrap(n string, args []string) (rest []string, isWrap bool, code string, hasCode bool, dir string) {
	spec, ok := wrappers[n]
	if !ok {
		return nil, false, "", false, ""
	}
	if n == "command" {
		for _, a := range args {
			if a == "-v" || a == "-V" {
				return nil, false, "", false, "" // a lookup, runs nothing
			}
			if a == "" || a[0] != '-' {
				break
			}
		}
	}
	if n == "exec" && len(args) == 0 {
		return nil, false, "", false, ""
	}
	if n == "taskset" || n == "chrt" {
		// taskset -p MASK PID, chrt -p PRIO PID: set an existing process's
		// affinity or priority; the last word is a pid, not a command.
		for _, a := range args {
			if a == "" || a[0] != '-' {
				break
			}
			if a == "--pid" || a != "--" && a[1] != '-' && strings.ContainsRune(a, 'p') {
				return nil, false, "", false, ""
			}
		}
	}
	if n == "su" || n == "runuser" || n == "sg" || n == "script" {
		// su - root -c 'code': the code option may follow the user.
		for i, a := range args {
			switch {
			case a == "--":
				i = len(args)
			case a == "-c" || a == "--command" || len(a) > 2 && a[0] == '-' && a[1] != '-' && a[len(a)-1] == 'c' && n != "script":
				if i+1 < len(args) {
					return nil, true, args[i+1], true, dir
				}
			case strings.HasPrefix(a, "--command="):
				return nil, true, a[len("--command="):], true, dir
			}
			if i >= len(args) {
				break
			}
		}
	}
	if n == "wsl" {
		// wsl --unregister X and friends manage WSL; only -e/--exec/-- run a command.
		for _, a := range args {
			if strings.HasPrefix(a, "--") && a != "--" && a != "--exec" && a != "--cd" && a != "--distribution" && a != "--user" && a != "--shell-type" && a != "--system" {
				return nil, false, "", false, ""
			}
		}
		if len(args) == 0 {
			return nil, false, "", false, ""
		}
	}
	envSplit := ""
	i := 0
	for i < len(args) {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if n == "env" && strings.IndexByte(a, '=') > 0 && a[0] != '-' {
			i++
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		if strings.HasPrefix(a, "--") {
			name, val, eq := strings.Cut(a, "=")
			switch {
			case spec.longCode != "" && name == spec.longCode:
				if eq {
					return nil, true, val, true, dir
				}
				if i+1 < len(args) {
					return nil, true, args[i+1], true, dir
				}
			case n == "env" && name == "--split-string":
				if eq {
					envSplit = val
				} else if i+1 < len(args) {
					envSplit = args[i+1]
					i++
				}
			case !eq && contains(spec.long, name):
				if (name == "--chdir") && i+1 < len(args) {
					dir = args[i+1]
				}
				i++
			case eq && name == "--chdir":
				dir = val
			}
			i++
			continue
		}
		// A short cluster: -rf, -u root, -uroot, -n10.
		for k := 1; k < len(a); k++ {
			ch := a[k]
			if spec.code != 0 && ch == spec.code {
				v := a[k+1:]
				if v == "" && i+1 < len(args) {
					v = args[i+1]
				}
				return nil, true, v, true, dir
			}
			if strings.IndexByte(spec.short, ch) >= 0 {
				v := a[k+1:]
				if v == "" && i+1 < len(args) {
					v = args[i+1]
					i++
				}
				if n == "env" && ch == 'S' {
					envSplit = v
				}
				if (n == "env" && ch == 'C') || (n == "sudo" && ch == 'D') {
					dir = v
				}
				break
			}
		}
		i++
	}
	for p := 0; p < spec.pos && i < len(args); p++ {
		i++
	}
	rest = args[i:]
	// flock FILE -c 'code', sg GROUP -c 'code': the code option after the positional.
	if spec.code != 0 && len(rest) >= 2 && rest[0] == "-"+string(spec.code) {
		return nil, true, rest[1], true, dir
	}
	if spec.noCmd {
		return nil, true, "", false, dir
	}
	switch n {
	case "env":
		if envSplit != "" {
			rest = append(strings.Fields(envSplit), rest...)
		}
	case "busybox", "toybox":
		if len(rest) > 0 && rest[0] == "--install" {
			return nil, false, "", false, ""
		}
	}
	return rest, true, "", false, dir
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// powershell handles powershell/pwsh: -Command, -EncodedCommand, -File,
// positional code, or code from stdin (-Command -).
func (w *walker) powershell(idx int) {
	c := &w.a.Cmds[idx]
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := lower(args[i])
		if a == "" || (a[0] != '-' && a[0] != '/') {
			code := strings.Join(args[i:], " ")
			if c.Name == "pwsh" && strings.HasSuffix(a, ".ps1") {
				w.script(idx, args[i])
				return
			}
			c.FedCode = true
			w.nestedWin(code, true)
			return
		}
		if a == "-" {
			w.stdin(idx)
			return
		}
		opt := "-" + a[1:]
		switch {
		case opt == "-c" || opt == "-cmd" || len(opt) >= 4 && strings.HasPrefix("-command", opt):
			code := strings.Join(args[i+1:], " ")
			if code == "-" {
				w.stdin(idx)
				return
			}
			c.FedCode = true
			w.nestedWin(code, true)
			return
		case opt == "-e" || opt == "-ec" || len(opt) >= 3 && strings.HasPrefix("-encodedcommand", opt):
			c.FedCode = true
			if i+1 >= len(args) {
				return
			}
			code, ok := decodePSBase64(args[i+1])
			if !ok {
				w.unknownFeed(idx)
				return
			}
			w.nestedWin(code, true)
			return
		case opt == "-f" || len(opt) >= 3 && strings.HasPrefix("-file", opt):
			if i+1 < len(args) {
				w.script(idx, args[i+1])
			}
			return
		case strings.HasPrefix("-executionpolicy", opt) && len(opt) >= 3, opt == "-ep",
			strings.HasPrefix("-windowstyle", opt) && len(opt) >= 2,
			strings.HasPrefix("-version", opt) && len(opt) >= 2,
			strings.HasPrefix("-inputformat", opt) && len(opt) >= 3, opt == "-if",
			strings.HasPrefix("-outputformat", opt) && len(opt) >= 3, opt == "-of",
			strings.HasPrefix("-configurationname", opt) && len(opt) >= 4,
			strings.HasPrefix("-workingdirectory", opt) && len(opt) >= 3, opt == "-wd",
			strings.HasPrefix("-psconsolefile", opt) && len(opt) >= 3,
			strings.HasPrefix("-settingsfile", opt) && len(opt) >= 3:
			i++
		}
	}
	// No code: an interactive shell, or code from a pipe.
	w.stdin(idx)
}

func decodePSBase64(s string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u)), true
}

// nestedWin judges cmd.exe or PowerShell code: split naively into pieces
// on separators and blocks, each piece a command of words.
func (w *walker) nestedWin(code string, ps bool) {
	if w.depth+1 > MaxDepth {
		w.setErr(errDeep)
		return
	}
	if w.tooDeep(code) {
		return
	}
	w.st.parsed += len(code)
	if w.st.stopped || w.st.parsed > 4*MaxInput {
		w.setErr(fmt.Errorf("more than %d bytes of nested code", 4*MaxInput))
		w.st.stopped = true
		return
	}
	n := w.child()
	if ps {
		n.psLine(code)
		return
	}
	if body, ok := cmdForBody(code); ok && body != code {
		code = body // for %x in (...) do CMD: CMD once per item (cmdfor.go)
	}
	pieces, raws := splitWords(code, modeCmd)
	for i, argv := range pieces {
		if n.stop() {
			return
		}
		if len(argv) > 0 && lower(argv[0]) == "if" {
			if body, ok := cmdIfBody(raws[i]); ok {
				n.nestedWin(body, false) // if exist X CMD inside cmd /c or a FOR
				continue
			}
		}
		n.command(argv, nil, raws[i], false, nil)
	}
}

// envAssigns are the NAME=value words env(1) sets before its command.
func envAssigns(args []string) []string {
	var out []string
	for i := 0; i < len(args) && len(out) < 64; i++ {
		a := args[i]
		switch {
		case a == "--":
			continue
		case a == "-u" || a == "-C" || a == "-S" || a == "--unset" || a == "--chdir" || a == "--split-string":
			i++
		case strings.HasPrefix(a, "-"):
		case strings.IndexByte(a, '=') > 0:
			out = append(out, a)
		default:
			return out
		}
	}
	return out
}

// PeelWrappers strips plain wrappers (env, sudo, command, busybox, nice,
// timeout ...) off argv and returns them with the wrapped command. It
// stops at runners (xargs, parallel, watch), wrappers that run shell code
// (su -c) and lookups (command -v), which need their own reading.
func PeelWrappers(argv []string) (peeled, rest []string) {
	for len(argv) > 1 {
		switch argv[0] {
		case "xargs", "parallel", "watch":
			return peeled, argv
		}
		r, isWrap, _, hasCode, _ := unwrap(argv[0], argv[1:])
		if !isWrap || hasCode || len(r) == 0 {
			break
		}
		peeled = append(peeled, argv[0])
		argv = r
	}
	return peeled, argv
}
