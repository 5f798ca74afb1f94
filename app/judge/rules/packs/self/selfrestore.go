package self

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Restore, sync and image tools that write content the rules cannot read
// into a folder: backup restores (restic, borg, duplicity, tmutil), cloud
// syncs (rclone), archive and image appliers (pax, wimlib-imagex, dism
// /Apply-Image). Landing on a folder that holds the guard's files or a
// host's hook config is the same "extract into an ancestor" as tar -C ~
// (self.extract-into, via unknownOver).

func init() {
	pack.On(ruleSelfRestore, "restic", "borg", "borgmatic", "duplicity", "tmutil", "rclone", "pax",
		"wimlib-imagex", "wimapply", "dism", "kopia", "duplicacy", "rdiff-backup", "bup")
}

func ruleSelfRestore(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.DynName || len(c.Args) == 0 {
		return rules.Finding{}, false
	}
	var dirs []string
	why := c.Name + " restores a backup"
	ops := c.Operands()
	switch c.Name {
	case "restic":
		if !rules.HasArg(c, "restore") {
			return rules.Finding{}, false
		}
		t := flagValue(c, "--target")
		if t == "" {
			t = flagValue(c, "-t")
		}
		if t == "" {
			return rules.Finding{}, false
		}
		dirs = withIncludes(c, t, "--include", "-i", "--iinclude")
	case "kopia", "duplicacy":
		// kopia restore SNAPSHOT TARGET / snapshot restore ID TARGET
		if !rules.HasArg(c, "restore") || len(ops) < 2 {
			return rules.Finding{}, false
		}
		dirs = []string{ops[len(ops)-1]}
	case "borg", "borgmatic":
		if !rules.HasArg(c, "extract") {
			return rules.Finding{}, false
		}
		// borg extract REPO::ARCHIVE [PATH...] writes into the current folder
		// (PATH is relative to the archive's root, as stored: home/dev/...)
		base := x.Cwd
		if v := flagValue(c, "--destination"); v != "" {
			base = v
		}
		paths := 0
		for _, a := range ops {
			if a == "extract" || strings.Contains(a, "::") || a == "borgmatic" {
				continue
			}
			if strings.HasPrefix(a, "/") || strings.HasPrefix(a, "~") {
				dirs = append(dirs, a)
			} else {
				dirs = append(dirs, joinDir(base, a))
			}
			paths++
		}
		if paths == 0 {
			dirs = append(dirs, base)
		}
	case "duplicity", "rdiff-backup":
		// duplicity restore URL TARGET, duplicity URL TARGET, rdiff-backup -r NOW SRC TARGET
		if len(ops) < 2 || c.Name == "duplicity" && !strings.Contains(ops[len(ops)-2], "://") && ops[0] != "restore" {
			return rules.Finding{}, false
		}
		if c.Name == "rdiff-backup" && !rules.HasArg(c, "-r") && !rules.HasArg(c, "restore") && flagValue(c, "--restore-as-of") == "" {
			return rules.Finding{}, false
		}
		dirs = []string{ops[len(ops)-1]}
		if f := flagValue(c, "--file-to-restore"); f != "" && !strings.HasPrefix(f, "/") {
			dirs = []string{ops[len(ops)-1], joinDir(ops[len(ops)-1], "..")}
		}
	case "bup":
		if !rules.HasArg(c, "restore") {
			return rules.Finding{}, false
		}
		d := flagValue(c, "-C")
		if d == "" {
			d = x.Cwd
		}
		dirs = []string{d}
	case "tmutil":
		// tmutil restore SRC... DST
		if ops[0] != "restore" || len(ops) < 3 {
			return rules.Finding{}, false
		}
		dst := ops[len(ops)-1]
		dirs = []string{dst}
		for _, s := range ops[1 : len(ops)-1] {
			dirs = append(dirs, strings.TrimRight(dst, "/")+"/"+path.Base(strings.TrimRight(s, "/")))
		}
	case "rclone":
		// rclone sync|copy|move|copyto|moveto|bisync SRC DST: DST's content
		// becomes SRC's
		if len(ops) < 3 {
			return rules.Finding{}, false
		}
		switch ops[0] {
		case "sync", "copy", "move", "copyto", "moveto", "bisync":
		default:
			return rules.Finding{}, false
		}
		dst := ops[len(ops)-1]
		if i := strings.Index(dst, ":"); i > 1 && !strings.HasPrefix(dst, "/") && !strings.HasPrefix(dst, "~") {
			return rules.Finding{}, false // a remote
		}
		dirs = []string{dst}
		why = "rclone " + ops[0] + " writes " + ops[1] + "'s content"
	case "pax":
		// pax -r reads an archive into the current folder; -s /OLD/NEW/
		// rewrites member names (an absolute NEW moves them there)
		if !c.Flag('r') {
			return rules.Finding{}, false
		}
		why = "pax extracts an archive"
		dirs = []string{x.Cwd}
		for i, a := range c.Args {
			if a == "-s" && i+1 < len(c.Args) && len(c.Args[i+1]) > 2 {
				e := c.Args[i+1]
				parts := strings.Split(e[1:], e[:1])
				if len(parts) >= 2 && (strings.HasPrefix(parts[1], "/") || strings.HasPrefix(parts[1], "~")) {
					dirs = append(dirs, parts[1])
				}
			}
		}
	case "wimlib-imagex", "wimapply":
		// wimlib-imagex apply|extract WIM [IMAGE] TARGET (--dest-dir=DIR)
		if c.Name == "wimlib-imagex" && ops[0] != "apply" && ops[0] != "extract" || len(ops) < 3 && c.Name == "wimlib-imagex" {
			return rules.Finding{}, false
		}
		why = c.Name + " applies an image"
		if v := flagValue(c, "--dest-dir"); v != "" {
			dirs = []string{v}
		} else if len(ops) > 0 {
			dirs = []string{ops[len(ops)-1]}
		}
	case "dism":
		// dism /Apply-Image /ImageFile:X /Index:1 /ApplyDir:DIR
		apply := false
		for _, a := range c.Args {
			la := strings.ToLower(a)
			switch {
			case la == "/apply-image" || la == "/apply-ffu":
				apply = true
			case strings.HasPrefix(la, "/applydir:"):
				dirs = append(dirs, a[len("/applydir:"):])
			}
		}
		if !apply {
			return rules.Finding{}, false
		}
		why = "dism applies an image"
	}
	var w rules.Finding
	have := false
	for _, d := range dirs {
		if d == "" || strings.Contains(d, shell.Dyn) {
			continue
		}
		if f, ok := rules.Protected(d, x.Cwd, x.Home); ok {
			f.Reason = why + " into " + d + ": " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
		if f, ok := unknownOver(c, d, why, x); ok && (!have || f.Worse(w)) {
			w, have = f, true
		}
	}
	return w, have
}

// withIncludes maps restic's --include PATH (an absolute path as backed
// up) under the restore target: target/PATH; the target alone without one.
func withIncludes(c *shell.Cmd, target string, flags ...string) []string {
	var out []string
	for i, a := range c.Args {
		for _, f := range flags {
			v := ""
			switch {
			case a == f && i+1 < len(c.Args):
				v = c.Args[i+1]
			case strings.HasPrefix(a, f+"="):
				v = a[len(f)+1:]
			}
			if v != "" && !strings.ContainsAny(v, "*?[") {
				out = append(out, strings.TrimRight(target, "/")+"/"+strings.TrimLeft(v, "/"))
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	return []string{target}
}

// Copies from another machine, a bucket or a container (scp -r, aws s3
// sync/cp, gsutil rsync/cp, azcopy, svn export/checkout, docker/podman/
// kubectl cp) bring content the rules cannot read: into a folder holding
// the guard's files, or as a folder named like one of them, they are the
// same extraction into an ancestor.

func init() {
	pack.On(ruleSelfRemoteCopy, "scp", "aws", "gsutil", "azcopy", "svn", "docker", "podman", "kubectl", "oc", "nerdctl")
}

// remoteArg: a host:path, bucket or URL operand, not a local path (a
// Windows drive letter is local).
func remoteArg(a string) bool {
	if strings.Contains(a, "://") {
		return true
	}
	i := strings.Index(a, ":")
	return i > 1 && !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "~") && !strings.HasPrefix(a, ".") &&
		(strings.Index(a, "/") < 0 || i < strings.Index(a, "/"))
}

func ruleSelfRemoteCopy(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.DynName {
		return rules.Finding{}, false
	}
	ops := c.Operands()
	var srcs []string
	dst, contents := "", false
	switch c.Name {
	case "scp":
		if len(ops) < 2 {
			return rules.Finding{}, false
		}
		srcs, dst = ops[:len(ops)-1], ops[len(ops)-1]
	case "aws":
		// aws s3 sync|cp|mv SRC DST
		if len(ops) < 4 || ops[0] != "s3" || ops[1] != "sync" && ops[1] != "cp" && ops[1] != "mv" {
			return rules.Finding{}, false
		}
		srcs, dst = ops[2:3], ops[len(ops)-1]
		contents = ops[1] == "sync" || rules.HasArg(c, "--recursive")
	case "gsutil":
		for i, o := range ops {
			if (o == "rsync" || o == "cp" || o == "mv") && len(ops) >= i+3 {
				srcs, dst = ops[i+1:len(ops)-1], ops[len(ops)-1]
				contents = o == "rsync"
				break
			}
		}
	case "azcopy":
		if len(ops) < 3 || ops[0] != "copy" && ops[0] != "cp" && ops[0] != "sync" {
			return rules.Finding{}, false
		}
		srcs, dst = ops[1:len(ops)-1], ops[len(ops)-1]
		contents = ops[0] == "sync"
	case "svn":
		// svn export|checkout|co URL [PATH]
		if len(ops) < 2 || ops[0] != "export" && ops[0] != "checkout" && ops[0] != "co" {
			return rules.Finding{}, false
		}
		if len(ops) >= 3 {
			dst, contents = ops[len(ops)-1], true
		}
	default: // docker/podman/kubectl cp SRC DST
		if len(ops) < 3 || ops[0] != "cp" && !(ops[0] == "container" && len(ops) > 3 && ops[1] == "cp") {
			return rules.Finding{}, false
		}
		srcs, dst = ops[len(ops)-2:len(ops)-1], ops[len(ops)-1]
		// a new DST receives the source folder's content, an existing
		// one the folder itself: both are read
		contents = remoteArg(srcs[0]) && !strings.HasSuffix(dst, "/") && rules.FsClassify(dst, x) != rules.FsHome
	}
	if dst == "" || remoteArg(dst) || strings.Contains(dst, shell.Dyn) {
		return rules.Finding{}, false
	}
	var w rules.Finding
	have := false
	try := func(d, why string) {
		if f, ok := rules.Protected(d, x.Cwd, x.Home); ok && !have {
			f.Reason = why + " into " + d + ": " + f.Reason
			f.Marked = c.Raw
			w, have = f, true
			return
		}
		if f, ok := unknownOver(c, d, why, x); ok && (!have || f.Worse(w)) {
			w, have = f, true
		}
	}
	why := c.Name + " copies content from elsewhere"
	if contents {
		try(dst, why)
	}
	for _, s := range srcs {
		if !remoteArg(s) {
			continue // a local source is the copy rules' (docker cp ./x ctr:/y goes out)
		}
		_, rp, _ := strings.Cut(s[strings.Index(s, ":")+1:], "")
		base := path.Base(strings.TrimRight(rules.Slashify(rp), "/"))
		switch {
		case strings.HasSuffix(rp, "/.") || strings.HasSuffix(rp, "/*") || base == "." || base == "/":
			try(dst, why)
		default:
			try(strings.TrimRight(dst, "/\\")+"/"+base, why)
		}
	}
	return w, have
}

// More unpackers, each with its own way of naming the folder it writes:
// dpkg -x DEB DIR, unsquashfs -d DIR, unrar x ARC DIR/, unar -o DIR,
// xorriso -extract SRC DIR, lha x[w=DIR], and ar x / jar x into the
// current folder.

func init() {
	pack.On(ruleSelfUnpackers, "dpkg", "dpkg-deb", "unsquashfs", "unrar", "rar", "unar", "xorriso", "ar", "jar", "lha", "lhasa")
	pack.On(ruleSelfCpio, "bsdcpio")
}

func ruleSelfUnpackers(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.DynName || len(c.Args) == 0 {
		return rules.Finding{}, false
	}
	ops := c.Operands()
	dir := ""
	switch c.Name {
	case "dpkg", "dpkg-deb":
		if !rules.HasArg(c, "-x") && !rules.HasArg(c, "-X") && !rules.HasArg(c, "--extract") && !rules.HasArg(c, "--vextract") || len(ops) < 2 {
			return rules.Finding{}, false
		}
		dir = ops[len(ops)-1]
	case "unsquashfs":
		if dir = flagValue(c, "-d"); dir == "" {
			dir = flagValue(c, "-dest")
		}
	case "unrar", "rar":
		if len(ops) < 2 || ops[0] != "x" && ops[0] != "e" {
			return rules.Finding{}, false
		}
		dir = x.Cwd
		if last := ops[len(ops)-1]; len(ops) > 2 && (strings.HasSuffix(last, "/") || strings.HasSuffix(last, "\\") || last == "~") {
			dir = last
		}
	case "unar":
		if dir = flagValue(c, "-o"); dir == "" {
			if dir = flagValue(c, "-output-directory"); dir == "" {
				dir = x.Cwd
			}
		}
	case "xorriso":
		for i, a := range c.Args {
			if (a == "-extract" || a == "-extract_single" || a == "-cpx") && i+2 < len(c.Args) {
				dir = c.Args[i+2]
			}
		}
	case "ar", "jar":
		if !strings.Contains(strings.TrimLeft(c.Args[0], "-"), "x") {
			return rules.Finding{}, false
		}
		dir = x.Cwd
	case "lha", "lhasa":
		a := strings.TrimLeft(c.Args[0], "-")
		if !strings.HasPrefix(a, "x") && !strings.HasPrefix(a, "e") {
			return rules.Finding{}, false
		}
		dir = x.Cwd
		if _, w, ok := strings.Cut(a, "w="); ok {
			dir = w
		}
	}
	if dir == "" || strings.Contains(dir, shell.Dyn) {
		return rules.Finding{}, false
	}
	if f, ok := rules.Protected(dir, x.Cwd, x.Home); ok {
		f.Reason = c.Name + " extracts into " + dir + ": " + f.Reason
		f.Marked = c.Raw
		return f, true
	}
	return unknownOver(c, dir, c.Name+" extracts an archive", x)
}
