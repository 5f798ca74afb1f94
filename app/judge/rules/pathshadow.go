package rules

import "strings"

// A file written into a folder of the user's PATH under the name of a
// program people and agents run every day (~/.local/bin/git,
// ~/bin/sudo, WindowsApps\python.exe) runs instead of that program from
// then on: it sees every password typed into sudo, every token git or
// ssh uses. Installing a tool there is everyday work (kubectl, terraform and gh
// document it); taking the name of a program the system already has
// (sudo, git, ssh, python3, bash...) is not.

var userBinDirs = []string{".local/bin", "bin", ".bin", "go/bin", ".cargo/bin", ".npm-global/bin", ".deno/bin",
	".bun/bin", ".volta/bin", "scoop/shims", "appdata/local/microsoft/windowsapps", ".dotnet/tools"}

var shadowedPrograms = map[string]bool{
	"sudo": true, "su": true, "doas": true, "git": true, "ssh": true, "scp": true, "sftp": true, "ssh-add": true,
	"ssh-agent": true, "gpg": true, "gpg2": true, "python": true, "python3": true, "pip": true, "pip3": true,
	"node": true, "npm": true, "npx": true, "bash": true, "sh": true, "zsh": true, "ls": true, "cat": true,
	"cp": true, "mv": true, "rm": true, "curl": true, "wget": true, "env": true, "passwd": true, "login": true,
	"pwsh": true, "powershell": true, "cmd": true,
}

// userBinShadow reports a write into a PATH folder of the home under a
// common program's name.
func userBinShadow(n np, orig string) (Finding, bool) {
	if !n.inHome || n.inProject || n.dynamic || n.lowHome == "" {
		return Finding{}, false
	}
	rel := strings.TrimPrefix(n.low, strings.TrimSuffix(n.lowHome, "/")+"/")
	if rel == n.low {
		return Finding{}, false
	}
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return Finding{}, false
	}
	dir, base := rel[:i], rel[i+1:]
	in := false
	for _, d := range userBinDirs {
		if dir == d {
			in = true
			break
		}
	}
	if !in {
		return Finding{}, false
	}
	for _, ext := range []string{".exe", ".cmd", ".bat", ".ps1", ".com"} {
		base = strings.TrimSuffix(base, ext)
	}
	if !shadowedPrograms[base] {
		return Finding{}, false
	}
	return confirmPath("path.shadow-program", "puts a program named "+base+" into a folder on the user's PATH ("+orig+"): it would run instead of the real "+base+" and see what is typed or passed to it", orig), true
}
