package disk

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Volume managers and snapshot tools: ZFS datasets and snapshots, btrfs
// subvolumes, LVM, snapper and Timeshift. Their snapshots are the
// machine's backups: deleting one (zfs destroy pool/fs@snap, btrfs
// subvolume delete of a snapshot, snapper delete, timeshift --delete) is
// the red line on backups, deleting a dataset or subvolume is data that
// cannot come back, a rollback throws away everything written since.
// Listing and showing is read-only, taking a snapshot is controlled.

func init() {
	pack.On(ruleZFS, "zfs")
	pack.On(ruleBtrfs, "btrfs")
	pack.On(ruleSnapTools, "snapper", "timeshift")
	pack.On(ruleLVMRead, "lvs", "vgs", "pvs", "lvdisplay", "vgdisplay", "pvdisplay", "lvscan", "vgscan", "pvscan")
	pack.On(ruleLVMChange, "lvcreate", "lvextend", "lvreduce", "lvresize", "lvrename", "lvchange", "vgchange", "vgextend", "vgreduce", "pvcreate", "pvmove", "pvresize")
}

func volRead(c *shell.Cmd, rule, reason string) (rules.Finding, bool) {
	return rules.Finding{Rule: rule, Reason: reason, Marked: c.Raw}, true
}

func volSnapshotGone(c *shell.Cmd, rule, what string) (rules.Finding, bool) {
	return rules.Finding{Risk: 2.9, Violation: 0.9, RedLine: true, Rule: rule, Marked: c.Raw,
		Reason: what + ": a snapshot is a backup, and a deleted one cannot be restored"}, true
}

func ruleZFS(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	low := diskLow(c)
	if diskHelp(low) || len(low) == 0 {
		return volRead(c, "disk.zfs-read", "zfs prints its usage")
	}
	ops := c.Operands()
	switch low[0] {
	case "list", "get", "holds", "diff", "userspace", "groupspace", "projectspace", "version", "wait":
		return volRead(c, "disk.zfs-read", "zfs "+low[0]+" shows datasets and their properties")
	case "snapshot", "snap", "bookmark", "hold":
		return rules.PkAllow(c, 1, "disk.zfs-snapshot", "zfs "+low[0]+" takes a snapshot (a backup point; nothing is lost)")
	case "destroy":
		if c.Flag('n') {
			return rules.PkAllow(c, 0.5, "disk.zfs-read", "zfs destroy -n only shows what would be destroyed")
		}
		for _, o := range ops[1:] {
			if strings.Contains(o, "@") {
				return volSnapshotGone(c, "disk.zfs-destroy", "zfs destroy deletes the snapshot "+o)
			}
		}
		return diskRed(c, "disk.zfs-destroy", "zfs destroy deletes a dataset and everything in it (with -r its snapshots too)")
	case "rollback":
		return rules.PkRet(c, 2.7, 0.85, "disk.zfs-rollback", "zfs rollback throws away everything written since the snapshot (with -r the later snapshots too)")
	case "receive", "recv":
		if c.Flag('F') {
			return rules.PkRet(c, 2.2, 0.5, "disk.zfs-receive", "zfs receive -F overwrites the target dataset and its later snapshots")
		}
		return rules.PkAllow(c, 1, "disk.zfs-receive", "zfs receive writes a new dataset from a stream")
	case "send":
		return rules.PkAllow(c, 0.5, "disk.zfs-read", "zfs send writes a snapshot as a stream")
	}
	return rules.Finding{Risk: 1.5, Violation: 0.2, Rule: "disk.zfs-change", Reason: "zfs " + low[0] + " changes datasets or their properties", Marked: c.Raw}, true
}

// btrfsVerb matches a btrfs (sub)command word as btrfs does: any unique
// prefix (sub del, fi show).
func btrfsVerb(w, full string) bool { return w != "" && strings.HasPrefix(full, w) }

