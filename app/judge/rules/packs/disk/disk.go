package disk

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"os"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/opts"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Disk pack: writing to block devices, formatting, partitioning, wiping.
// All of it is a red line: nothing on the disk survives.

func init() {
	pack.On(ruleDD, "dd", "dcfldd", "dc3dd")
	pack.On(ruleMkfs, "mkfs", "mke2fs", "mkdosfs", "mkntfs", "mkswap", "newfs", "newfs_apfs", "newfs_hfs", "newfs_msdos", "newfs_exfat", "newfs_udf", "mkfs.ext2",
		"mkfs.ext3", "mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "mkfs.vfat", "mkfs.fat", "mkfs.msdos",
		"mkfs.ntfs", "mkfs.exfat", "mkfs.f2fs", "mkfs.minix", "mkfs.jfs", "mkfs.reiserfs", "mkfs.zfs")
	pack.On(ruleWipeDisk, "wipefs", "blkdiscard", "sgdisk", "sfdisk", "fdisk", "gdisk", "cfdisk", "parted",
		"diskpart", "format", "format-volume", "clear-disk", "initialize-disk", "remove-partition",
		"cipher", "diskutil", "hdparm", "nvme", "badblocks", "zpool", "lvremove", "vgremove", "pvremove",
		"cryptsetup", "mdadm")
	pack.On(ruleDiskCopy, "ddrescue", "bmaptool", "flashrom", "sg_format", "scrub", "zerofree", "etcher", "balena-etcher")
	pack.OnAny(ruleMkfsAny)
}

func diskRed(c *shell.Cmd, rule, reason string) (rules.Finding, bool) {
	return rules.Finding{Risk: 3, Violation: 0.97, RedLine: true, Rule: rule, Reason: reason, Marked: c.Raw}, true
}

func ruleDD(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	for _, a := range c.Args {
		if strings.HasPrefix(a, "of=") {
			t := a[3:]
			if f, ok := rules.DiskDevice(c, t); ok {
				return f, true
			}
			if diskIsDevice(t, x) {
				return diskRed(c, "disk.write-device", "dd writes to "+t+", which is a device on this machine")
			}
			if strings.Contains(t, shell.Dyn) {
				return rules.Finding{Risk: 2, Violation: 0.4, Rule: "disk.dd-dynamic", Reason: "dd writes to a target only known at run time (it could be a disk)", Marked: c.Raw}, true
			}
			f := rules.FsWriteTarget(c, t, x)
			if n, endless := ddBytes(c.Args); endless && f.Rule == "path.project" {
				// A file in the project that fills the disk is a question,
				// not a red line: deleting it gives the space back. (In
				// /tmp, often a tmpfs, it fills memory: blocked below.)
				f = rules.Worst(f, rules.Finding{Risk: 2, Violation: 0.45, Rule: "disk.dd-fill", Marked: c.Raw,
					Reason: "dd copies an endless stream into " + t + " until the disk is full (deleting the file gives the space back)"})
			} else if endless {
				f = rules.Worst(f, rules.Finding{Risk: 2.8, Violation: 0.9, RedLine: true, Rule: "disk.dd-fill", Marked: c.Raw,
					Reason: "dd copies an endless stream into " + t + " until the disk is full"})
			} else if n >= 20<<30 {
				f = rules.Worst(f, rules.Finding{Risk: 2, Violation: 0.5, Rule: "disk.dd-fill", Marked: c.Raw,
					Reason: "dd writes tens of gigabytes to " + t + ": it can fill the disk"})
			}
			return f, true
		}
	}
	return rules.Finding{Risk: 0.5, Rule: "disk.dd-read", Reason: "dd without of= writes to stdout", Marked: c.Raw}, true
}

