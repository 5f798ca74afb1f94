package remote

// Remote code: a download or a decoder feeding a shell or interpreter, a
// script downloaded and run in the same line, PowerShell download
// cradles, Windows "living off the land" launchers. Downloading to a file
// alone is allowed. The walker already marks code it cannot see
// (HiddenCode); this pack names the download and decodes what it can.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"path"
	"slices"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/facts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.OnAny(ruleRemoteFeed)
	pack.OnAny(ruleRemoteCradle)
	pack.OnAny(ruleDownloadRun)
	pack.On(ruleLolbin, "msiexec", "regsvr32", "mshta", "certutil", "bitsadmin", "cscript", "wscript", "installutil", "regasm", "regsvcs", "msbuild", "odbcconf", "forfiles", "pcalua", "hh")
}

var pkDownloaders = rules.PkSet("curl", "wget", "wget2", "fetch", "http", "https", "httpie", "xh", "aria2c", "lwp-request", "get", "invoke-webrequest", "iwr", "invoke-restmethod", "irm", "lynx", "links", "w3m", "ftp", "tftp", "scp", "nc", "ncat", "socat", "openssl", "gh", "gsutil", "aws", "start-bitstransfer")
var pkDecoders = rules.PkSet("base64", "base32", "xxd", "openssl", "gunzip", "gzip", "zcat", "bzip2", "bunzip2", "xz", "unxz", "rev", "tr", "uudecode", "certutil", "python", "python3", "perl", "basenc")

// pkEvaluators run code handed to them without being a shell or an
// interpreter of the facts table: the shell's own eval and source, and
// PowerShell's Invoke-Expression.
var pkEvaluators = rules.PkSet("iex", "invoke-expression", "source", ".", "eval", "osascript")

// pkCodeRunner: a program that runs code piped or handed to it (facts'
// shells and interpreters, and the evaluators above).
func pkCodeRunner(name string) bool { return facts.RunsCode(name) || pkEvaluators.Has(name) }

// ruleRemoteFeed: curl | sh, base64 -d | bash, wget -O- | python.
func ruleRemoteFeed(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if !pkCodeRunner(c.Name) || !c.FedCode && !c.HiddenCode || len(c.PipedFrom) == 0 {
		return rules.Finding{}, false
	}
	var dl, dec string
	for _, n := range c.PipedFrom {
		if pkDownloaders.Has(n) && dl == "" && (n != "openssl" || !pkDecodersOnly(x, c)) {
			// openssl base64 -d fed a static text decodes, it does not download.
			dl = n
		}
		if pkDecoders.Has(n) && dec == "" {
			dec = n
		}
	}
	switch {
	case dl != "":
		f := rules.PkF(c, 2.3, 0.6, "remote.pipe-to-shell", "runs code downloaded by "+dl+" without showing it ("+dl+" | "+c.Name+")")
		if slices.ContainsFunc(c.Wrappers, facts.IsUnixElevator) {
			f.Risk, f.Reason = 2.4, f.Reason+", as root"
		}
		return f, true
	case dec != "":
		if inner, ok := pkDecodedFeed(c, x); ok {
			f := rules.Bash(inner, x.Cwd, x.Home)
			hid := rules.PkF(c, 2.2, 0.6, "remote.decoded", "runs encoded code ("+dec+" | "+c.Name+"); decoded it "+strings.TrimSpace(f.Reason))
			if f.Worse(hid) {
				f.Rule = "remote.decoded/" + f.Rule
				f.Reason = "runs encoded code that, decoded, " + f.Reason
				f.Marked = c.Raw
				return f, true
			}
			return hid, true
		}
		return rules.PkRet(c, 2.2, 0.6, "remote.decoded", "runs code hidden behind an encoding ("+dec+" | "+c.Name+")")
	}
	return rules.Finding{}, false
}

