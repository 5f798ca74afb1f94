package everyday

// Package managers: installs and upgrades are everyday work (allow);
// removing system packages confirms, removing ones the system needs blocks.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Packages a system cannot run without.
var pkEssentialPkgs = rules.PkSet("libc6", "libc-bin", "systemd", "sudo", "openssh-server", "coreutils", "bash", "apt", "dpkg", "base-files", "init", "login", "passwd", "util-linux", "glibc", "linux-image-generic", "grub-pc", "grub-efi-amd64", "grub2", "kernel", "rpm", "yum", "dnf", "pacman", "python3", "perl-base", "libpam0g", "mount", "e2fsprogs", "procps", "network-manager", "netplan.io", "ubuntu-minimal", "ubuntu-desktop", "xorg", "gnome-shell", "busybox", "musl", "linux", "linux-lts", "linux-zen", "linux-hardened", "linux-firmware", "kernel-core", "glibc-common")

func rulePkgMgr(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	verb := ""
	if len(ops) > 0 {
		verb = ops[0]
	}
	essential := ""
	for _, o := range ops[min(1, len(ops)):] {
		if pkEssentialPkgs.Has(o) || strings.HasPrefix(o, "linux-image") || strings.HasPrefix(o, "libc6") {
			essential = o
		}
	}
	remove := func() (rules.Finding, bool) {
		if essential != "" || rules.PkHas(c, "--force-all", "--force-remove-essential", "--nodeps", "-dd") {
			return rules.PkRet(c, 2.7, 0.6, "pkg.remove-essential", "removes a package the system needs ("+essential+")")
		}
		return rules.PkRet(c, 2, 0.3, "pkg.remove", "removes system packages")
	}
	switch c.Name {
	case "apt", "apt-get", "aptitude":
		switch verb {
		case "install", "reinstall", "build-dep", "source", "download", "changelog", "update", "clean", "autoclean", "check", "satisfy", "fix-missing":
			return rules.PkAllow(c, 1, "pkg.install", "installs packages or refreshes the package index")
		case "upgrade", "full-upgrade", "dist-upgrade", "safe-upgrade":
			return rules.PkAllow(c, 1.2, "pkg.upgrade", "upgrades installed packages")
		case "remove", "purge", "autoremove", "autopurge", "erase":
			return remove()
		case "", "list", "show", "search", "policy", "depends", "rdepends", "madison", "showpkg", "showsrc", "help", "moo", "why", "why-not", "edit-sources":
			if verb == "edit-sources" {
				return rules.PkRet(c, 2, 0.6, "sys.apt-sources", "edits the system's package sources")
			}
			return rules.PkAllow(c, 0, "pkg.read", "reads package information")
		}
	case "apt-cache":
		return rules.PkAllow(c, 0, "pkg.read", "reads package information")
	case "apt-mark":
		return rules.PkAllow(c, 1, "pkg.mark", "marks packages (hold, auto, manual)")
	case "apt-key":
		if verb == "list" || verb == "finger" || verb == "export" {
			return rules.PkAllow(c, 0, "pkg.read", "lists trusted keys")
		}
		return rules.PkRet(c, 1.6, 0.5, "pkg.trust-key", "changes which package signing keys the system trusts")
	case "add-apt-repository":
		if c.Flag('r', "--remove") {
			return rules.PkAllow(c, 1, "pkg.repo-remove", "removes a package source")
		}
		return rules.PkUnsure(c, 1.2, "pkg.repo-add", "adds a third-party package source")
	case "dpkg":
		switch {
		case c.Flag('r', "--remove") || c.Flag('P', "--purge"):
			return remove()
		case c.Flag('i', "--install", "--unpack", "--configure"):
			return rules.PkAllow(c, 1, "pkg.install", "installs a package file")
		case c.Flag(0, "--set-selections", "--clear-selections", "--add-architecture", "--remove-architecture"):
			return rules.PkRet(c, 1.5, 0.2, "pkg.selections", "changes package selections")
		}
		return rules.PkAllow(c, 0, "pkg.read", "reads package information")
	case "rpm":
		if c.Flag('e', "--erase") {
			return remove()
		}
		if c.Flag('i', "--install") || c.Flag('U', "--upgrade") || c.Flag('F', "--freshen") {
			return rules.PkAllow(c, 1, "pkg.install", "installs a package file")
		}
		return rules.PkAllow(c, 0, "pkg.read", "reads package information")
	case "pacman", "yay", "paru":
		switch {
		case len(c.Args) > 0 && strings.HasPrefix(c.Args[0], "-R"):
			if strings.Count(c.Args[0], "d") >= 2 && essential == "" {
				// -Rdd skips every dependency check (as --nodeps).
				return rules.PkRet(c, 2.7, 0.6, "pkg.remove-essential", "removes a package skipping every dependency check (-Rdd): what needs it breaks")
			}
			return remove()
		case len(c.Args) > 0 && strings.HasPrefix(c.Args[0], "-S") && (strings.Contains(c.Args[0], "s") || strings.Contains(c.Args[0], "i")) && !strings.Contains(c.Args[0], "y") && len(c.Args[0]) <= 4:
			return rules.PkAllow(c, 0, "pkg.read", "searches packages")
		case len(c.Args) > 0 && (strings.HasPrefix(c.Args[0], "-S") || strings.HasPrefix(c.Args[0], "-U")):
			return rules.PkAllow(c, 1, "pkg.install", "installs or upgrades packages")
		}
		return rules.PkAllow(c, 0, "pkg.read", "reads package information")
	case "xbps-remove":
		return remove()
	case "nix-collect-garbage":
		if c.Flag('d', "--delete-old") {
			return rules.PkRet(c, 1.5, 0.2, "pkg.nix-gc", "deletes old generations (no rollback to them)")
		}
		return rules.PkAllow(c, 1, "pkg.nix-gc", "collects unused store paths")
	case "nix-env":
		if c.Flag('e', "--uninstall") || c.Flag(0, "--delete-generations") {
			return rules.PkAllow(c, 1.2, "pkg.nix-remove", "removes packages or generations")
		}
		return rules.PkAllow(c, 1, "pkg.nix", "manages user packages")
	case "nix", "nix-shell", "pkcon":
		return rules.PkAllow(c, 1, "pkg.nix", "builds or enters environments")
	case "install-package":
		return rules.PkAllow(c, 1, "pkg.install", "installs a package")
	case "uninstall-module":
		return rules.PkAllow(c, 1, "pkg.remove-user", "uninstalls a PowerShell module")
	case "remove-appxpackage":
		return rules.PkRet(c, 1.5, 0.2, "pkg.remove", "uninstalls a Windows app")
	case "uninstall-package":
		return rules.PkRet(c, 1.5, 0.2, "pkg.remove", "uninstalls a package")
	}
	// yum/dnf/zypper/apk/brew/winget/choco/scoop/snap/flatpak/port/pkg/emerge
	switch verb {
	case "remove", "erase", "uninstall", "rm", "del", "purge", "autoremove", "delete", "zap":
		if c.Name == "brew" || c.Name == "scoop" || c.Name == "port" && false {
			for _, o := range c.Operands() {
				if rules.PkDyn(o) {
					// brew uninstall --force $(brew list): a list made at
					// run time, every package at once.
					return rules.PkRet(c, 1.5, 0.2, "pkg.remove", "uninstalls packages named only at run time (possibly all of them)")
				}
			}
			return rules.PkAllow(c, 1.2, "pkg.remove-user", "uninstalls a user-level package")
		}
		if c.Name == "winget" || c.Name == "choco" || c.Name == "snap" || c.Name == "flatpak" {
			return rules.PkRet(c, 1.5, 0.2, "pkg.remove", "uninstalls an application")
		}
		return remove()
	case "install", "in", "add", "reinstall", "update", "upgrade", "up", "refresh", "makecache", "tap", "link", "pin", "bundle", "cask", "sync", "fetch", "download", "import", "groupinstall", "localinstall", "source", "hold", "unhold", "cleanup", "clean", "autoclean", "dist-upgrade", "dup", "patch", "selfupdate", "self-update", "bucket", "unlink", "untap":
		if c.Name == "brew" && verb == "services" {
			break
		}
		return rules.PkAllow(c, 1, "pkg.install", c.Name+" "+verb+" installs or updates packages")
	case "services":
		if len(ops) > 1 && (ops[1] == "list" || ops[1] == "info") {
			return rules.PkAllow(c, 0, "pkg.read", "lists services")
		}
		return rules.PkAllow(c, 1.2, "pkg.brew-services", "starts or stops a local background service")
	}
	return rules.PkAllow(c, 0, "pkg.read", c.Name+" reads package information")
}
