package remote

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// curl -L URL | tar xz && ./tool/install.sh, curl -LO URL/a.zip && unzip
// a.zip && ./a/run.sh: a program run by a relative path after an archive
// the same line downloaded was unpacked is code fetched from the network,
// run before anyone read it (curl | sh in three steps).

func init() { pack.OnAny(ruleDownloadExtractRun) }

var dlExtractors = rules.PkSet("tar", "bsdtar", "unzip", "7z", "7za", "expand-archive", "gunzip", "unxz", "bunzip2")

func ruleDownloadExtractRun(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	target := ""
	switch {
	case c.Path != "" && !strings.HasPrefix(c.Path, "/") && !strings.HasPrefix(c.Path, "~") && strings.ContainsAny(c.Path, "/\\"):
		target = c.Path // ./install.sh, tool/bin/run
	case pkCodeRunner(c.Name):
		if ops := c.Operands(); len(ops) > 0 && strings.ContainsAny(ops[0], "/\\") && !strings.HasPrefix(ops[0], "/") && !strings.HasPrefix(ops[0], "~") && !rules.PkDyn(ops[0]) {
			target = ops[0] // sh tool/install.sh
		}
	}
	if target == "" {
		return rules.Finding{}, false
	}
	all := rules.PkAll(x)
	at := -1
	for i := range all {
		if &all[i] == c || all[i].Raw == c.Raw && all[i].Name == c.Name && all[i].Start == c.Start {
			at = i
			break
		}
	}
	if at <= 0 {
		return rules.Finding{}, false
	}
	var fetched []string
	for i := 0; i < at; i++ {
		o := &all[i]
		if pkDownloaders.Has(o.Name) {
			for _, out := range pkDownloadOutputs(o) {
				fetched = append(fetched, shell.NormName(out))
			}
			continue
		}
		if !dlExtractors.Has(o.Name) {
			continue
		}
		dl := ""
		if n := len(o.PipedFrom); n > 0 && pkDownloaders.Has(o.PipedFrom[n-1]) {
			dl = o.PipedFrom[n-1]
		}
		for _, a := range o.Args {
			for _, f := range fetched {
				if a != "" && a[0] != '-' && shell.NormName(a) == f {
					dl = "an earlier download"
				}
			}
			if v, ok := strings.CutPrefix(a, "-f"); ok && v != "" {
				for _, f := range fetched {
					if shell.NormName(v) == f {
						dl = "an earlier download"
					}
				}
			}
		}
		if v, ok := rules.PkWinVal(o, "path"); ok {
			for _, f := range fetched {
				if shell.NormName(v) == f {
					dl = "an earlier download"
				}
			}
		}
		if dl != "" {
			return rules.PkRet(c, 2.2, 0.55, "remote.download-run", "runs "+target+" out of an archive the same line just downloaded and unpacked ("+o.Name+" of "+dl+"), without showing it")
		}
	}
	return rules.Finding{}, false
}
