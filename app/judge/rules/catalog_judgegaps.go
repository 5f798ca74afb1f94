package rules

// Rule ids added by the judgegaps branch (payloads run by other programs,
// remote deletes, ...). A dangerous payload is reported as the carrier's
// id, a slash and the payload's own rule ("term.keys/fs.delete-home"), as
// docker.exec/ and ssh/ already are; harmless ones leave the program's
// own rule to speak, except for terminals no other rule knows.
var _ = declare("payload.go", func() []Entry {
	return []Entry{
		Entry{ID: "term.keys", Risk: 3, Category: "shell", Reason: "text typed into a terminal (tmux send-keys, screen -X stuff) is judged as the command line it becomes",
			Examples: []Example{{Command: "tmux send-keys -t dev 'rm -rf ~' Enter"}}},
		Entry{ID: "term.exec", Risk: 3, Category: "shell", Reason: "the command a terminal window, tmux or screen session starts is judged as a command line",
			Examples: []Example{{Command: "xterm -e htop"}}},
		Entry{ID: "nix.run", Risk: 3, Category: "shell", Reason: "the command nix-shell --run or nix develop -c runs is judged as a command line",
			Examples: []Example{{Command: "nix-shell --run 'rm -rf ~'"}}},
		Entry{ID: "dev.runs", Risk: 3, Category: "shell", Reason: "the command lines developer tools run (concurrently, nodemon --exec, watchexec, hyperfine, cross-env, ...) are judged as command lines",
			Examples: []Example{{Command: "concurrently 'rm -rf ~' 'npm start'"}}},
		Entry{ID: "vm.exec", Risk: 3, Category: "shell", Reason: "the command run in a local VM (vagrant ssh -c, multipass exec) is judged as a command line; vagrant's /vagrant is the project folder",
			Examples: []Example{{Command: "vagrant ssh -c 'rm -rf /vagrant/*'"}}},
	}
})

var _ = declare("payload.go", func() []Entry {
	return []Entry{
		Entry{ID: "net.ssh-remote-delete", Risk: 2, Category: "network", Reason: "a delete on a remote host: nothing there can be counted or checked",
			Examples: []Example{{Command: "ssh host 'rm -rf ./build'"}}},
	}
})

var _ = declare("packutil.go", func() []Entry {
	return []Entry{
		Entry{ID: "shell.nested-deep", Risk: 2, Category: "shell", Reason: "commands nested more than a few programs deep (docker exec ... poetry run ...): the innermost are not read, so it is a question",
			Examples: []Example{{Command: "poetry run poetry run poetry run poetry run poetry run poetry run poetry run poetry run rm -rf ~"}}},
	}
})

var _ = declare("fsuserdata.go", func() []Entry {
	return []Entry{
		Entry{ID: "fs.empty-user-data", Risk: 2, Category: "files", Reason: "empties one of the user's own files outside any project, which loses it like a delete",
			Examples: []Example{{Command: ": > ~/Documents/thesis.docx"}}},
	}
})

var _ = declare("winextra.go", func() []Entry {
	return []Entry{
		Entry{ID: "win.regedit-open", Risk: 0, Category: "system", Reason: "regedit without a file opens the registry editor",
			Examples: []Example{{Command: "regedit"}}},
		Entry{ID: "disk.bitlocker-read", Risk: 0, Category: "disks and machine state", Reason: "manage-bde -status and -protectors -get only show BitLocker's state",
			Examples: []Example{{Command: "manage-bde -status"}}},
		Entry{ID: "disk.bitlocker", Risk: 2, Category: "disks and machine state", Reason: "manage-bde -off, -on, -forcerecovery, -lock or key changes: the disk may become unreadable or unprotected",
			Examples: []Example{{Command: "manage-bde -off C:"}}},
		Entry{ID: "sys.setx-path", Risk: 2, Category: "system", Reason: "setx PATH replaces the PATH of every later program and cuts it at 1024 characters",
			Examples: []Example{{Command: "setx PATH \"%PATH%;C:\\tools\""}}},
		Entry{ID: "docker.system-reset", Risk: 3, Category: "containers", Reason: "podman or nerdctl system reset deletes every container, image and volume",
			Examples: []Example{{Command: "podman system reset -f"}}},
	}
})

