package rules

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Programs that run a file given as an argument though they are not
// shells or script interpreters: java -jar app.jar, dotnet app.dll,
// deno run x.ts, msiexec /i x.msi, wscript x.vbs. Run on a file the same
// line just downloaded, they are curl | sh in two steps.

// dlFileRunnerTargets returns the files c runs, or nil when c is not one
// of these programs.
func dlFileRunnerTargets(c *shell.Cmd) []string {
	var out []string
	switch c.Name {
	case "java", "javaw":
		if v, ok := pkVal(c, "-jar"); ok {
			out = append(out, v)
		}
		if v, ok := pkVal(c, "-cp", "-classpath", "--class-path"); ok {
			out = append(out, strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ';' })...)
		}
		if ops := pkPos(c.Args, pkSet("-cp", "-classpath", "--class-path", "-jar")); len(ops) > 0 && strings.HasSuffix(strings.ToLower(ops[0]), ".java") {
			out = append(out, ops[0]) // java X.java: source-file mode
		}
	case "dotnet":
		if ops := c.Operands(); len(ops) > 0 {
			if l := strings.ToLower(ops[0]); strings.HasSuffix(l, ".dll") || strings.HasSuffix(l, ".exe") {
				out = append(out, ops[0])
			}
		}
	case "deno", "bun":
		ops := c.Operands()
		if len(ops) > 0 && ops[0] == "run" {
			ops = ops[1:]
		}
		if len(ops) > 0 {
			out = append(out, ops[0])
		}
	case "wscript", "cscript", "mshta", "rundll32", "regsvr32", "installutil":
		if ops := c.Operands(); len(ops) > 0 {
			out = append(out, strings.SplitN(ops[0], ",", 2)[0]) // rundll32 x.dll,Entry
		}
	}
	return out
}

// dlShown is the file as the reason shows it: its base name with the
// extension kept (i.exe, not i).
func dlShown(t string) string {
	return path.Base(strings.ReplaceAll(t, "\\", "/"))
}
