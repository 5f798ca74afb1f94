package judge

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/rules/packs/interp"
	"github.com/agent-guard/agent-guard/app/judge/session"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// machine is the state beyond the text for one call: the disk (with the
// session's own files as scratch) and the session's memory. nil when the
// judge was built without either (text only, nothing paid).
func (j *Judge) machine(s State) *rules.Machine {
	if j.opts.Disk == nil && j.opts.Sessions == nil {
		return nil
	}
	v := &lazyView{store: j.opts.Sessions, id: s.Session}
	m := &rules.Machine{Mem: v}
	if j.opts.Disk != nil {
		m.Disk = j.opts.Disk.WithScratch(v.Scratch)
	}
	return m
}

// lazyView reads the session's memory only when a rule asks, so a call
// that needs none of it pays nothing.
type lazyView struct {
	store *session.Store
	id    string
	v     *session.View
}

func (l *lazyView) get() *session.View {
	if l.v == nil {
		l.v = l.store.View(l.id)
	}
	return l.v
}

func (l *lazyView) Defined(name string) (string, string, bool) { return l.get().Defined(name) }
func (l *lazyView) Scratch(abs string) bool                    { return l.get().Scratch(abs) }

// definesHints are the words without which a Bash line defines nothing
// the session memory keeps (a cheap test before parsing again).
var definesHints = []string{">", "alias", "()", "function ", "cp ", "ln ", "install ", "tee ", "touch ", "mv ", "copy", "new-item"}

// remember adds what an allowed or confirmed call writes or defines to
// its session's memory. A blocked call changes nothing, and a failure
// to remember never changes the verdict.
func (j *Judge) remember(s State, v *Verdict) {
	defer func() { recover() }()
	if j.opts.Sessions == nil || j.opts.DryRun || s.Session == "" || v.Level == Block {
		return
	}
	rec := session.Record{Files: map[string]session.File{}, Names: map[string]session.Name{}}
	abs := func(p string) string {
		if p == "~" || strings.HasPrefix(p, "~/") {
			p = j.opts.Home + p[1:]
		}
		if !filepath.IsAbs(p) && s.Cwd != "" {
			p = filepath.Join(s.Cwd, p)
		}
		return filepath.Clean(p)
	}
	created := func(p string) bool { _, err := os.Lstat(p); return os.IsNotExist(err) }
	switch {
	case s.Tool == "Bash":
		hit := false
		for _, h := range definesHints {
			if strings.Contains(s.Command, h) {
				hit = true
				break
			}
		}
		if !hit {
			return
		}
		a := shell.Analyze(s.Command)
		d := interp.Definitions(&a, s.Command, s.Cwd, j.opts.Home)
		for _, p := range d.Files {
			rec.Files[p] = session.File{Created: created(p)}
		}
		for n, code := range d.Code {
			rec.Names[n] = session.Name{Code: code}
		}
		for n, prog := range d.Programs {
			rec.Names[n] = session.Name{Program: prog}
		}
	case s.FilePath != "":
		p := abs(s.FilePath)
		rec.Files[p] = session.File{Hash: s.ContentHash, Created: created(p)}
	}
	j.opts.Sessions.Add(s.Session, rec)
}