// ruleRemoteCradle: PowerShell download cradles, iex (New-Object
// Net.WebClient).DownloadString(...), iwr ... | iex, and shells fed from a
// substituted download: sh -c "$(curl ...)", bash <(wget ...).
func ruleRemoteCradle(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if !pkCodeRunner(c.Name) && !rules.PkContainsFold(c.Raw, "ex") {
		return rules.Finding{}, false
	}
	low := strings.ToLower(c.Raw)
	dl := strings.Contains(low, "downloadstring") || strings.Contains(low, "downloaddata") || strings.Contains(low, "downloadfile") || strings.Contains(low, "net.webclient") || strings.Contains(low, "invoke-webrequest") || strings.Contains(low, "invoke-restmethod") || strings.Contains(low, "iwr ") || strings.Contains(low, "irm ") || strings.Contains(low, "start-bitstransfer") || strings.Contains(low, "xmlhttp")
	runs := c.Name == "iex" || c.Name == "invoke-expression" || strings.Contains(low, "iex ") || strings.Contains(low, "iex(") || strings.Contains(low, "invoke-expression") || strings.Contains(low, "| iex") || strings.Contains(low, "|iex") || strings.Contains(low, "scriptblock]::create") || strings.Contains(low, ".invoke()")
	if dl && runs {
		return rules.PkRet(c, 2.4, 0.6, "remote.ps-cradle", "downloads code and runs it at once (PowerShell download cradle)")
	}
	if (c.Name == "iex" || c.Name == "invoke-expression") && len(c.PipedFrom) > 0 {
		for _, n := range c.PipedFrom {
			if pkDownloaders.Has(n) {
				return rules.PkRet(c, 2.4, 0.6, "remote.pipe-to-iex", "runs code downloaded by "+n+" (| iex)")
			}
		}
	}
	if !pkCodeRunner(c.Name) {
		return rules.Finding{}, false
	}
	for _, pre := range []string{"$(", "`", "<(", "<( "} {
		for _, d := range []string{"curl", "wget", "iwr", "invoke-webrequest", "fetch", "http ", "aria2c"} {
			if strings.Contains(low, pre+d) {
				return rules.PkRet(c, 2.3, 0.6, "remote.substituted-download", "runs code downloaded by "+strings.TrimSpace(d)+" without showing it")
			}
		}
	}
	return rules.Finding{}, false
}

// ruleDownloadRun: a file downloaded in the line and then executed in the
// same line (curl -o x.sh URL && bash x.sh; wget URL; chmod +x f; ./f).
func ruleDownloadRun(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	all := rules.PkAll(x)
	if len(all) < 2 {
		return rules.Finding{}, false
	}
	anyDl := false
	for i := range all {
		if pkDownloaders.Has(all[i].Name) {
			anyDl = true
			break
		}
	}
	if !anyDl {
		return rules.Finding{}, false
	}
	target := ""
	var targets []string
	switch {
	case len(dlFileRunnerTargets(c)) > 0:
		targets = dlFileRunnerTargets(c)
	case pkCodeRunner(c.Name):
		if ops := c.Operands(); len(ops) > 0 {
			target = ops[0]
		}
	case c.Name == "start-process" || c.Name == "saps" || c.Name == "start" || c.Name == "invoke-item" || c.Name == "ii" || c.Name == "&" || c.Name == "msiexec":
		if v, ok := rules.PkWinVal(c, "filepath", "i", "package"); ok {
			target = v
		} else if ops := c.Operands(); len(ops) > 0 {
			target = ops[0]
		}
	case c.Name == "chmod" || c.Name == "sudo" || c.Name == "curl" || c.Name == "wget":
		return rules.Finding{}, false
	default:
		target = c.Name
		if c.Path != "" {
			target = c.Path // .\i.ps1: the name alone has lost .ps1
		}
	}
	if target != "" {
		targets = append(targets, target)
	}
	for _, t := range targets {
		if t == "" || rules.PkDyn(t) {
			continue
		}
		tb := shell.NormName(t)
		for i := range all {
			o := &all[i]
			if o == c || !pkDownloaders.Has(o.Name) {
				continue
			}
			for _, out := range pkDownloadOutputs(o) {
				if shell.NormName(out) == tb {
					return rules.PkRet(c, 2.2, 0.55, "remote.download-run", dlVerb(c)+rules.DlShown(t)+", which the same line just downloaded ("+o.Name+"), without showing it")
				}
			}
		}
	}
	return rules.Finding{}, false
}