// ruleDiskCopy: imaging and wiping tools whose last operand is the
// device they overwrite.
func ruleDiskCopy(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch c.Name {
	case "flashrom":
		if c.Flag('w', "--write") || c.Flag('E', "--erase") {
			return diskRed(c, "disk.firmware", "flashrom writes the machine's firmware (BIOS/UEFI): a mistake bricks it")
		}
		return rules.Finding{Risk: 1, Rule: "disk.firmware", Reason: "flashrom reads firmware", Marked: c.Raw, Uncertain: true}, true
	case "sg_format":
		return diskRed(c, "disk.format", "sg_format low-level formats a disk")
	}
	ops := c.Operands()
	for _, o := range ops {
		if f, ok := rules.DiskDevice(c, o); ok && (c.Name != "ddrescue" && c.Name != "bmaptool" || o == ops[len(ops)-1]) {
			return f, true
		}
	}
	if c.Name == "scrub" || c.Name == "zerofree" {
		return rules.Finding{Risk: 2.5, Violation: 0.7, Rule: "disk.wipe", Reason: c.Name + " overwrites data beyond recovery", Marked: c.Raw}, true
	}
	if len(ops) > 0 {
		return rules.FsWriteTarget(c, ops[len(ops)-1], x), true
	}
	return rules.Finding{Risk: 1, Rule: "disk.image", Reason: c.Name, Marked: c.Raw, Uncertain: true}, true
}

// ddBytes is bs*count when both are given (0 if unknown).
func ddBytes(args []string) (n float64, endless bool) {
	bs, count := 512.0, -1.0
	src := ""
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			continue
		}
		switch k {
		case "bs", "obs":
			bs = ddSize(v)
		case "count":
			count = ddSize(v)
		case "if":
			src = v
		}
	}
	if count < 0 {
		return 0, src == "/dev/zero" || src == "/dev/urandom" || src == "/dev/random"
	}
	return bs * count, false
}

func ddSize(v string) float64 {
	n, ok := rules.PkSizeBytes(v)
	if !ok || n < 0 {
		return 0
	}
	return n
}

func ruleMkfs(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	a := opts.Parse(mkfsGrammar(c.Name), c.Args)
	if a.ReadOnly || len(a.Operands) == 0 {
		return rules.Finding{Risk: 0, Rule: "disk.mkfs-help", Reason: c.Name + " prints help or what it would do; nothing is written", Marked: c.Raw}, true
	}
	// mkfs.ext4 DEVICE [BLOCKS]: the first operand is what gets formatted
	// (mkfs.fat / mkswap / mkfs.xfs take the device first too).
	t := a.Operands[0]
	if diskImageFile(t, x) {
		f := rules.FsWriteTarget(c, t, x)
		if f.Score() >= 1.5 || f.RedLine {
			return f, true
		}
		return rules.Finding{Risk: 1, Rule: "disk.mkfs-image", Reason: c.Name + " formats " + t + ", an image file, not a disk", Marked: c.Raw}, true
	}
	return diskRed(c, "disk.mkfs", c.Name+" formats a file system: everything on it is erased")
}

func ruleMkfsAny(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if strings.HasPrefix(c.Name, "mkfs") && !rules.HasRules(c.Name) {
		return ruleMkfs(c, x)
	}
	return rules.Finding{}, false
}

// mkfsGrammar: the options of mkfs and its family that take a value,
// and their dry runs (mke2fs -n, mkfs.xfs -N), from their manual pages.
func mkfsGrammar(name string) *opts.Spec {
	if g, ok := mkfsGrammars[name]; ok {
		return g
	}
	switch {
	case strings.HasPrefix(name, "mkfs.ext"), name == "mke2fs":
		return mkfsGrammars["mke2fs"]
	case strings.HasPrefix(name, "mkfs.xfs"):
		return mkfsGrammars["mkfs.xfs"]
	case strings.HasPrefix(name, "mkfs.fat"), strings.HasPrefix(name, "mkfs.vfat"), strings.HasPrefix(name, "mkfs.msdos"), name == "mkdosfs":
		return mkfsGrammars["mkfs.fat"]
	}
	return mkfsGrammars["mkfs"]
}