var _ = declare("tlsconfig.go", func() []Entry {
	return []Entry{
		Entry{ID: "net.tls-off", Risk: 2, Category: "network", Reason: "a setting that stays turns certificate checks off for later downloads (git http.sslVerify false, npm strict-ssl false, pip trusted-host, setx NODE_TLS_REJECT_UNAUTHORIZED 0)",
			Examples: []Example{{Command: "git config --global http.sslVerify false"}}},
		Entry{ID: "net.plain-index", Risk: 2, Category: "network", Reason: "the package index is set to plain http on another machine: later installs can be replaced on the way",
			Examples: []Example{{Command: "npm config set registry http://registry.example.net/"}}},
		Entry{ID: "git.url-redirect", Risk: 2, Category: "git", Reason: "git url.<base>.insteadOf sends one host's clones and pushes to another host",
			Examples: []Example{{Command: "git config --global url.https://mirror.example.net/.insteadOf https://github.com/"}}},
	}
})

var _ = declare("app/judge/rules/packs/everyday/archivedest.go", func() []Entry {
	return []Entry{
		Entry{ID: "fs.extract-over-home", Risk: 2, Category: "files", Reason: "unpacks an archive over the home folder itself: whatever it carries replaces .bashrc, .ssh, .gitconfig...",
			Examples: []Example{{Command: "unzip -o dotfiles.zip -d /home"}}},
		Entry{ID: "fs.copy-over-home", Risk: 2, Category: "files", Reason: "copies a folder's content over the home folder itself: whatever it holds replaces .bashrc, .ssh, .gitconfig...",
			Examples: []Example{{Command: "cp -r ./dotfiles/. /root/"}}},
	}
})

var _ = declare("pathshadow.go", func() []Entry {
	return []Entry{
		Entry{ID: "path.shadow-program", Risk: 2, Category: "files", Reason: "writes a program named like git, sudo or python into a folder on the user's PATH: it would run instead of the real one",
			Examples: []Example{{Command: "cp ./wrapper ~/.local/bin/git"}}},
	}
})

var _ = declare("app/judge/rules/packs/git/gitaddsecret.go", func() []Entry {
	return []Entry{
		Entry{ID: "git.add-secret", Risk: 2, Category: "git", Reason: "git add of a secret file (.env, a private key, credentials.json): committed, it stays in the history; pushed, it is published",
			Examples: []Example{{Command: "git add -f .env"}}},
	}
})

var _ = declare("unknownelevated.go", func() []Entry {
	return []Entry{
		Entry{ID: "shell.unknown-elevated", Risk: 2, Category: "shell", Reason: "a program the rules do not know, run as root (sudo, doas, su...): it can change anything on the machine",
			Examples: []Example{{Command: "sudo frobnicate --all"}}},
		Entry{ID: "disk.unknown-device", Risk: 2, Category: "disks and machine state", Reason: "a program the rules do not know, handed a disk device: it may change or destroy its file system",
			Examples: []Example{{Command: "e2fsck -fy /dev/sda1"}}},
	}
})

var _ = declare("quarantine.go", func() []Entry {
	return []Entry{
		Entry{ID: "sec.quarantine-off", Risk: 2, Category: "system", Reason: "removes the OS's downloaded-file mark (com.apple.quarantine, Zone.Identifier): the program then runs without Gatekeeper's or SmartScreen's check",
			Examples: []Example{{Command: "xattr -dr com.apple.quarantine /Applications/Tool.app"}}},
	}
})

var _ = declare("permsecret.go", func() []Entry {
	return []Entry{
		Entry{ID: "fs.perms-secret-readable", Risk: 2, Category: "credentials", Reason: "a mode that lets other users read a private key or credentials file (chmod 644 ~/.ssh/id_rsa, icacls key /grant Everyone:R)",
			Examples: []Example{{Command: "chmod 644 ~/.ssh/id_rsa"}}},
	}
})
