package rules

// Catalog: shell and code. Generated once from the corpora and then kept by hand;
// see catalog.go for what an entry promises.

import "strings"

var _ = declare("app/judge/rules/bash.go", func() []Entry {
	return []Entry{
		Entry{ID: "shell.builtin", Risk: 0, Category: "shell and code", Reason: "env runs nothing by itself",
			Examples: []Example{{Command: "env | grep NODE"}}},
		Entry{ID: "shell.empty", Risk: 0, Category: "shell and code", Reason: "runs no command",
			Examples: []Example{{Command: "$PSVersionTable"}}},
		Entry{ID: "shell.function", Risk: 0, Category: "shell and code", Reason: "calls a function defined in the same command",
			Examples: []Example{{Command: "f(){ x=1; }; f"}}},
		Entry{ID: "shell.read", Risk: 0, Category: "shell and code", Reason: "set only reads or prints",
			Examples: []Example{{Command: "set -e"}}},
		Entry{ID: "shell.root-shell", Risk: 2, Category: "shell and code", Reason: "sudo opens a root shell",
			Examples: []Example{{Command: "sudo -i"}}},
		Entry{ID: "shell.too-deep", Risk: 3, RedLine: true, Category: "shell and code", Reason: "the command nests brackets, substitutions or quotes more than 200 deep; no real command does, so it is refused unread: an agent sending such a line is probing the guard; blocked",
			Examples: []Example{{Command: "echo \"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$(\"$("}}},
		Entry{ID: "shell.too-long", Risk: 3, RedLine: true, Category: "shell and code", Reason: "the command is longer than 256 KB or holds more than 2000 commands: its tail was not read, and no one can review it in a dialog; blocked",
			Examples: []Example{{Command: "true" + strings.Repeat("; true", 2000) + "; pkill agent-guard"}}},
		Entry{ID: "shell.unknown", Risk: 1, Category: "shell and code", Reason: "yes is a program the local rules do not know",
			Examples: []Example{{Command: "yes"}}},
	}
})

var _ = declare("app/judge/rules/packs/codeopts/codeopts.go", func() []Entry {
	return []Entry{
		Entry{ID: "code.env-library", Risk: 2, Category: "shell and code", Reason: "LD_PRELOAD=./evil.so makes programs load or run code from ./evil.so",
			Examples: []Example{{Command: "LD_PRELOAD=./evil.so ls"}}},
		Entry{ID: "code.env-preload", Risk: 2, Category: "shell and code", Reason: "<k>=<v> loads extra code into every run",
			Examples: []Example{{Command: "NODE_OPTIONS='--require ./hook.js' node app.js"}}},
		Entry{ID: "code.env-source", Risk: 2, Category: "shell and code", Reason: "BASH_ENV or ENV names a file the shell runs first; its content is not shown",
			Examples: []Example{{Command: "BASH_ENV=./x.sh bash build.sh"}}},
	}
})

var _ = declare("app/judge/rules/packs/creds/creds.go", func() []Entry {
	return []Entry{
		Entry{ID: "shell.history", Risk: 1, Category: "shell and code", Reason: "lists the shell's history (empty in the agent's non-interactive shell)",
			Examples: []Example{{Command: "history"}}},
		Entry{ID: "shell.history-edit", Risk: 2, Category: "shell and code", Reason: "clears or rewrites the shell history (covers tracks)",
			Examples: []Example{{Command: "history -c"}}},
	}
})