var mkfsGrammars = map[string]*opts.Spec{
	"mkfs":     opts.Lookup("mkfs"),
	"mke2fs":   {Opts: "b= C= d= E= e= g= G= i= I= J= l= L= m= M= N= o= O= r= t= T= U= z= c D F j n! q S v V! help!"},
	"mkfs.xfs": {Opts: "b= d= i= l= L= m= n= p= r= s= N! K f q V! help!"},
	"mkfs.fat": {Opts: "a A b= c C D= f= F= g= h= i= I l= m= M= n= r= R= s= S= v help! version!", Abbrev: true},
}

// diskImageFile: a format or write target that is a file, not a device:
// the disk says it is a regular file or a folder holds it, or it is not
// a device path and does not exist yet (mkfs.ext4 ./loop.img).
func diskImageFile(t string, x *rules.Ctx) bool {
	if t == "" || rules.PkDyn(t) {
		return false
	}
	l := strings.ToLower(strings.ReplaceAll(t, "\\", "/"))
	if strings.HasPrefix(l, "/dev/") || strings.HasPrefix(l, "//./") || strings.HasPrefix(l, "//?/") || len(l) == 2 && l[1] == ':' {
		return false
	}
	p := t
	if !filepath.IsAbs(p) && x != nil && x.Cwd != "" && !rules.PkDyn(x.Cwd) {
		p = filepath.Join(x.Cwd, p)
	}
	st, err := os.Stat(p)
	if err != nil {
		return os.IsNotExist(err) // mkfs would create or fail on it: not a disk
	}
	return st.Mode().IsRegular()
}

