package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agent-guard/agent-guard/app/judge/rules"
)

func init() {
	register("rules", "list the rule catalog: every rule id the judge can return", runRules)
}

const rulesUsage = `usage: agent-guard rules [--json] [FILTER]

Lists the rule catalog: every rule id the judge can return, with its risk
(0 read-only .. 3 destructive, the most the rule gives), whether it can be
a red line, its category, what it means, and the file that judges it.
FILTER keeps the rules whose id or category contains it (git, self., ...).

A verdict's rule may carry a route ("ssh/fs.rm-root": a command run over
ssh); its entry is the id after the last "/". An id with <name> parts
("aws.<svc>.<op>") stands for the ids built from names in the command.

  --json   print a JSON array of {"id","risk","red_line","category",
           "reason","examples","where"}; each example is a Bash command
           string, a whole hook event object, or, when the rule needs a
           config, files on disk or a fault to decide, an object
           {"command" or "event", "setup"} (see the README's Rules section).

The rules live in app/judge/rules (catalog_*.go declares them).
`

func runRules(env Env) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	if err := fs.Parse(env.Args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(env.Stdout, rulesUsage)
			return 0
		}
		fmt.Fprintf(env.Stderr, "agent-guard rules: %v\n\n%s", err, rulesUsage)
		return 2
	}
	if fs.NArg() > 1 {
		fmt.Fprintf(env.Stderr, "agent-guard rules: give at most one FILTER, got %q\n\n%s", fs.Args(), rulesUsage)
		return 2
	}
	filter := strings.ToLower(fs.Arg(0))
	var es []rules.Entry
	for _, e := range rules.Catalog() {
		if filter == "" || strings.Contains(strings.ToLower(e.ID), filter) || strings.Contains(strings.ToLower(e.Category), filter) {
			if e.Examples == nil {
				e.Examples = []rules.Example{} // [] in JSON, never null
			}
			es = append(es, e)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false) // ids like aws.<svc>.<op> and commands with > stay readable
		if es == nil {
			es = []rules.Entry{}
		}
		if err := enc.Encode(es); err != nil {
			fmt.Fprintf(env.Stderr, "agent-guard rules: %v\n", err)
			return 1
		}
		return 0
	}
	if len(es) == 0 {
		fmt.Fprintf(env.Stderr, "agent-guard rules: no rule id or category contains %q\n", filter)
		return 1
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tRISK\tRED LINE\tCATEGORY\tWHERE\tREASON")
	for _, e := range es {
		red := ""
		if e.RedLine {
			red = "yes"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", e.ID, e.Risk, red, e.Category, e.Where, e.Reason)
	}
	tw.Flush()
	fmt.Fprintf(env.Stdout, "\n%d rules. Examples: agent-guard rules --json; try one: agent-guard check --offline --cmd '...'\n", len(es))
	return 0
}
