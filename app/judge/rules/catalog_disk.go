package rules

// Catalog: disks and machine state. Generated once from the corpora and then kept by hand;
// see catalog.go for what an entry promises.

var _ = declare("app/judge/rules/packs/disk/disk.go", func() []Entry {
	return []Entry{
		Entry{ID: "disk.cipher", Risk: 2, Category: "disks and machine state", Reason: "cipher changes file encryption or keys",
			Examples: []Example{{Command: "cipher /e /s:C:\\Users\\dev\\secret"}}},
		Entry{ID: "disk.cipher-read", Risk: 0, Category: "disks and machine state", Reason: "cipher alone, /c or /s without a change flag shows the encryption state",
			Examples: []Example{{Command: "cipher /c report.docx"}}},
		Entry{ID: "disk.crypt", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "cryptsetup <low> destroys the volume's keys or data",
			Examples: []Example{{Command: "cryptsetup luksFormat /dev/sdb"}}},
		Entry{ID: "disk.dd-dynamic", Risk: 2, Category: "disks and machine state", Reason: "dd writes to a target only known at run time (it could be a disk)",
			Examples: []Example{{Command: "dd if=build.img of=\"$DEV\""}}},
		Entry{ID: "disk.dd-fill", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "dd copies an endless stream into a file until the disk is full",
			Examples: []Example{{Command: "dd if=/dev/zero of=/tmp/fill"}}},
		Entry{ID: "disk.dd-read", Risk: 1, Category: "disks and machine state", Reason: "dd without of= writes to stdout",
			Examples: []Example{{Command: "dd"}}},
		Entry{ID: "disk.diskpart", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "diskpart partitions, cleans and formats disks",
			Examples: []Example{{Command: "diskpart"}}},
		Entry{ID: "disk.diskutil", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "diskutil <a> erases or repartitions a disk",
			Examples: []Example{{Command: "diskutil eraseDisk JHFS+ Empty disk2"}}},
		Entry{ID: "disk.firmware", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "flashrom writes the machine's firmware (BIOS/UEFI): a mistake bricks it",
			Examples: []Example{{Command: "flashrom -p internal -w bios.rom"}}},
		Entry{ID: "disk.format", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "sg_format low-level formats a disk",
			Examples: []Example{{Command: "format D:"}}},
		Entry{ID: "disk.hdparm", Risk: 1, Category: "disks and machine state", Reason: "hdparm reads or tunes a disk",
			Examples: []Example{{Command: "hdparm"}}},
		Entry{ID: "disk.help", Risk: 0, Category: "disks and machine state", Reason: "format prints its help or version; nothing is changed",
			Examples: []Example{{Command: "format /?"}}},
		Entry{ID: "disk.image", Risk: 1, Category: "disks and machine state", Reason: "ddrescue",
			Examples: []Example{{Command: "ddrescue"}}},
		Entry{ID: "disk.image-file", Risk: 1, Category: "disks and machine state", Reason: "a disk tool works on an image file, not on a disk",
			Examples: []Example{{Command: "wipefs -a disk.img"}}},
		Entry{ID: "disk.list", Risk: 0, Category: "disks and machine state", Reason: "fdisk only lists disks or partitions",
			Examples: []Example{{Command: "fdisk -l"}}},
		Entry{ID: "disk.lvm", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "<name> deletes a volume and its data",
			Examples: []Example{{Command: "lvremove"}}},
		Entry{ID: "disk.mkfs", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "<name> formats a file system: everything on it is erased",
			Examples: []Example{{Command: "mkfs.ext4 $DISK"}}},
		Entry{ID: "disk.mkfs-help", Risk: 0, Category: "disks and machine state", Reason: "mkfs.ext4 prints help or what it would do; nothing is written",
			Examples: []Example{{Command: "mkfs.ext4 --help"}}},
		Entry{ID: "disk.mkfs-image", Risk: 1, Category: "disks and machine state", Reason: "mkswap formats ./swapfile, an image file, not a disk",
			Examples: []Example{{Command: "mkswap ./swapfile"}}},
		Entry{ID: "disk.nvme", Risk: 1, Category: "disks and machine state", Reason: "nvme reads drive information",
			Examples: []Example{{Command: "nvme"}}},
		Entry{ID: "disk.partition", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "sgdisk rewrites the partition table",
			Examples: []Example{{Command: "fdisk /dev/sda"}}},
		Entry{ID: "disk.raid", Risk: 1, Category: "disks and machine state", Reason: "mdadm changes a RAID array's disks",
			Examples: []Example{{Command: "mdadm"}}},
		Entry{ID: "disk.wipe", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "wipefs erases file-system signatures: the disk's data becomes unreachable",
			Examples: []Example{{Command: "wipefs -a /dev/sda"}}},
		Entry{ID: "disk.wipe-free", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "cipher /w overwrites all deleted data on the drive: nothing can be recovered",
			Examples: []Example{{Command: "cipher /w:c:\\"}}},
		Entry{ID: "disk.write-device", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "dd writes to <t>, which is a device on this machine",
			Examples: []Example{{Command: "echo hi > /dev/sda"}}},
		Entry{ID: "disk.zpool", Risk: 1, Category: "disks and machine state", Reason: "zpool <low> destroys a storage pool",
			Examples: []Example{{Command: "zpool"}}},
	}
})

