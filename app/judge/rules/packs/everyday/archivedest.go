package everyday

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Unpacking or copying a whole tree over a folder writes every file the
// tree holds there. Over a system folder that is already a red line
// (sys.extract-over-system); over the home folder itself it can replace
// .bashrc, .profile, .ssh/authorized_keys or .gitconfig, whatever the
// archive or folder carries, so it is a question. Expand-Archive and 7z
// name their destination their own way and were not read at all.

func init() {
	pack.On(ruleExtractDest, "tar", "bsdtar", "unzip", "expand-archive", "7z", "7za", "7zr", "7zz")
	pack.On(ruleCopyOverHome, "cp", "rsync", "copy-item", "cpi", "xcopy", "robocopy")
}

// extractDestFinding judges unpacking an archive into folder d.
func extractDestFinding(c *shell.Cmd, d string, x *rules.Ctx) (rules.Finding, bool) {
	if d == "" {
		return rules.Finding{}, false
	}
	if pkSystemDir(d, x) {
		return rules.PkRet(c, 2.8, rules.RedLineAt, "sys.extract-over-system", "extracts an archive over a system folder ("+d+"), overwriting system files")
	}
	if rules.FsClassify(d, x) == rules.FsHome {
		return rules.PkRet(c, 2, 0.4, "fs.extract-over-home", "extracts an archive over the home folder ("+d+"): whatever it carries replaces the user's files there (.bashrc, .ssh, .gitconfig...)")
	}
	f, _ := rules.PkWriteTarget(c, x, strings.TrimRight(d, `/\`)+"/x", c.Name)
	if f.Score() >= 1.5 || f.RedLine {
		f.Reason = "extracts an archive over " + d + ": " + f.Reason
		return f, true
	}
	return rules.Finding{}, false
}

func ruleExtractDest(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch c.Name {
	case "tar", "bsdtar":
		extract := c.Flag('x', "--extract", "--get") || len(c.Args) > 0 && !strings.HasPrefix(c.Args[0], "-") && strings.Contains(c.Args[0], "x")
		if d, ok := rules.PkVal(c, "-C", "--directory"); ok && extract && rules.FsClassify(d, x) == rules.FsHome {
			return extractDestFinding(c, d, x)
		}
	case "unzip":
		if d, ok := rules.PkVal(c, "-d"); ok && rules.FsClassify(d, x) == rules.FsHome {
			return extractDestFinding(c, d, x)
		}
	case "expand-archive":
		d, ok := rules.PkWinVal(c, "destinationpath", "destination", "dp")
		if !ok {
			// Expand-Archive x.zip DEST: the second positional word.
			var pos []string
			for i := 0; i < len(c.Args); i++ {
				a := c.Args[i]
				if strings.HasPrefix(a, "-") {
					if la := strings.ToLower(a); la == "-path" || la == "-literalpath" {
						i++
					}
					continue
				}
				pos = append(pos, a)
			}
			if len(pos) < 2 {
				return rules.Finding{}, false
			}
			d = pos[1]
		}
		return extractDestFinding(c, d, x)
	default: // 7z x archive -oDIR
		ops := c.Operands()
		if len(ops) == 0 || ops[0] != "x" && ops[0] != "e" {
			return rules.Finding{}, false
		}
		for _, a := range c.Args {
			if len(a) > 2 && (strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "-O")) {
				return extractDestFinding(c, a[2:], x)
			}
		}
	}
	return rules.Finding{}, false
}

// ruleCopyOverHome: a folder's content copied over the home folder
// itself (cp -r dotfiles/. ~/, rsync -a dotfiles/ ~/, robocopy D ~ /E).
// A folder copied into the home under its own name (cp -r proj ~/)
// only adds ~/proj and stays everyday.
func ruleCopyOverHome(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := c.Operands()
	switch c.Name {
	case "xcopy", "robocopy", "copy-item", "cpi":
		var pos []string
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "-") || strings.Contains(a, ":\\") {
				pos = append(pos, a)
			}
		}
		ops = pos
	}
	if len(ops) < 2 {
		return rules.Finding{}, false
	}
	dst := ops[len(ops)-1]
	if strings.Contains(dst, shell.Dyn) || rules.FsClassify(dst, x) != rules.FsHome {
		return rules.Finding{}, false
	}
	contents := false
	for _, s := range ops[:len(ops)-1] {
		t := strings.ReplaceAll(s, `\`, "/")
		switch c.Name {
		case "rsync":
			contents = contents || strings.HasSuffix(t, "/") || strings.HasSuffix(t, "/.") || strings.HasSuffix(t, "/*") || t == "."
		case "robocopy", "xcopy":
			contents = true // both copy the source folder's content
		default:
			contents = contents || strings.HasSuffix(t, "/.") || strings.HasSuffix(t, "/*") || t == "." || t == "*"
		}
	}
	recursive := c.Flag('r', "--recursive", "-R", "--archive") || c.Flag('a') || c.Flag('R') || c.Name == "robocopy" || c.Name == "xcopy" || rules.PkHas(c, "-recurse")
	if !contents || !recursive {
		return rules.Finding{}, false
	}
	return rules.PkRet(c, 2, 0.4, "fs.copy-over-home", c.Name+" copies a folder's content over the home folder ("+dst+"): whatever it holds replaces the user's files there (.bashrc, .ssh, .gitconfig...)")
}