func ruleWipeDisk(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	low := diskLow(c)
	has := func(ws ...string) bool {
		for _, a := range low {
			for _, w := range ws {
				if a == w || strings.HasPrefix(a, w) && strings.HasSuffix(w, "=") {
					return true
				}
			}
		}
		return false
	}
	ro := rules.Finding{Risk: 0, Rule: "disk.list", Reason: c.Name + " only lists disks or partitions", Marked: c.Raw}
	if diskHelp(low) {
		return rules.Finding{Risk: 0, Rule: "disk.help", Reason: c.Name + " prints its help or version; nothing is changed", Marked: c.Raw}, true
	}
	switch c.Name {
	case "wipefs", "blkdiscard", "sgdisk", "sfdisk", "fdisk", "gdisk", "cfdisk", "parted", "badblocks":
		// parted disk.img mklabel gpt, sgdisk -Z disk.img: an image file.
		var targets []string
		for _, o := range c.Operands() {
			if strings.ContainsAny(o, "/.\\") || rules.PkDyn(o) {
				targets = append(targets, o)
			}
		}
		img := len(targets) > 0
		for _, t := range targets {
			img = img && diskImageFile(t, x)
		}
		if img {
			w := rules.Finding{Risk: 1, Rule: "disk.image-file", Reason: c.Name + " works on " + strings.Join(targets, " ") + ", an image file, not a disk", Marked: c.Raw}
			for _, t := range targets {
				if f := rules.FsWriteTarget(c, t, x); f.Score() >= 1.5 || f.RedLine {
					w = rules.Worst(w, f)
				}
			}
			return w, true
		}
	}
	switch c.Name {
	case "wipefs":
		if has("-n", "--no-act") || len(c.Operands()) > 0 && !has("-a", "--all", "-o", "--offset") {
			return ro, true
		}
		return diskRed(c, "disk.wipe", "wipefs erases file-system signatures: the disk's data becomes unreachable")
	case "blkdiscard":
		return diskRed(c, "disk.wipe", "blkdiscard discards every block of the device: all data is gone")
	case "sgdisk":
		if has("-p", "--print", "-v", "--verify", "-i", "--info") && !has("-z", "--zap", "-Z", "--zap-all", "-o", "--clear", "-d", "--delete", "-n", "--new") {
			return ro, true
		}
		return diskRed(c, "disk.partition", "sgdisk rewrites the partition table")
	case "sfdisk":
		if has("-l", "--list", "-d", "--dump", "-s", "--show-size", "-j", "--json", "-v", "--verify") {
			return ro, true
		}
		return diskRed(c, "disk.partition", "sfdisk writes a partition table")
	case "fdisk", "gdisk", "cfdisk":
		if has("-l", "--list") {
			return ro, true
		}
		return diskRed(c, "disk.partition", c.Name+" edits a disk's partition table")
	case "parted":
		for _, a := range low {
			switch a {
			case "mklabel", "mktable", "rm", "mkpart", "resizepart", "mkfs", "rescue", "name":
				return diskRed(c, "disk.partition", "parted "+a+" changes the partition table")
			}
		}
		if has("-l", "--list", "print", "p") {
			return ro, true
		}
		return rules.Finding{Risk: 2.5, Violation: 0.7, Rule: "disk.partition", Reason: "parted edits a disk's partition table", Marked: c.Raw}, true
	case "diskpart":
		if len(c.Args) == 0 && len(c.PipedFrom) > 0 && diskpartReadScript(x) {
			return ro, true // echo list disk | diskpart
		}
		return diskRed(c, "disk.diskpart", "diskpart partitions, cleans and formats disks")
	case "format":
		for _, a := range c.Args {
			if len(a) == 2 && a[1] == ':' || len(a) == 3 && a[1] == ':' && (a[2] == '\\' || a[2] == '/') {
				return diskRed(c, "disk.format", "format "+a+" erases the whole drive")
			}
		}
		return rules.Finding{Risk: 2.5, Violation: 0.7, Rule: "disk.format", Reason: "format erases a drive", Marked: c.Raw}, true
	case "format-volume", "clear-disk", "initialize-disk", "remove-partition":
		return diskRed(c, "disk.format", c.Name+" erases a disk or volume")
	case "cipher":
		for _, a := range low {
			if strings.HasPrefix(a, "/w") {
				return diskRed(c, "disk.wipe-free", "cipher /w overwrites all deleted data on the drive: nothing can be recovered")
			}
		}
		if rules.PkWinFlag(c, "e", "d", "r", "k", "u", "x", "n", "rekey", "adduser", "removeuser") {
			return rules.Finding{Risk: 1.5, Violation: 0.2, Rule: "disk.cipher", Reason: "cipher changes file encryption or keys", Marked: c.Raw}, true
		}
		// cipher alone, /c, /s:DIR, /h: shows the encryption state.
		return rules.PkAllow(c, 0, "disk.cipher-read", "cipher shows the encryption state")
	case "diskutil":
		for _, a := range low {
			switch a {
			case "erasedisk", "erasevolume", "partitiondisk", "zerodisk", "randomdisk", "secureerase", "reformat", "splitpartition", "mergepartitions", "deletevolume", "erasecontainer", "deletecontainer", "apfs":
				return diskRed(c, "disk.diskutil", "diskutil "+a+" erases or repartitions a disk")
			}
		}
		if len(low) > 0 && (low[0] == "list" || low[0] == "info" || low[0] == "activity" || low[0] == "verifyvolume") {
			return ro, true
		}
		return rules.Finding{Risk: 1.5, Violation: 0.2, Rule: "disk.diskutil", Reason: "diskutil changes disks or volumes", Marked: c.Raw, Uncertain: true}, true
	case "hdparm":
		for _, a := range low {
			if strings.HasPrefix(a, "--security-erase") || strings.HasPrefix(a, "--trim-sector") || a == "--make-bad-sector" || a == "--write-sector" {
				return diskRed(c, "disk.wipe", "hdparm "+a+" destroys data on the disk")
			}
		}
		return rules.Finding{Risk: 1, Rule: "disk.hdparm", Reason: "hdparm reads or tunes a disk", Marked: c.Raw, Uncertain: true}, true
	case "nvme":
		if len(low) > 0 && (low[0] == "format" || low[0] == "sanitize" || low[0] == "delete-ns" || low[0] == "write-zeroes") {
			return diskRed(c, "disk.wipe", "nvme "+low[0]+" erases the drive")
		}
		return rules.Finding{Risk: 0.5, Rule: "disk.nvme", Reason: "nvme reads drive information", Marked: c.Raw, Uncertain: true}, true
	case "badblocks":
		if has("-w") || c.Flag('w') {
			return diskRed(c, "disk.wipe", "badblocks -w overwrites the whole device")
		}
		return ro, true
	case "zpool":
		if len(low) > 0 && (low[0] == "destroy" || low[0] == "labelclear") {
			return diskRed(c, "disk.zpool", "zpool "+low[0]+" destroys a storage pool")
		}
		return rules.Finding{Risk: 1, Rule: "disk.zpool", Reason: "zpool", Marked: c.Raw, Uncertain: true}, true
	case "lvremove", "vgremove", "pvremove":
		return diskRed(c, "disk.lvm", c.Name+" deletes a volume and its data")
	case "cryptsetup":
		if len(low) > 0 && (low[0] == "luksformat" || low[0] == "erase" || low[0] == "lukserase" || low[0] == "reencrypt") {
			return diskRed(c, "disk.crypt", "cryptsetup "+low[0]+" destroys the volume's keys or data")
		}
		return rules.Finding{Risk: 1.5, Violation: 0.2, Rule: "disk.crypt", Reason: "cryptsetup changes encrypted volumes", Marked: c.Raw}, true
	case "mdadm":
		if has("--zero-superblock", "--create", "-c", "--remove", "--fail", "-f") {
			return diskRed(c, "disk.raid", "mdadm changes a RAID array's disks")
		}
		return rules.Finding{Risk: 1, Rule: "disk.raid", Reason: "mdadm", Marked: c.Raw, Uncertain: true}, true
	}
	return rules.Finding{}, false
}

