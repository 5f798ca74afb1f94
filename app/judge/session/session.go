// Package session remembers, per agent session, what the agent wrote or
// edited (path and content hash) and the names it defined (aliases,
// functions, copies or links of binaries), so a later call that runs
// such a file or name is judged by its content or target, and files the
// agent created count as its own scratch, not the user's data.
//
// One JSON file per session in a folder beside the judgment cache, so
// the tray's server and the hook's in-process fallback share it; writes
// are read-merge-write under a file lock and atomic. Bounded per session
// and in sessions kept; a session unused for the TTL is dropped.
package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agent-guard/agent-guard/app/internal/filelock"
)

// Bounds per session and on disk.
const (
	MaxFiles    = 2000
	MaxNames    = 500
	MaxSessions = 200
	DirName     = "sessions"
)

// File is one file the agent wrote or edited.
type File struct {
	Hash    string    `json:"hash,omitempty"` // sha256 of the content written; "" when not known (Edit, shell)
	Created bool      `json:"created"`        // the file did not exist before the agent wrote it
	At      time.Time `json:"at"`
}

// Name is one name the agent defined.
type Name struct {
	Code    string    `json:"code,omitempty"`    // alias value or the line defining a function
	Program string    `json:"program,omitempty"` // the program a copied/linked binary is
	At      time.Time `json:"at"`
}

// Record is what one call adds.
type Record struct {
	Files map[string]File
	Names map[string]Name
}

// Empty reports whether r adds nothing.
func (r Record) Empty() bool { return len(r.Files) == 0 && len(r.Names) == 0 }

type data struct {
	ID      string          `json:"id"`
	Updated time.Time       `json:"updated"`
	Files   map[string]File `json:"files"`
	Names   map[string]Name `json:"names"`
}

// Store is the session memory in dir. Safe for concurrent use.
type Store struct {
	dir string
	ttl time.Duration
	mu  sync.Mutex
	// loaded sessions, reread when their file changed on disk
	mem map[string]*loaded
	now func() time.Time
}

type loaded struct {
	d     *data
	mtime time.Time
	size  int64
}

// Open returns the store in dir (created on first write); ttl <= 0 means 60 minutes.
func Open(dir string, ttl time.Duration) *Store {
	if ttl <= 0 {
		ttl = 60 * time.Minute
	}
	return &Store{dir: dir, ttl: ttl, mem: map[string]*loaded{}, now: time.Now}
}

func (s *Store) path(id string) string {
	h := sha256.Sum256([]byte(id))
	return filepath.Join(s.dir, hex.EncodeToString(h[:12])+".json")
}

// load returns the session's data (nil when none or expired).
func (s *Store) load(id string) *data {
	p := s.path(id)
	st, err := os.Stat(p)
	if err != nil {
		delete(s.mem, id)
		return nil
	}
	if l := s.mem[id]; l != nil && l.mtime.Equal(st.ModTime()) && l.size == st.Size() {
		return s.live(l.d)
	}
	b, err := os.ReadFile(p)
	if err != nil || len(b) > 16<<20 {
		return nil
	}
	var d data
	if json.Unmarshal(b, &d) != nil || d.ID != id {
		return nil // corrupt or a hash collision: start afresh
	}
	if len(s.mem) > MaxSessions {
		s.mem = map[string]*loaded{}
	}
	s.mem[id] = &loaded{d: &d, mtime: st.ModTime(), size: st.Size()}
	return s.live(&d)
}

func (s *Store) live(d *data) *data {
	if s.now().Sub(d.Updated) > s.ttl {
		return nil
	}
	return d
}

// View is a snapshot of one session for one judgment.
type View struct {
	d *data
}

// View returns what session id remembers (an empty view for "" or none).
func (s *Store) View(id string) *View {
	if s == nil || id == "" {
		return &View{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return &View{d: s.load(id)}
}

// Defined implements rules.Memory.
func (v *View) Defined(name string) (code, program string, ok bool) {
	if v == nil || v.d == nil {
		return "", "", false
	}
	n, ok := v.d.Names[name]
	return n.Code, n.Program, ok
}

// Scratch reports whether the file at abs is one the agent created in
// this session and still holds what it wrote (when the hash is known).
func (v *View) Scratch(abs string) bool {
	if v == nil || v.d == nil {
		return false
	}
	f, ok := v.d.Files[abs]
	if !ok || !f.Created {
		return false
	}
	if f.Hash == "" {
		return true
	}
	b, err := os.ReadFile(abs)
	if err != nil || len(b) > 64<<20 {
		return false
	}
	return HashBytes(b) == f.Hash
}

// Wrote reports whether the agent wrote or edited abs in this session.
func (v *View) Wrote(abs string) bool {
	if v == nil || v.d == nil {
		return false
	}
	_, ok := v.d.Files[abs]
	return ok
}

// HashBytes is the content hash the store keeps.
func HashBytes(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// HashString is HashBytes of a string.
func HashString(s string) string { return HashBytes([]byte(s)) }

// Add merges r into session id and writes it (locked, atomic).
func (s *Store) Add(id string, r Record) error {
	if s == nil || id == "" || r.Empty() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	lk, err := os.OpenFile(filepath.Join(s.dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lk.Close()
	if err := filelock.Lock(lk); err != nil {
		return err
	}
	defer filelock.Unlock(lk)
	d := s.load(id)
	if d == nil {
		d = &data{ID: id, Files: map[string]File{}, Names: map[string]Name{}}
		s.prune()
	}
	if d.Files == nil {
		d.Files = map[string]File{}
	}
	if d.Names == nil {
		d.Names = map[string]Name{}
	}
	now := s.now()
	for p, f := range r.Files {
		if old, ok := d.Files[p]; ok && old.Created {
			f.Created = true // rewriting its own file keeps it the agent's
		}
		f.At = now
		d.Files[p] = f
	}
	for n, v := range r.Names {
		v.At = now
		d.Names[n] = v
	}
	d.Updated = now
	trim(d.Files, MaxFiles, func(f File) time.Time { return f.At })
	trim(d.Names, MaxNames, func(n Name) time.Time { return n.At })
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	p := s.path(id)
	tmp, err := os.CreateTemp(s.dir, ".session-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if st, err := os.Stat(p); err == nil {
		s.mem[id] = &loaded{d: d, mtime: st.ModTime(), size: st.Size()}
	}
	return nil
}

// trim drops the oldest entries above max.
func trim[V any](m map[string]V, max int, at func(V) time.Time) {
	if len(m) <= max {
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return at(m[keys[i]]).Before(at(m[keys[j]])) })
	for _, k := range keys[:len(m)-max] {
		delete(m, k)
	}
}

// prune removes session files unused for the TTL, and the oldest when
// more than MaxSessions remain.
func (s *Store) prune() {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	type f struct {
		p  string
		at time.Time
	}
	var fs []f
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		p := filepath.Join(s.dir, e.Name())
		if s.now().Sub(info.ModTime()) > s.ttl {
			os.Remove(p)
			continue
		}
		fs = append(fs, f{p, info.ModTime()})
	}
	if len(fs) >= MaxSessions {
		sort.Slice(fs, func(i, j int) bool { return fs[i].at.Before(fs[j].at) })
		for _, x := range fs[:len(fs)-MaxSessions+1] {
			os.Remove(x.p)
		}
	}
}