var _ = declare("app/judge/rules/packs/everyday/everyday_escape.go", func() []Entry {
	return []Entry{
		Entry{ID: "disk.mountvol", Risk: 2, Category: "disks and machine state", Reason: "removes a drive letter or dismounts a volume (programs and data on it become unreachable)",
			Examples: []Example{{Command: "mountvol X: /d"}}},
		Entry{ID: "disk.mountvol-change", Risk: 2, Category: "disks and machine state", Reason: "changes how volumes are mounted",
			Examples: []Example{{Command: "mountvol /r"}}},
		Entry{ID: "disk.mountvol-list", Risk: 0, Category: "disks and machine state", Reason: "lists volume mount points",
			Examples: []Example{{Command: "mountvol"}}},
	}
})

var _ = declare("app/judge/rules/fsdisk.go", func() []Entry {
	return []Entry{
		Entry{ID: "disk.delete-git", Risk: 3, Category: "disks and machine state", Reason: "deletes a folder holding a git repository",
			Examples: []Example{{Command: "find . -type d -name .git -exec rm -rf {} +", Setup: &Setup{Repo: &Repo{Committed: []string{"README.md"}}}}}},
		Entry{ID: "disk.discard-changes", Risk: 2, Category: "disks and machine state", Reason: "throws away uncommitted changes",
			Examples: []Example{{Command: "git checkout -- src/main.go", Setup: &Setup{Repo: &Repo{Modified: []string{"src/main.go"}}}}}},
		Entry{ID: "disk.mass-edit", Risk: 2, Category: "disks and machine state", Reason: "edits many files that git cannot restore",
			Examples: []Example{{Command: "grep -rl src . | xargs sed -i 's/src/lib/g'", Setup: &Setup{Repo: &Repo{Committed: []string{"src/f.js x100"}, Untracked: []string{"src/new.js"}}}}}},
		Entry{ID: "disk.mass-perms", Risk: 2, Category: "disks and machine state", Reason: "changes permissions of many files",
			Examples: []Example{{Command: "chmod -R a+rwx ./", Setup: &Setup{Repo: &Repo{Committed: []string{"src/f.js x120"}}}}}},
		Entry{ID: "disk.recoverable", Risk: 1, Category: "disks and machine state", Reason: "deletes files git can restore",
			Examples: []Example{{Command: "rm -rf src/gen", Setup: &Setup{Repo: &Repo{Committed: []string{"src/gen/f.js x20"}}}}}},
		Entry{ID: "disk.uncommitted-<kind>", Risk: 3, Category: "disks and machine state", Reason: "deletes or overwrites files with uncommitted work",
			Examples: []Example{{Command: "rm notes.txt", Setup: &Setup{Repo: &Repo{Untracked: []string{"notes.txt"}}}}, {Command: ": > notes.txt", Setup: &Setup{Repo: &Repo{Untracked: []string{"notes.txt"}}}}}},
		Entry{ID: "disk.unknown", Risk: 2, Category: "disks and machine state", Reason: "could not read the files the command touches",
			Examples: []Example{{Command: "rm -rf src", Setup: &Setup{Repo: &Repo{Committed: []string{"src/main.go"}}, Fault: FaultDiskBudget}}}},
	}
})

var _ = declare("app/judge/rules/packs/sysfiles/sysfiles_win.go", func() []Entry {
	return []Entry{
		Entry{ID: "boot.read", Risk: 0, Category: "disks and machine state", Reason: "reads boot configuration",
			Examples: []Example{{Command: "bcdedit /enum"}}},
	}
})

