package everyday

// Output files of everyday tools: curl -o, wget -O, sort -o, openssl -out,
// yq -i, sponge, tar -x -C, docker/kubectl cp, scp/gsutil/aws s3 cp to a
// local path, git clone into a folder. The file they write is judged like
// the Write tool's (guard files and agent hook settings block, system files
// block, shell start-up files confirm); a folder they fill blocks when it
// is one of the guard's own.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.On(ruleOutputFile, "curl", "wget", "wget2", "sort", "openssl", "yq", "sponge", "tar", "bsdtar", "gtar",
		"docker", "podman", "kubectl", "oc", "scp", "gsutil", "aws", "git", "gpg", "gpg2", "iconv", "pandoc", "patch", "xxd", "base64")
}

// pkOutTargets returns the files and folders c writes into.
func pkOutTargets(c *shell.Cmd) (files, dirs []string) {
	val := func(names ...string) {
		if v, ok := rules.PkVal(c, names...); ok && v != "-" && v != "" {
			files = append(files, v)
		} else if v := clusterVal(c, names[0]); v != "" && v != "-" {
			files = append(files, v)
		}
	}
	dir := func(names ...string) {
		if v, ok := rules.PkVal(c, names...); ok && v != "" {
			dirs = append(dirs, v)
		}
	}
	var ops []string
	switch c.Name {
	case "patch", "yq", "sponge", "xxd", "docker", "podman", "kubectl", "oc", "scp", "gsutil", "aws", "git":
		ops = c.Operands() // only these look at operands (an allocation)
	}
	last := func() string {
		if len(ops) > 1 {
			return ops[len(ops)-1]
		}
		return ""
	}
	switch c.Name {
	case "curl":
		val("-o", "--output")
		dir("--output-dir")
	case "wget", "wget2":
		val("-O", "--output-document")
		dir("-P", "--directory-prefix")
	case "sort", "iconv", "pandoc", "base64":
		val("-o", "--output")
	case "gpg", "gpg2":
		val("-o", "--output")
	case "openssl":
		val("-out")
	case "patch":
		val("-o", "--output")
		if len(ops) > 0 {
			files = append(files, ops[0])
		}
	case "yq":
		if c.Flag('i', "--inplace") && len(ops) > 1 {
			files = append(files, ops[1:]...)
		}
	case "sponge":
		files = append(files, ops...)
	case "xxd":
		if c.Flag('r', "--revert") && len(ops) > 1 {
			files = append(files, ops[1])
		}
	case "tar", "bsdtar", "gtar":
		extract := c.Flag('x', "--extract", "--get")
		if len(c.Args) > 0 && !strings.HasPrefix(c.Args[0], "-") && strings.Contains(c.Args[0], "x") {
			extract = true // tar xzf a.tgz
		}
		if extract {
			dir("-C", "--directory", "--cd")
		}
	case "docker", "podman", "kubectl", "oc":
		if len(ops) > 2 && ops[0] == "cp" {
			if t := last(); !strings.Contains(t, ":") || rules.HasDrive(t) {
				files = append(files, t)
			}
		}
	case "scp":
		if t := last(); t != "" && (!strings.Contains(t, ":") || rules.HasDrive(t)) {
			files = append(files, t)
		}
	case "gsutil":
		if len(ops) > 2 && (ops[0] == "cp" || ops[0] == "mv" || ops[0] == "rsync") {
			if t := last(); !strings.Contains(t, "://") {
				files = append(files, t)
			}
		}
	case "aws":
		if len(ops) > 3 && ops[0] == "s3" && (ops[1] == "cp" || ops[1] == "mv" || ops[1] == "sync") {
			if t := last(); !strings.Contains(t, "://") {
				files = append(files, t)
			}
		}
	case "git":
		if len(ops) > 2 && ops[0] == "clone" {
			dirs = append(dirs, ops[2])
		}
	}
	return files, dirs
}

// ruleOutputFile judges the files and folders a tool writes into.
func ruleOutputFile(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch c.Name {
	case "git":
		if !rules.PkHas(c, "clone") {
			return rules.Finding{}, false
		}
	case "docker", "podman", "kubectl", "oc":
		if !rules.PkHas(c, "cp") {
			return rules.Finding{}, false
		}
	case "aws", "gsutil":
		if !rules.PkHas(c, "cp") && !rules.PkHas(c, "mv") && !rules.PkHas(c, "sync") && !rules.PkHas(c, "rsync") {
			return rules.Finding{}, false
		}
	}
	files, dirs := pkOutTargets(c)
	var fs []rules.Finding
	for _, f := range files {
		if w, ok := rules.Protected(f, x.Cwd, x.Home); ok {
			fs = append(fs, w)
			continue
		}
		if rules.PkDyn(f) {
			continue // the tool's own rules and the dynamic pack judge it
		}
		if w := rules.WritePath(f, x.Cwd, x.Home); w.Score() >= 1.5 || w.RedLine {
			fs = append(fs, w)
		}
	}
	for _, d := range dirs {
		// The guard's folder itself, or the agent's settings folder whose
		// hook files an archive or clone could overwrite (~/.claude,
		// ~/.zcode; their subfolders such as skills/ are fine).
		cands := []string{d}
		switch strings.ToLower(rules.LastSeg(strings.TrimRight(rules.Slashify(d), "/"))) {
		case ".claude":
			cands = append(cands, d+"/settings.json")
		case ".zcode":
			cands = append(cands, d+"/config.json")
		}
		for _, p := range cands {
			if w, ok := rules.Protected(p, x.Cwd, x.Home); ok {
				w.Marked = d
				fs = append(fs, w)
				break
			}
		}
	}
	if len(fs) == 0 {
		return rules.Finding{}, false
	}
	w := rules.Worst(fs...)
	w.Rule = c.Name + "/" + w.Rule
	w.Reason = c.Name + " writes its output there: " + w.Reason
	if w.Marked == "" {
		w.Marked = c.Raw
	}
	return w, true
}

// clusterVal is the value of the short flag n ("-o") written last in a
// cluster of short flags (curl -sSLo FILE, wget -qO FILE, sort -uo FILE):
// getopt reads the letters before it as switches and the next word as
// its value.
func clusterVal(c *shell.Cmd, n string) string {
	if len(n) != 2 || n[0] != '-' || n[1] == '-' {
		return ""
	}
	for i, a := range c.Args {
		if a == "--" {
			break
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && a[len(a)-1] == n[1] && i+1 < len(c.Args) && letters(a[1:]) {
			return c.Args[i+1]
		}
	}
	return ""
}

func letters(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i] | 0x20; b < 'a' || b > 'z' {
			return false
		}
	}
	return true
}