func diskLow(c *shell.Cmd) []string {
	out := make([]string, len(c.Args))
	for i, a := range c.Args {
		out[i] = strings.ToLower(a)
	}
	return out
}

// diskHelp: --help, --version, /? anywhere, or -h alone: the tool prints
// usage and touches no disk.
func diskHelp(low []string) bool {
	for _, a := range low {
		if a == "--help" || a == "--version" || a == "/?" || a == "-?" || a == "-help" {
			return true
		}
	}
	return len(low) == 1 && low[0] == "-h"
}

// diskIsDevice: the disk says t is a block or character device (a
// symlink to /dev/sda named disk.img).
func diskIsDevice(t string, x *rules.Ctx) bool {
	if t == "" || rules.PkDyn(t) {
		return false
	}
	p := t
	if !filepath.IsAbs(p) && x != nil && x.Cwd != "" && !rules.PkDyn(x.Cwd) {
		p = filepath.Join(x.Cwd, p)
	}
	st, err := os.Stat(p)
	return err == nil && st.Mode()&os.ModeDevice != 0 && st.Mode()&os.ModeCharDevice == 0
}

// diskpartReadWords are the words of diskpart commands that only show.
var diskpartReadWords = rules.PkSet("list", "detail", "select", "sel", "disk", "volume", "vol", "partition", "part", "vdisk", "exit", "help", "filesystems", "echo", "echo.", "&", "&&", ";")

// diskpartReadScript: every echo or printf of the line (the script piped
// into diskpart) holds only list/detail/select words and numbers; the
// line runs nothing else but diskpart.
func diskpartReadScript(x *rules.Ctx) bool {
	all := rules.PkAll(x)
	saw := false
	for i := range all {
		o := &all[i]
		switch o.Name {
		case "diskpart":
			continue
		case "echo", "printf", "write-output":
		default:
			return false
		}
		saw = true
		for _, a := range o.Args {
			for _, w := range strings.Fields(strings.ToLower(strings.NewReplacer("\\n", " ", "\n", " ", `"`, " ", "'", " ").Replace(a))) {
				if !diskpartReadWords.Has(w) && strings.Trim(w, "0123456789") != "" {
					return false
				}
			}
		}
	}
	return saw
}
