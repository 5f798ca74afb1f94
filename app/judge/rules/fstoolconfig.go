package rules

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// A program's settings in the home folder: ~/.config/gh/hosts.yml (a
// login), %APPDATA%\Code\User\settings.json, ~/.netrc, ~/.tmux.conf,
// ~/.kube/config, ~/Library/Preferences/*.plist. Deleting one file of
// these loses logins, tokens or years of tuning the user has no copy of,
// while a tool's cache, log or state file beside them (~/.cache/x,
// ~/.local/share/x.log, ~/.zcompdump) is everyday cleanup.

// fsToolConfigDirs are the home's folders whose files are settings.
var fsToolConfigDirs = []string{".config/", ".docker/", ".kube/", ".azure/", ".gcloud/", ".gnupg/",
	"appdata/roaming/", "library/preferences/", "library/application support/"}

var fsToolConfigExts = pkSet(".json", ".jsonc", ".yml", ".yaml", ".toml", ".ini", ".conf", ".cfg", ".cnf",
	".plist", ".xml", ".lua", ".vim", ".el", ".properties", ".env", ".kdl", ".rc")

var fsToolConfigNames = pkSet("config", "credentials", "hosts", "settings", "keybindings", "init.vim",
	"init.lua", "netrc", "authinfo", ".netrc", ".pgpass", ".git-credentials", ".npmrc", ".yarnrc",
	".pypirc", ".gemrc", ".curlrc", ".wgetrc", ".condarc", ".my.cnf", ".tmux.conf", ".vimrc", ".gvimrc",
	".inputrc", ".xinitrc", ".xresources", ".emacs", ".screenrc", ".hgrc", ".gitconfig", ".zshenv",
	".zprofile", ".bash_login", ".bash_logout", ".s3cfg", ".boto", ".dockercfg", ".vault-token", ".wakatime.cfg")

// fsToolConfigFile: t is one settings file of a program in the home.
func fsToolConfigFile(t string, x *Ctx) bool {
	r := fsResolve(t, x)
	if r.dyn || r.glob {
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
	base := path.Base(rel)
	ext := path.Ext(base)
	if !strings.Contains(rel, "/") {
		// ~/.tmux.conf, ~/.npmrc, ~/.starship.toml; not ~/.zcompdump,
		// ~/.viminfo, ~/.lesshst or the histories.
		if !strings.HasPrefix(base, ".") || strings.HasSuffix(base, "history") {
			return false
		}
		return fsToolConfigNames.Has(base) || strings.HasSuffix(base, "rc") || fsToolConfigExts.Has(ext)
	}
	in := false
	for _, d := range fsToolConfigDirs {
		if strings.HasPrefix(rel, d) {
			in = true
			break
		}
	}
	if !in {
		return false
	}
	for seg := range strings.SplitSeq(rel, "/") {
		switch seg {
		case "cache", "caches", "cachedata", "cacheddata", "logs", "log", "crashpad", "gpucache", "code cache", "tmp", "temp", "backups", "workspacestorage", "history":
			return false
		}
	}
	return fsToolConfigNames.Has(base) || fsToolConfigNames.Has(strings.TrimSuffix(base, ext)) || fsToolConfigExts.Has(ext) || strings.HasSuffix(base, "rc")
}

// fsToolConfigDelete is the finding for deleting one such file ("rm ~/.netrc").
func fsToolConfigDelete(c *shell.Cmd, what string) Finding {
	return Finding{Risk: 1.8, Violation: 0.3, Rule: "fs.delete-tool-config", Marked: c.Raw,
		Reason: what + ": a program's settings in the home folder (a login, token or the user's own tuning), not recoverable"}
}
