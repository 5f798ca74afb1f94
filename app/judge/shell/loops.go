package shell

// Loops: literal for-loops are walked once per value (capped); growing
// loops are marked Exhaust.

import (
	"mvdan.cc/sh/v3/syntax"
)

// maxLoopVals: a for loop over at most this many literal words has its
// body judged once per word; longer lists leave the variable unknown.
const maxLoopVals = 8

// maxLoopRuns caps the body walks of all such loops in a line, so nested
// loops (8 x 8 x 8 ...) cannot multiply the work.
const maxLoopRuns = 32

func (w *walker) forEach(name string, vals []string, body []*syntax.Stmt) {
	seen := map[string]bool{}
	for _, v := range vals {
		if seen[v] || w.stop() {
			continue
		}
		seen[v] = true
		w.st.loopRuns++
		if w.vars == nil {
			w.vars = map[string]string{}
		}
		w.vars[name] = v
		w.stmts(body)
	}
	w.vars[name] = Dyn
}

// exhaust marks an endless loop whose body (commands from first on) has
// no pause and keeps creating folders or files: it fills the disk or the
// inode table (while true; do mkdir x; cd x; done).
func (w *walker) exhaust(first int, loop syntax.Node) {
	if w.a.Exhaust != "" || first >= len(w.a.Cmds) {
		return
	}
	grows := false
	for _, c := range w.a.Cmds[first:] {
		switch c.Name {
		case "sleep", "start-sleep", "read", "wait", "timeout", "inotifywait", "select":
			return
		case "mkdir", "md", "new-item", "ni", "touch", "fallocate", "cp", "yes", "dd", "git-init":
			grows = true
		}
		for _, r := range c.Redirs {
			if r.Op == ">>" || r.Op == "&>>" {
				grows = true
			}
		}
	}
	if grows {
		w.a.Exhaust = w.raw(loop)
	}
}