var _ = declare("app/judge/rules/dynamic.go", func() []Entry {
	return []Entry{
		Entry{ID: "dyn.command-name", Risk: 2, Category: "shell and code", Reason: "the program to run is only known at run time (${__dyn}); it cannot be checked",
			Examples: []Example{{Command: "eval \"$x\""}}},
		Entry{ID: "dyn.fork-bomb", Risk: 3, RedLine: true, Category: "shell and code", Reason: "a fork bomb or endless spawn loop: it exhausts the machine's processes until it has to be rebooted",
			Examples: []Example{{Command: "%0|%0"}}},
		Entry{ID: "dyn.hidden-code", Risk: 2, Category: "shell and code", Reason: "iex runs code that cannot be read before it runs (downloaded, decoded or from a variable)",
			Examples: []Example{{Command: "iex"}}},
		Entry{ID: "dyn.decoded-script", Risk: 2, Category: "shell and code", Reason: "sh runs a script the line decoded from an encoding (base64, hex...): encoded to hide it from review",
			Examples: []Example{{Command: "base64 -d <<< ZWNobyBoaQ== > x.sh; sh x.sh"}}},
		Entry{ID: "dyn.obfuscated-name", Risk: 2, Category: "shell and code", Reason: "the program name rm is spelled to hide it (quotes, escapes or substitutions inside the name)",
			Examples: []Example{{Command: "r\\m -rf dist"}}},
		Entry{ID: "shell.interactive", Risk: 0, Category: "shell and code", Reason: "bash without code",
			Examples: []Example{{Command: "env -i bash"}}},
		Entry{ID: "shell.nested", Risk: 0, Category: "shell and code", Reason: "eval runs code that is judged command by command",
			Examples: []Example{{Command: "eval"}}},
		Entry{ID: "shell.parse-error", Risk: 2, Category: "shell and code", Reason: "the command cannot be fully read (cannot parse the command: `foo(` must be followed by `)`); what cannot be read cannot be judged",
			Examples: []Example{{Command: "ls ("}}},
		Entry{ID: "shell.script", Risk: 1, Category: "shell and code", Reason: "sh runs a script file that is not shown here",
			Examples: []Example{{Command: "sh ./configure"}}},
		Entry{ID: "shell.source", Risk: 1, Category: "shell and code", Reason: ". runs a script file in this shell",
			Examples: []Example{{Command: ". ~/.bashrc"}}},
		Entry{ID: "shell.switch-user", Risk: 2, Category: "shell and code", Reason: "su opens a shell as another user",
			Examples: []Example{{Command: "sudo su -"}}},
	}
})

var _ = declare("app/judge/rules/packs/everyday/everyday.go", func() []Entry {
	return []Entry{
		Entry{ID: "interp.script", Risk: 1, Category: "shell and code", Reason: "runs a script file of the project (contents not shown)",
			Examples: []Example{{Command: "node --require \"$X\" a.js"}}},
	}
})

var _ = declare("app/judge/rules/packs/codeopts/codeopts.go", func() []Entry {
	return []Entry{
		Entry{ID: "code.option-dynamic", Risk: 2, Category: "shell and code", Reason: "<what> runs a program only known at run time",
			Examples: []Example{{Command: "git -c core.sshCommand=\"$X\" fetch"}}},
		Entry{ID: "code.option-program", Risk: 2, Category: "shell and code", Reason: "<what> runs <w>, a program whose content is not shown",
			Examples: []Example{{Command: "GIT_SSH=./x git push"}}},
	}
})

var _ = declare("app/judge/rules/helpforms.go", func() []Entry {
	return []Entry{
		Entry{ID: "opts.help", Risk: 0, Category: "shell and code", Reason: "rm with a help or version option prints it and changes nothing",
			Examples: []Example{{Command: "rm --help"}}},
	}
})

var _ = declare("app/judge/rules/packs/interp/interp.go", func() []Entry {
	return []Entry{
		Entry{ID: "interp.applescript-delete", Risk: 3, Category: "shell and code", Reason: "AppleScript tells Finder to delete files, empty the Trash or erase a disk",
			Examples: []Example{{Command: "osascript -e 'tell application \"Finder\" to delete every item of home'"}, {Command: "osascript -e 'tell application \"Finder\" to empty trash'"}}},
		Entry{ID: "interp.applescript-ui", Risk: 2, Category: "shell and code", Reason: "AppleScript drives other apps or types keystrokes",
			Examples: []Example{{Command: "osascript -e keystroke"}}},
		Entry{ID: "interp.deno", Risk: 0, Category: "shell and code", Reason: "deno without code",
			Examples: []Example{{Command: "deno"}}},
		Entry{ID: "interp.dynamic", Risk: 2, Category: "shell and code", Reason: "runs PowerShell code only known at run time",
			Examples: []Example{{Command: "python3 -c \"$CODE\""}}},
		Entry{ID: "interp.node-version", Risk: 0, Category: "shell and code", Reason: "prints version or help",
			Examples: []Example{{Command: "node -v"}}},
		Entry{ID: "interp.perl-version", Risk: 0, Category: "shell and code", Reason: "prints the version",
			Examples: []Example{{Command: "perl -v"}}},
		Entry{ID: "interp.php-info", Risk: 0, Category: "shell and code", Reason: "prints PHP information",
			Examples: []Example{{Command: "php -v"}}},
		Entry{ID: "interp.python", Risk: 0, Category: "shell and code", Reason: "python -m without a module",
			Examples: []Example{{Command: "python -m"}}},
		Entry{ID: "interp.python-module", Risk: 1, Category: "shell and code", Reason: "runs the Python module <mod>",
			Examples: []Example{{Command: "python -m cProfile -o out.prof main.py"}}},
		Entry{ID: "interp.repl", Risk: 0, Category: "shell and code", Reason: "<lang> without code: version, help or an interactive session",
			Examples: []Example{{Command: "node --test"}}},
		Entry{ID: "interp.ruby-version", Risk: 0, Category: "shell and code", Reason: "prints the version",
			Examples: []Example{{Command: "ruby -v"}}},
		Entry{ID: "interp.script-dynamic", Risk: 1, Category: "shell and code", Reason: "runs a <lang> script whose name is only known at run time",
			Examples: []Example{{Command: "python3 $SCRIPT"}}},
		Entry{ID: "interp.version", Risk: 0, Category: "shell and code", Reason: "prints the version",
			Examples: []Example{{Command: "osascript --version"}}},
	}
})