// pkDownloadOutputs lists the files a downloader writes.
func pkDownloadOutputs(o *shell.Cmd) []string {
	var out []string
	if v, ok := rules.PkVal(o, "-o", "--output", "-OutFile", "-outfile", "--output-document"); ok && v != "-" {
		out = append(out, v)
	}
	if o.Name == "wget" || o.Name == "wget2" {
		if v, ok := rules.PkVal(o, "-O"); ok && v != "-" {
			out = append(out, v)
		}
	}
	// Short clusters ending in the output flag: curl -sSo f, wget -qO f.
	for i, a := range o.Args {
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && i+1 < len(o.Args) {
			last := a[len(a)-1]
			if last == 'o' || last == 'O' && (o.Name == "wget" || o.Name == "wget2") {
				out = append(out, o.Args[i+1])
			}
		}
	}
	if v, ok := rules.PkWinVal(o, "outfile"); ok {
		out = append(out, v)
	}
	if o.Name == "start-bitstransfer" {
		if v, ok := rules.PkWinVal(o, "destination"); ok {
			out = append(out, v) // Start-BitsTransfer -Source URL -Destination x.exe
		}
	}
	for _, r := range o.Redirs {
		if r.Op == ">" || r.Op == ">>" {
			out = append(out, r.Target)
		}
	}
	// wget URL and curl -O URL keep the URL's file name.
	if o.Name == "wget" || o.Name == "wget2" || o.Flag('O', "--remote-name") {
		for _, op := range o.Operands() {
			if strings.Contains(op, "://") {
				u := op
				if i := strings.IndexAny(u, "?#"); i >= 0 {
					u = u[:i]
				}
				out = append(out, path.Base(u))
			}
		}
	}
	return out
}

func ruleLolbin(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	low := strings.ToLower(c.Raw)
	remote := strings.Contains(low, "http://") || strings.Contains(low, "https://") || strings.Contains(low, `\\`) && c.Name != "certutil"
	switch c.Name {
	case "msiexec":
		if remote {
			return rules.PkRet(c, 2.3, 0.6, "remote.msiexec", "installs a package straight from the network")
		}
		if rules.PkWinFlag(c, "x", "uninstall") {
			return rules.PkRet(c, 1.5, 0.2, "pkg.msiexec-uninstall", "uninstalls a Windows program")
		}
		return rules.PkRet(c, 1.5, 0.2, "pkg.msiexec", "installs a Windows package system-wide")
	case "regsvr32":
		if remote || strings.Contains(low, "scrobj") {
			return rules.PkRet(c, 2.8, rules.RedLineAt, "remote.regsvr32", "runs remote script code through regsvr32")
		}
		return rules.PkRet(c, 2, 0.5, "sys.regsvr32", "registers a COM DLL (system registry)")
	case "mshta":
		if remote || strings.Contains(low, "javascript:") || strings.Contains(low, "vbscript:") {
			return rules.PkRet(c, 2.8, rules.RedLineAt, "remote.mshta", "runs remote or inline script code through mshta")
		}
		return rules.PkRet(c, 2, 0.5, "remote.mshta-file", "runs an HTML application")
	case "certutil":
		if rules.PkWinFlag(c, "urlcache", "verifyctl") && remote {
			return rules.PkRet(c, 2, 0.5, "remote.certutil-download", "downloads a file with certutil (a common malware trick)")
		}
		if rules.PkWinFlag(c, "decode", "decodehex") {
			return rules.PkRet(c, 1.5, 0.4, "remote.certutil-decode", "decodes a hidden payload")
		}
		if rules.PkWinFlag(c, "addstore", "delstore", "importpfx", "repairstore") {
			return rules.PkRet(c, 2.3, 0.6, "sys.certstore", "changes the trusted certificate store")
		}
		return rules.PkAllow(c, 0, "win.certutil", "reads certificates or hashes files")
	case "bitsadmin":
		if rules.PkWinFlag(c, "transfer", "addfile", "setnotifycmdline") {
			return rules.PkRet(c, 1.8, 0.4, "remote.bitsadmin", "downloads files in the background (can run a command when done)")
		}
		return rules.PkAllow(c, 0, "win.bitsadmin", "lists transfer jobs")
	case "cscript", "wscript":
		if remote {
			return rules.PkRet(c, 2.3, 0.6, "remote.wsh", "runs a script from the network")
		}
		return rules.PkUnsure(c, 1, "win.wsh", "runs a Windows script file (contents not shown)")
	case "installutil", "regasm", "regsvcs", "odbcconf", "pcalua", "hh":
		return rules.PkRet(c, 2, 0.5, "remote.lolbin", c.Name+" can run arbitrary code (a common way around application control)")
	case "msbuild":
		if remote {
			return rules.PkRet(c, 2.3, 0.6, "remote.msbuild", "builds a project from the network")
		}
		return rules.PkAllow(c, 1, "dev.msbuild", "builds a project")
	case "forfiles":
		if v, ok := rules.PkWinVal(c, "c"); ok {
			if f, ok := rules.PkEval(rules.PkInner(c, forfilesWords(c, v)), x); ok {
				return f, true
			}
		}
		return rules.PkUnsure(c, 1, "win.forfiles", "runs a command for matching files")
	}
	return rules.Finding{}, false
}
