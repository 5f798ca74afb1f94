package remote

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// forfilesWords splits forfiles' /c command into words and puts in place
// of @path, @file, @fname and @relpath what they stand for: the files of
// the /p folder (the working folder when there is none), so `forfiles /p
// C:\Users\dev /s /c "cmd /c del @path"` is judged as a delete of the
// home's files, not as a delete of a file named @path in the project.
func forfilesWords(c *shell.Cmd, v string) []string {
	dir, ok := rules.PkWinVal(c, "p")
	if !ok || dir == "" {
		dir = "."
	}
	dir = strings.TrimRight(strings.Trim(dir, `"`), `\/`)
	if dir == "" {
		dir = "/" // /p \ or /p /: the drive's root
	}
	mask := "*"
	if m, ok := rules.PkWinVal(c, "m"); ok && strings.Trim(m, `"`) != "" {
		mask = strings.Trim(m, `"`) // /m *.log: only the files it matches
	}
	each := dir + `\` + mask
	v = strings.NewReplacer(`0x22`, `"`, `\"`, `"`).Replace(v)
	ws := strings.Fields(strings.TrimPrefix(strings.TrimPrefix(v, "cmd /c "), "cmd /C "))
	for i, w := range ws {
		u := strings.ToLower(strings.Trim(w, `"`))
		if strings.Contains(u, "@path") || strings.Contains(u, "@file") || strings.Contains(u, "@fname") || strings.Contains(u, "@relpath") {
			ws[i] = each
		} else if strings.HasPrefix(w, `"`) && strings.HasSuffix(w, `"`) && len(w) >= 2 {
			ws[i] = w[1 : len(w)-1]
		}
	}
	if _, sub := rules.PkWinVal(c, "s"); sub && len(ws) > 0 && (strings.EqualFold(ws[0], "del") || strings.EqualFold(ws[0], "erase")) {
		// forfiles /s: every matching file in every folder below /p.
		ws = append([]string{ws[0], "/s"}, ws[1:]...)
	}
	return ws
}
