package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Aliases defined in the line are expanded where they are used later in
// it: `alias ls='rm -rf'; ls ~` runs `rm -rf ~`. (Bash expands them in
// scripts with expand_aliases, which agent hosts' shell snapshots turn
// on; zsh always does.) A name shadowing a known program is no excuse to
// judge the program: the alias's words are what runs.

// maxAliases bounds the aliases remembered in one line.
const maxAliases = 64

// defineAlias remembers `alias NAME=VALUE` for later commands.
func (w *walker) defineAlias(arg string) {
	name, v, ok := strings.Cut(arg, "=")
	if !ok || name == "" || strings.Contains(arg, Dyn) {
		return
	}
	if w.st.aliases == nil {
		w.st.aliases = map[string]string{}
	}
	if len(w.st.aliases) < maxAliases || w.st.aliases[name] != "" {
		w.st.aliases[name] = v
	}
}

// aliasUse judges a command whose program word is an alias as the words
// the alias stands for followed by its arguments. An alias is not
// expanded inside its own expansion (bash's rule), so `alias ls='ls -F'`
// ends.
func (w *walker) aliasUse(argv []string) {
	if len(argv) == 0 || w.st.aliases == nil {
		return
	}
	name := argv[0]
	v, ok := w.st.aliases[name]
	if !ok || w.st.expanding[name] || strings.TrimSpace(v) == "" {
		return
	}
	var b strings.Builder
	b.WriteString(v)
	for _, a := range argv[1:] {
		b.WriteByte(' ')
		b.WriteString(shQuote(a))
	}
	if w.st.expanding == nil {
		w.st.expanding = map[string]bool{}
	}
	w.st.expanding[name] = true
	w.nested(b.String(), false)
	delete(w.st.expanding, name)
}

// usesPwd: the word reads the current folder ($PWD, ${PWD}, $(pwd)).
func usesPwd(wd *syntax.Word) bool {
	found := false
	syntax.Walk(wd, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			if n.Param != nil && n.Param.Value == "PWD" {
				found = true
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 && n.Args[0].Lit() == "pwd" {
				found = true
			}
		}
		return !found
	})
	return found
}