func ruleBtrfs(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	low := diskLow(c)
	if diskHelp(low) {
		return volRead(c, "disk.btrfs-read", "btrfs prints its usage")
	}
	var w []string
	for _, a := range low {
		if !strings.HasPrefix(a, "-") {
			w = append(w, a)
		}
	}
	if len(w) < 2 {
		return rules.Finding{Risk: 1, Rule: "disk.btrfs", Reason: "btrfs", Marked: c.Raw, Uncertain: true}, true
	}
	group, verb := w[0], w[1]
	switch {
	case btrfsVerb(group, "subvolume") && (btrfsVerb(verb, "delete") || verb == "del"):
		for _, p := range w[2:] {
			if strings.Contains(p, "snap") || strings.Contains(p, "backup") || strings.Contains(p, "@") {
				return volSnapshotGone(c, "disk.btrfs-delete", "btrfs subvolume delete deletes the snapshot "+p)
			}
		}
		return diskRed(c, "disk.btrfs-delete", "btrfs subvolume delete deletes a subvolume and everything in it")
	case btrfsVerb(group, "subvolume") && (btrfsVerb(verb, "list") || btrfsVerb(verb, "show") || btrfsVerb(verb, "get-default")),
		btrfsVerb(group, "filesystem") && (btrfsVerb(verb, "show") || btrfsVerb(verb, "df") || btrfsVerb(verb, "usage") || btrfsVerb(verb, "du") || btrfsVerb(verb, "label") && len(w) == 3),
		btrfsVerb(group, "device") && (btrfsVerb(verb, "stats") || btrfsVerb(verb, "usage")),
		btrfsVerb(group, "scrub") && btrfsVerb(verb, "status"), btrfsVerb(group, "balance") && btrfsVerb(verb, "status"),
		btrfsVerb(group, "qgroup") && btrfsVerb(verb, "show"), btrfsVerb(group, "property") && (btrfsVerb(verb, "get") || btrfsVerb(verb, "list")),
		btrfsVerb(group, "inspect-internal"):
		return volRead(c, "disk.btrfs-read", "btrfs "+group+" "+verb+" shows the file system")
	case btrfsVerb(group, "subvolume") && (btrfsVerb(verb, "snapshot") || btrfsVerb(verb, "create")):
		return rules.PkAllow(c, 1, "disk.btrfs-snapshot", "btrfs subvolume "+verb+" creates a subvolume or snapshot (nothing is lost)")
	case btrfsVerb(group, "check") && (rules.PkContains(low, "--repair") || rules.PkContains(low, "--init-csum-tree") || rules.PkContains(low, "--init-extent-tree")),
		btrfsVerb(group, "rescue"), btrfsVerb(group, "device") && (btrfsVerb(verb, "remove") || btrfsVerb(verb, "delete")),
		btrfsVerb(group, "filesystem") && btrfsVerb(verb, "resize") && strings.HasPrefix(w[len(w)-2], "-"):
		return rules.PkRet(c, 2.4, 0.5, "disk.btrfs-change", "btrfs "+group+" "+verb+" repairs or shrinks the file system and can lose data")
	}
	return rules.Finding{Risk: 1.5, Violation: 0.2, Rule: "disk.btrfs-change", Reason: "btrfs " + group + " " + verb + " changes the file system", Marked: c.Raw}, true
}

func ruleSnapTools(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	low := diskLow(c)
	if diskHelp(low) {
		return volRead(c, "disk.snapshots-read", c.Name+" prints its usage")
	}
	if c.Name == "timeshift" {
		switch {
		case rules.PkContains(low, "--delete") || rules.PkContains(low, "--delete-all"):
			return volSnapshotGone(c, "disk.snapshots-delete", "timeshift --delete removes system snapshots")
		case rules.PkContains(low, "--restore"):
			return rules.PkRet(c, 2.4, 0.5, "disk.snapshots-restore", "timeshift --restore puts the system back to a snapshot, losing what changed since")
		case rules.PkContains(low, "--create") || rules.PkContains(low, "--check"):
			return rules.PkAllow(c, 1, "disk.snapshots-create", "timeshift takes a snapshot")
		}
		return volRead(c, "disk.snapshots-read", "timeshift lists snapshots or devices")
	}
	// snapper [-c CONFIG] COMMAND ...
	var verb string
	for i := 0; i < len(low); i++ {
		a := low[i]
		if a == "-c" || a == "--config" || a == "-r" || a == "--root" {
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") {
			verb = a
			break
		}
	}
	switch verb {
	case "delete", "remove", "rm", "cleanup", "delete-config":
		return volSnapshotGone(c, "disk.snapshots-delete", "snapper "+verb+" removes snapshots")
	case "rollback", "undochange":
		return rules.PkRet(c, 2.4, 0.5, "disk.snapshots-restore", "snapper "+verb+" puts files back to a snapshot, losing what changed since")
	case "create", "create-config", "modify", "mount", "umount":
		return rules.PkAllow(c, 1, "disk.snapshots-create", "snapper "+verb+" takes or changes a snapshot")
	}
	return volRead(c, "disk.snapshots-read", "snapper lists or compares snapshots")
}

func ruleLVMRead(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	return volRead(c, "disk.lvm-read", c.Name+" shows LVM volumes")
}

func ruleLVMChange(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	low := diskLow(c)
	if diskHelp(low) || rules.PkContains(low, "--test") || c.Flag('t') && c.Name != "lvcreate" {
		return volRead(c, "disk.lvm-read", c.Name+" prints its usage or only tests")
	}
	switch c.Name {
	case "lvreduce", "vgreduce", "pvmove":
		return rules.PkRet(c, 2.4, 0.5, "disk.lvm-change", c.Name+" shrinks or moves volumes and can lose data")
	case "lvresize":
		for _, a := range c.Args {
			if strings.HasPrefix(a, "-") && strings.Contains(a, "-L-") || strings.HasPrefix(a, "-L-") || strings.HasPrefix(a, "-l-") || strings.HasPrefix(a, "--size=-") {
				return rules.PkRet(c, 2.4, 0.5, "disk.lvm-change", "lvresize shrinks a volume and can lose data")
			}
		}
	case "pvcreate":
		return diskRed(c, "disk.lvm-label", "pvcreate writes an LVM label over the device")
	case "lvcreate":
		if c.Flag('s', "--snapshot") {
			return rules.PkAllow(c, 1, "disk.lvm-snapshot", "lvcreate -s takes a snapshot (nothing is lost)")
		}
	}
	return rules.Finding{Risk: 1.5, Violation: 0.2, Rule: "disk.lvm-change", Reason: c.Name + " changes LVM volumes", Marked: c.Raw}, true
}