var _ = declare("app/judge/rules/packs/interp/interp_code.go", func() []Entry {
	return []Entry{
		Entry{ID: "interp.code", Risk: 0, Category: "shell and code", Reason: "the <lang> code computes and prints; no deletion, process, network or secret access seen",
			Examples: []Example{{Command: "ruby -we 'puts 1'"}}},
		Entry{ID: "interp.delete", Risk: 2, Category: "shell and code", Reason: "the <lang> code deletes files (<del>)",
			Examples: []Example{{Command: "perl -e 'unlink glob \"*.log\"'"}}},
		Entry{ID: "interp.delete-root", Risk: 3, Category: "shell and code", Reason: "interpreter code deletes files under the home or root folder",
			Examples: []Example{{Command: "perl -e 'use File::Path; rmtree(\"/\" . \"\")'"}}},
		Entry{ID: "interp.kill", Risk: 2, Category: "shell and code", Reason: "the <lang> code kills processes",
			Examples: []Example{{Command: "python3 -c \"import os; os.kill(1, 9)\""}}},
		Entry{ID: "interp.network", Risk: 2, Category: "shell and code", Reason: "the <lang> code uses the network (<net>)",
			Examples: []Example{{Command: "php -r 'echo file_get_contents(\"http://example.com\");'"}}},
		Entry{ID: "interp.spawn", Risk: 2, Category: "shell and code", Reason: "the <lang> code runs other programs or dynamic code (<spawn>)",
			Examples: []Example{{Command: "awk 'BEGIN { system(\"ls\") }'"}}},
	}
})

var _ = declare("app/judge/rules/packs/interp/interp_options.go", func() []Entry {
	return []Entry{
		Entry{ID: "opt.hidden-command", Risk: 2, Category: "shell and code", Reason: "runs a command from an option whose value is only known at run time",
			Examples: []Example{{Command: `tar --to-command="$CMD" -xf a.tar`}, {Command: `rsync --rsync-path="$P" a host:b`}}},
		Entry{ID: "shell.unknown-destroyer", Risk: 2, Category: "shell and code", Reason: "frobnicate is a program the rules do not know, and it is asked to purge ~",
			Examples: []Example{{Command: "frobnicate --purge ~"}}},
	}
})

var _ = declare("app/judge/rules/packutil.go", func() []Entry {
	return []Entry{
		Entry{ID: "dyn.subcommand", Risk: 2, Category: "shell and code", Reason: "<name> runs an action only known at run time",
			Examples: []Example{{Command: "npm $CMD"}}},
	}
})

var _ = declare("app/judge/rules/globname.go", func() []Entry {
	return []Entry{
		Entry{ID: "dyn.glob-name", Risk: 2, Category: "shell and code", Reason: "the program name r? is a pattern the shell expands to whatever file matches; the program is not written out (as a route, dyn.glob-name/fs.rm-home, the program it matches decided)",
			Examples: []Example{{Command: "/bin/r? -rf ~"}, {Command: "/usr/bin/[r]m -rf /home/dev"}, {Command: "/bin/ca? README.md"}}},
	}
})