var _ = declare("app/judge/rules/packs/disk/volumes.go", func() []Entry {
	return []Entry{
		Entry{ID: "disk.zfs-read", Risk: 1, Category: "disks and machine state", Reason: "zfs list shows datasets and their properties",
			Examples: []Example{{Command: "zfs list -t snapshot"}, {Command: "zfs destroy -n tank/home@daily"}}},
		Entry{ID: "disk.zfs-snapshot", Risk: 1, Category: "disks and machine state", Reason: "zfs snapshot takes a snapshot (a backup point; nothing is lost)",
			Examples: []Example{{Command: "sudo zfs snapshot tank/home@before-upgrade"}}},
		Entry{ID: "disk.zfs-destroy", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "zfs destroy deletes a dataset or a snapshot (a backup), which cannot be restored",
			Examples: []Example{{Command: "zfs destroy tank/home@daily-2026-12-01"}, {Command: "sudo zfs destroy -r tank/backups"}}},
		Entry{ID: "disk.zfs-rollback", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "zfs rollback throws away everything written since the snapshot (with -r the later snapshots too)",
			Examples: []Example{{Command: "sudo zfs rollback -r tank/home@before"}}},
		Entry{ID: "disk.zfs-receive", Risk: 2, Category: "disks and machine state", Reason: "zfs receive -F overwrites the target dataset and its later snapshots",
			Examples: []Example{{Command: "zfs receive -F tank/home"}, {Command: "zfs receive tank/copy"}}},
		Entry{ID: "disk.zfs-change", Risk: 2, Category: "disks and machine state", Reason: "zfs set changes datasets or their properties",
			Examples: []Example{{Command: "sudo zfs set compression=lz4 tank/data"}}},
		Entry{ID: "disk.btrfs", Risk: 1, Category: "disks and machine state", Reason: "btrfs",
			Examples: []Example{{Command: "btrfs version"}}},
		Entry{ID: "disk.btrfs-read", Risk: 0, Category: "disks and machine state", Reason: "btrfs subvolume list shows the file system",
			Examples: []Example{{Command: "sudo btrfs subvolume list /"}, {Command: "btrfs fi usage /"}}},
		Entry{ID: "disk.btrfs-snapshot", Risk: 1, Category: "disks and machine state", Reason: "btrfs subvolume snapshot creates a subvolume or snapshot (nothing is lost)",
			Examples: []Example{{Command: "sudo btrfs subvolume snapshot -r / /.snapshots/pre"}}},
		Entry{ID: "disk.btrfs-delete", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "btrfs subvolume delete deletes a subvolume or a snapshot (a backup) and everything in it",
			Examples: []Example{{Command: "sudo btrfs subvolume delete /mnt/snapshots/home-2026-12-01"}, {Command: "btrfs sub del /srv/data"}}},
		Entry{ID: "disk.btrfs-change", Risk: 2, Category: "disks and machine state", Reason: "btrfs check --repair repairs or shrinks the file system and can lose data",
			Examples: []Example{{Command: "sudo btrfs check --repair /dev/sdb1"}, {Command: "btrfs balance start /"}}},
		Entry{ID: "disk.snapshots-read", Risk: 0, Category: "disks and machine state", Reason: "snapper lists or compares snapshots",
			Examples: []Example{{Command: "sudo snapper list"}, {Command: "timeshift --list"}}},
		Entry{ID: "disk.snapshots-create", Risk: 1, Category: "disks and machine state", Reason: "timeshift takes a snapshot",
			Examples: []Example{{Command: "sudo timeshift --create --comments pre-upgrade"}, {Command: "snapper create -d pre"}}},
		Entry{ID: "disk.snapshots-delete", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "snapper delete removes snapshots: a snapshot is a backup, and a deleted one cannot be restored",
			Examples: []Example{{Command: "sudo snapper -c root delete 42-50"}, {Command: "sudo timeshift --delete-all"}}},
		Entry{ID: "disk.snapshots-restore", Risk: 2, Category: "disks and machine state", Reason: "timeshift --restore puts the system back to a snapshot, losing what changed since",
			Examples: []Example{{Command: "sudo timeshift --restore"}, {Command: "snapper rollback 42"}}},
		Entry{ID: "disk.lvm-read", Risk: 0, Category: "disks and machine state", Reason: "lvs shows LVM volumes",
			Examples: []Example{{Command: "sudo lvs"}, {Command: "vgdisplay"}}},
		Entry{ID: "disk.lvm-snapshot", Risk: 1, Category: "disks and machine state", Reason: "lvcreate -s takes a snapshot (nothing is lost)",
			Examples: []Example{{Command: "sudo lvcreate -s -n snap -L 5G /dev/vg0/data"}}},
		Entry{ID: "disk.lvm-change", Risk: 2, Category: "disks and machine state", Reason: "lvreduce shrinks or moves volumes and can lose data",
			Examples: []Example{{Command: "sudo lvreduce -L 10G /dev/vg0/data"}, {Command: "lvextend -L +10G /dev/vg0/data"}}},
		Entry{ID: "disk.lvm-label", Risk: 3, RedLine: true, Category: "disks and machine state", Reason: "pvcreate writes an LVM label over the device",
			Examples: []Example{{Command: "pvcreate /dev/sdb"}}},
	}
})
