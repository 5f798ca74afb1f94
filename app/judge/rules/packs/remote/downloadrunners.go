package remote

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Programs that run a file given as an argument though they are not
// shells or script interpreters: java -jar app.jar, dotnet app.dll,
// deno run x.ts, msiexec /i x.msi, wscript x.vbs, and package tools
// installing a package file (its install scripts run: dpkg -i x.deb). Run on a file the same
// line just downloaded, they are curl | sh in two steps.

// dlFileRunnerTargets returns the files c runs, or nil when c is not one
// of these programs.
func dlFileRunnerTargets(c *shell.Cmd) []string {
	var out []string
	switch {
	case c.Name == "java" || c.Name == "javaw":
		if v, ok := rules.PkVal(c, "-jar"); ok {
			out = append(out, v)
		}
		if v, ok := rules.PkVal(c, "-cp", "-classpath", "--class-path"); ok {
			out = append(out, strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ';' })...)
		}
		if ops := rules.PkPos(c.Args, rules.PkSet("-cp", "-classpath", "--class-path", "-jar")); len(ops) > 0 && strings.HasSuffix(strings.ToLower(ops[0]), ".java") {
			out = append(out, ops[0]) // java X.java: source-file mode
		}
	case c.Name == "dotnet":
		if ops := c.Operands(); len(ops) > 0 {
			if l := strings.ToLower(ops[0]); strings.HasSuffix(l, ".dll") || strings.HasSuffix(l, ".exe") {
				out = append(out, ops[0])
			}
		}
	case c.Name == "deno" || c.Name == "bun":
		ops := c.Operands()
		if len(ops) > 0 && ops[0] == "run" {
			ops = ops[1:]
		}
		if len(ops) > 0 {
			out = append(out, ops[0])
		}
	case dlInstallerNames.Has(c.Name):
		// A package file's install scripts run, often as root:
		// wget x.deb && sudo apt install ./x.deb, installer -pkg x.pkg.
		if v, ok := rules.PkVal(c, "-pkg", "-package", "-path"); ok {
			out = append(out, v)
		}
		for _, o := range c.Operands() {
			l := strings.ToLower(o)
			for _, ext := range [...]string{".deb", ".rpm", ".whl", ".tar.gz", ".tgz", ".zip", ".pkg", ".msix", ".appx", ".snap", ".flatpak", ".pkg.tar.zst"} {
				if strings.HasSuffix(l, ext) {
					out = append(out, o)
					break
				}
			}
		}
	case c.Name == "wscript" || c.Name == "cscript" || c.Name == "mshta" || c.Name == "rundll32" || c.Name == "regsvr32" || c.Name == "installutil":
		if ops := c.Operands(); len(ops) > 0 {
			out = append(out, strings.SplitN(ops[0], ",", 2)[0]) // rundll32 x.dll,Entry
		}
	}
	return out
}

var dlInstallerNames = rules.PkSet("dpkg", "rpm", "apt", "apt-get", "dnf", "yum", "zypper", "pacman", "pip", "pip3", "uv",
	"npm", "pnpm", "yarn", "add-appxpackage", "installer", "snap", "flatpak")

// dlVerb is how the reason says c uses the file: "installs x.deb", "runs x.sh".
func dlVerb(c *shell.Cmd) string {
	if dlInstallerNames.Has(c.Name) {
		return "installs "
	}
	return "runs "
}
