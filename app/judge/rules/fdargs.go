package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/facts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// fd's own grammar: fd [OPTIONS] [PATTERN] [PATH...] [-x|-X CMD...].
// Options that take a value (-e tmp, -t f, -E dir) are not the pattern,
// and everything after -x/-X is the command fd runs, not a path: in
// `fd -e tmp -x rm {}` the search root is ".", not "rm".

type fdArgs struct {
	paths    []string // search roots (the PATH operands, --search-path)
	exec     []string // the -x/-X command, without its terminating ";"
	filtered bool     // a pattern, -e or -g narrows what is found
}

var fdValueOpts = pkSet("-e", "--extension", "-t", "--type", "-E", "--exclude", "-d", "--max-depth",
	"--min-depth", "--exact-depth", "-S", "--size", "--changed-within", "--changed-before", "--change-newer-than",
	"--change-older-than", "--newer", "--older", "-o", "--owner", "-j", "--threads", "-c", "--color",
	"--base-directory", "--ignore-file", "--max-results", "--format", "--path-separator", "--batch-size",
	"--max-buffer-time", "--and", "--search-path")

func parseFd(args []string) fdArgs {
	var out fdArgs
	var ops []string
	dashdash := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case dashdash:
			ops = append(ops, a)
		case a == "--":
			dashdash = true
		case a == "-x" || a == "--exec" || a == "-X" || a == "--exec-batch":
			for _, e := range args[i+1:] {
				if e == ";" {
					break
				}
				out.exec = append(out.exec, e)
			}
			// fd allows paths after the command's ";".
			for k := i + 1; k < len(args); k++ {
				if args[k] == ";" {
					i = k
					break
				}
				i = k
			}
		case fdValueOpts.Has(a):
			if i+1 < len(args) {
				switch a {
				case "-e", "--extension", "--and", "-S", "--size", "--changed-within", "--changed-before",
					"--change-newer-than", "--change-older-than", "--newer", "--older":
					out.filtered = true
				case "--search-path":
					out.paths = append(out.paths, args[i+1])
				}
				i++
			}
		case strings.HasPrefix(a, "--search-path="):
			out.paths = append(out.paths, a[len("--search-path="):])
		case strings.HasPrefix(a, "--extension="):
			out.filtered = true
		case len(a) > 1 && a[0] == '-':
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) > 0 {
		if p := ops[0]; p != "." && p != "" && p != "^" && p != ".*" && p != "*" {
			out.filtered = true
		}
		out.paths = append(out.paths, ops[1:]...)
	}
	return out
}

// findDeleters are the programs that, run by find -exec, fd -x or xargs
// on what was found, delete it (trash and trash-put recoverably).
var findDeleters = pkSet("rm", "shred", "unlink", "rmdir", "srm", "wipe", "truncate", "mv",
	"rimraf", "trash", "trash-put", "del", "erase", "rd", "remove-item", "ri")

// findPayloadProg is the program that acts on what find or fd selects:
// the payload's own name, "trash" for gio trash, or for a shell running
// a script (find ~ -exec sh -c 'rm -rf "$1"' _ {} \;) the script's first
// deleting or permission-changing program.
func findPayloadProg(payload []string) string {
	if len(payload) == 0 {
		return ""
	}
	name := shell.NormName(payload[0])
	switch {
	case name == "gio" && len(payload) > 1:
		switch payload[1] {
		case "trash":
			return "trash"
		case "remove":
			return "rm"
		}
	case facts.IsShell(name):
		for i, a := range payload[1:] {
			if a != "-c" || i+2 >= len(payload) {
				continue
			}
			for _, ic := range shell.Analyze(payload[i+2]).Cmds {
				if findDeleters.Has(ic.Name) || ic.Name == "chmod" || ic.Name == "chown" || ic.Name == "chgrp" {
					return ic.Name
				}
			}
		}
	}
	return name
}
