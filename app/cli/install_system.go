package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/agent-guard/agent-guard/app/install"
	"github.com/agent-guard/agent-guard/app/peer"
)

// `agent-guard install --system` lives in its own file: it wraps the
// install verb (registered in install.go, whose init runs first: files
// initialise in name order) and takes over only when --system is given.
func init() {
	plain := verbs["install"]
	register("install", plain.summary+"; --system: root-owned binaries", func(env Env) int {
		for _, a := range env.Args {
			if a == "--system" || a == "-system" {
				return runInstallSystem(env)
			}
		}
		return plain.run(env)
	})
}

// SystemDir is where install --system puts the binaries.
func SystemDir() string {
	if runtime.GOOS == "windows" {
		pf := os.Getenv("ProgramFiles")
		if pf == "" {
			pf = `C:\Program Files`
		}
		return filepath.Join(pf, "agent-guard")
	}
	return "/usr/local/lib/agent-guard"
}

// runInstallSystem copies agent-guard, agent-guard-hook and the hook's
// fallback judge agent-guard-judge into a
// root-owned folder and points every installed hook entry of the user
// there, so an agent without sudo cannot replace, chmod or delete the
// binaries the hosts run. It needs root; without it, it prints the exact
// command to run.
func runInstallSystem(env Env) int {
	fs := flag.NewFlagSet("install --system", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Bool("system", true, "install the binaries into a root-owned folder")
	prefix := fs.String("prefix", SystemDir(), "the root-owned `DIR` for the binaries")
	hook := fs.String("hook", "", "agent-guard-hook `PATH` to copy (default: next to this agent-guard)")
	dry := fs.Bool("dry-run", false, "say what would be done, change nothing")
	if err := fs.Parse(env.Args); err != nil {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(env.Stderr, "agent-guard install --system:", err); return 1 }
	self, err := selfPath()
	if err != nil {
		return fail(err)
	}
	if !*dry && !install.IsRoot() {
		fmt.Fprintf(env.Stderr, "agent-guard install --system needs root, so that the binaries end up where you (and any agent running as you) cannot change them. Run:\n  sudo %q install --system", self)
		if *prefix != SystemDir() {
			fmt.Fprintf(env.Stderr, " --prefix %q", *prefix)
		}
		fmt.Fprintln(env.Stderr)
		return 1
	}
	hookSrc, err := install.FindHook(*hook)
	if err != nil {
		return fail(err)
	}
	judgeSrc, err := install.FindJudge(hookSrc)
	if err != nil {
		return fail(err)
	}
	// Under sudo the hook configs to re-point are the invoking user's.
	owner := sudoOwner()
	if owner.home != "" {
		os.Setenv("HOME", owner.home)
	}
	dir, err := filepath.Abs(*prefix)
	if err != nil {
		return fail(err)
	}
	guardName := "agent-guard"
	if runtime.GOOS == "windows" {
		guardName += ".exe"
	}
	guardDst := filepath.Join(dir, guardName)
	hookDst := filepath.Join(dir, install.HookBinary())
	judgeDst := peer.JudgeBeside(hookDst) // where the hook looks for it
	if *dry {
		fmt.Fprintf(env.Stdout, "would copy %s -> %s, %s -> %s and %s -> %s (root-owned, mode 0755) and point the installed hooks there (dry run)\n", self, guardDst, hookSrc, hookDst, judgeSrc, judgeDst)
		return 0
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return fail(err)
	}
	for src, dst := range map[string]string{self: guardDst, hookSrc: hookDst, judgeSrc: judgeDst} {
		if err := copyExecutable(src, dst); err != nil {
			return fail(fmt.Errorf("copying %s to %s: %v", src, dst, err))
		}
	}
	fmt.Fprintf(env.Stdout, "copied agent-guard, agent-guard-hook and agent-guard-judge into %s (root-owned: only root can change them)\n", dir)

	targets, err := install.TargetsFor(install.AllHosts(), "")
	if err != nil {
		return fail(err)
	}
	n := 0
	for _, t := range targets {
		data, err := os.ReadFile(t.Path)
		if err != nil {
			continue
		}
		in, err := install.Inspect(t.Host, data)
		if err != nil || in == nil {
			continue
		}
		h := install.Hook{Path: hookDst, Guard: guardDst, Timing: install.Timing{Deadline: in.Deadline, HostTimeout: in.HostTimeout}}
		if h.Deadline == 0 {
			h.Timing = install.TimingFor(120)
		}
		res, err := install.Install(t.Host, t.Path, h, install.Options{})
		if err != nil {
			return fail(err)
		}
		owner.give(env.Stderr, res.Path, res.Backup)
		n++
		fmt.Fprintf(env.Stdout, "%s: the hook now runs %s (%s)\n", t.Label, hookDst, res.Path)
	}
	if n == 0 {
		fmt.Fprintf(env.Stdout, "no installed hook entry found; install them with: %s install\n", guardDst)
	}
	fmt.Fprintf(env.Stdout, "next: quit the tray and start it from %s (the hook now trusts only that binary), and rerun '%s install --autostart' as yourself\n", guardDst, guardDst)
	return 0
}

// copyExecutable writes src to dst atomically, mode 0755, owned by the
// caller (root).
func copyExecutable(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, in); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o755); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}

// owner is the user sudo was called by: their home, and the ids the
// rewritten hook configs are handed back to.
type owner struct {
	home     string
	uid, gid int
}

func sudoOwner() owner {
	o := owner{uid: -1, gid: -1}
	name := os.Getenv("SUDO_USER")
	if name == "" || os.Getenv("SUDO_UID") == "" {
		return o
	}
	if u, err := user.Lookup(name); err == nil {
		o.home = u.HomeDir
	}
	o.uid, _ = strconv.Atoi(os.Getenv("SUDO_UID"))
	o.gid, _ = strconv.Atoi(os.Getenv("SUDO_GID"))
	return o
}

// give hands files written as root back to the user (their hook configs
// must stay theirs: the hosts and the tray edit them).
func (o owner) give(w io.Writer, paths ...string) {
	if o.uid < 0 || runtime.GOOS == "windows" {
		return
	}
	for _, p := range paths {
		if p == "" {
			continue
		}
		if err := os.Lchown(p, o.uid, o.gid); err != nil {
			fmt.Fprintf(w, "agent-guard: could not give %s back to you (%v): chown it\n", p, err)
		}
	}
}
