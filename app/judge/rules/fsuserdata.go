package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// The user's own files outside any project. When the disk cannot show
// them (the home is not on this machine, or the look is not made), the
// path alone has to say what a one-file delete or truncation loses: in
// the home's personal folders (Documents, Desktop, Pictures, Downloads,
// synced drives, their localized names) and at the top of the home
// (notes, shell histories), nothing is under version control and nothing
// can be restored, so it is a question, not everyday work.

// fsPersonalFolders are the home's top-level folders that hold the
// user's own documents rather than software or projects.
var fsPersonalFolders = map[string]bool{
	"documents": true, "desktop": true, "pictures": true, "music": true, "videos": true, "movies": true,
	"downloads": true, "onedrive": true, "dropbox": true, "google drive": true, "icloud drive": true,
	"photos": true, "my documents": true,
}

// fsPersonalFile reports whether t (a file, or a glob of some files)
// is the user's own data: inside a personal folder of a home, or
// directly at the top of a home. Paths inside the project, temp folders
// and caches are classified before this is asked.
func fsPersonalFile(t string, x *Ctx) bool {
	r := fsResolve(t, x)
	if r.dyn {
		return false
	}
	home := fsHomeOf(r.abs, r.home)
	if home == "" || r.abs == home {
		return false
	}
	if r.proj != "" && r.proj != home && fsUnder(r.abs, r.proj) {
		return false
	}
	rel := strings.TrimPrefix(r.abs, home+"/")
	if strings.HasSuffix(rel, "_history") && (strings.HasPrefix(rel, ".local/share/") || strings.HasPrefix(rel, ".config/")) ||
		strings.HasSuffix(rel, "/psreadline/consolehost_history.txt") {
		return true // fish's and other shells' histories kept under XDG folders, like ~/.bash_history
	}
	top, rest, nested := strings.Cut(rel, "/")
	if !nested {
		// ~/notes.txt and the shell histories; not ~/bin or ~/tmp, and not
		// the tools' own dot-files (.zcompdump, .viminfo, .wget-hsts),
		// whose keys and settings the other scopes already judge.
		if strings.HasPrefix(top, ".") {
			return strings.HasSuffix(top, "history")
		}
		return !fsGenericOutNames[top] && !fsCacheNames[top]
	}
	if !(fsPersonalFolders[top] || fsLocalUserDirs[top]) {
		return false
	}
	for seg := range strings.SplitSeq(rest, "/") {
		if fsCacheNames[seg] || seg == ".git" {
			return false // build output of a project kept in ~/Documents
		}
	}
	return true
}

func init() { onAny(ruleEmptyUserData) }

// ruleEmptyUserData: emptying one of the user's own files (`: > f`,
// `> f`, `echo > f`, `type nul > f`, `cp /dev/null f`, `copy nul f`)
// loses its content as surely as deleting it.
func ruleEmptyUserData(c *shell.Cmd, x *Ctx) (Finding, bool) {
	var targets []string
	if emptiesTarget(c) || c.Name == "echo" && len(c.Args) == 0 ||
		c.Name == "type" && len(c.Operands()) == 1 && strings.EqualFold(c.Operands()[0], "nul") {
		for _, r := range c.Redirs {
			if r.Op == ">" || r.Op == ">|" || r.Op == "&>" {
				targets = append(targets, r.Target)
			}
		}
	}
	switch c.Name {
	case "cp", "copy", "copy-item", "cpi":
		ops := c.Operands()
		if len(ops) == 2 && (ops[0] == "/dev/null" || strings.EqualFold(ops[0], "nul")) {
			targets = append(targets, ops[1])
		}
	}
	for _, t := range targets {
		if fsClassify(t, x) == fsOutside && fsPersonalFile(t, x) {
			return Finding{Risk: 2, Violation: 0.3, Rule: "fs.empty-user-data", Marked: c.Raw,
				Reason: "empties " + t + ": the user's own file outside any project, not recoverable"}, true
		}
		if fsClassify(t, x) == fsOutside && fsToolConfigFile(t, x) {
			f := fsToolConfigDelete(c, "empties "+t)
			return f, true
		}
	}
	return Finding{}, false
}
