package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/agent-guard/agent-guard/app/internal/sharedfile"
)

// A weakening of config.json waits for a person. The guard keeps the
// config in force in accepted.json beside config.json (in the config
// folder the judge's self-protection covers): the last config whose
// every weakening a person accepted, plus every strengthening made since.
// At each read, config.json is compared with it setting by setting
// (Merge): what strengthens applies at once and is recorded, what weakens
// is held until Accept (the tray's window or `agent-guard config accept`
// in the user's terminal) or dropped by Reject.
//
// Without a record (first run, or the record was lost) the baseline is
// the embedded default: a first install has nothing to accept, and a
// config.json that weakens the defaults, written before the guard ever
// ran or after the record was deleted, still waits.

// AcceptedFile is the record's file name, beside config.json.
const AcceptedFile = "accepted.json"

// AcceptedPath is the record of the config at configPath.
func AcceptedPath(configPath string) string {
	return filepath.Join(filepath.Dir(configPath), AcceptedFile)
}

// Who recorded a config in force.
const (
	ByFirstRun    = "first run (the defaults)"
	ByStrengthen  = "strengthening applied at once"
	ByTray        = "you, in agent-guard's tray"
	ByTerminal    = "you, with 'agent-guard config accept'"
	ByRestoredRec = "the record, rewritten from the config in force"
)

type record struct {
	By     string          `json:"by"`
	At     time.Time       `json:"at"`
	Config json.RawMessage `json:"config"`
}

// State is what the guard should do with the config file now.
type State struct {
	InForce *Config  // the config to judge with
	Held    []Change // weakenings in config.json waiting for a person; nil when none
	// DiskSum is the SHA-256 of config.json as read; Accept takes it so a
	// person accepts exactly the file they reviewed.
	DiskSum string
	// By and At tell who recorded the config in force, and when.
	By string
	At time.Time
	// Note says why the baseline is not a record ("" when it is).
	Note string
}

// Pending reports whether a weakening waits.
func (s State) Pending() bool { return len(s.Held) > 0 }

func sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// readRecord returns the recorded config; nil with a note when there is
// none or it cannot be used.
func readRecord(path string) (*Config, record, string) {
	data, err := sharedfile.ReadFile(AcceptedPath(path))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, record{}, "no record of an accepted config yet: config.json is compared with the defaults"
	}
	if err != nil {
		return nil, record{}, fmt.Sprintf("the record %s cannot be read (%v): config.json is compared with the defaults", AcceptedPath(path), err)
	}
	var r record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, record{}, fmt.Sprintf("the record %s is damaged: config.json is compared with the defaults", AcceptedPath(path))
	}
	c, err := Parse(r.Config)
	if err != nil {
		return nil, record{}, fmt.Sprintf("the record %s holds no valid config (%v): config.json is compared with the defaults", AcceptedPath(path), err)
	}
	return c, r, ""
}

func writeRecord(path string, c *Config, by string) error {
	cfg, err := json.Marshal(c)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(record{By: by, At: time.Now().UTC(), Config: cfg}, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(AcceptedPath(path), append(data, '\n'))
}

// Resolve reads config.json and the record and says what is in force and
// what waits. It writes only what keeps the two in step: the record when
// a strengthening applied (or on first run), config.json from the record
// (or the default) when config.json is missing. A config.json that does
// not parse is an error, as in Load: the caller keeps its last good one.
func Resolve(path string) (State, error) {
	st, dirty, err := resolve(path)
	if err != nil || !dirty {
		return st, err
	}
	// Something to write: redo it under the lock, so two guards (tray,
	// hooks) never interleave their writes with an accept or an edit.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return st, fmt.Errorf("config: cannot create %s (%v); check that its folder is writable", path, err)
	}
	unlock, err := lockPath(path + ".lock")
	if err != nil {
		return st, nil // judge with what we computed; the next read records it
	}
	defer unlock()
	return resolveAndRecord(path)
}

// resolveAndRecord is Resolve with the lock held.
func resolveAndRecord(path string) (State, error) {
	st, dirty, err := resolve(path)
	if err != nil || !dirty {
		return st, err
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		data, err := st.InForce.Marshal()
		if st.Note != "" {
			data = DefaultJSON() // first run: the embedded default as it is written, comments of layout included
		}
		if err == nil {
			err = WriteFileAtomic(path, data)
		}
		if err != nil {
			return st, fmt.Errorf("config: cannot create %s (%v); check that its folder is writable", path, err)
		}
		if data, err := sharedfile.ReadFile(path); err == nil {
			st.DiskSum = sum(data)
		}
	}
	by := ByStrengthen
	if st.Note != "" {
		by = ByFirstRun
	}
	if err := writeRecord(path, st.InForce, by); err == nil {
		st.By, st.At, st.Note = by, time.Now().UTC(), ""
	}
	return st, nil
}

// Peek is Resolve without writing anything (doctor, show-pending): a
// missing config.json is the config in force as it would be created.
func Peek(path string) (State, error) {
	st, _, err := resolve(path)
	return st, err
}

// resolve computes the state; dirty says the files need writing.
func resolve(path string) (State, bool, error) {
	base, rec, note := readRecord(path)
	st := State{By: rec.By, At: rec.At, Note: note}
	if base == nil {
		base = Default()
	}
	data, err := sharedfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		st.InForce = base
		return st, true, nil
	}
	if err != nil {
		return st, false, fmt.Errorf("config: cannot read %s: %v", path, err)
	}
	disk, err := Parse(data)
	if err != nil {
		return st, false, fmt.Errorf("%s: %w", path, err)
	}
	st.DiskSum = sum(data)
	if Same(base, disk) {
		// The usual case: the file says what was accepted. Merge would find
		// no change to hold and return a copy of disk (the hook's fallback
		// resolves the config at every call, so this path is kept short).
		st.InForce = disk
		return st, note != "", nil
	}
	st.InForce, st.Held = Merge(base, disk)
	return st, note != "" || !Same(st.InForce, base), nil
}

// Accept records config.json as accepted by a person (by says who) and
// returns it. wantSum, when not empty, is the DiskSum of the state the
// person reviewed: if the file changed since, nothing is accepted.
func Accept(path, wantSum, by string) (*Config, error) {
	unlock, err := lockPath(path + ".lock")
	if err != nil {
		return nil, fmt.Errorf("config: cannot lock %s: %w", path, err)
	}
	defer unlock()
	data, err := sharedfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: cannot read %s: %w", path, err)
	}
	if wantSum != "" && sum(data) != wantSum {
		return nil, fmt.Errorf("config: %s changed after you reviewed it; nothing was accepted: review the new change", path)
	}
	c, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; nothing was accepted", path, err)
	}
	if err := writeRecord(path, c, by); err != nil {
		return nil, fmt.Errorf("config: cannot record the accepted config in %s: %w", AcceptedPath(path), err)
	}
	return c, nil
}

// Reject drops the waiting weakenings: config.json is rewritten to the
// config in force. It returns that config.
func Reject(path string) (*Config, error) {
	unlock, err := lockPath(path + ".lock")
	if err != nil {
		return nil, fmt.Errorf("config: cannot lock %s: %w", path, err)
	}
	defer unlock()
	st, err := resolveAndRecord(path)
	if err != nil {
		// A file that does not parse is rejected too: the config in force
		// is the record (or the default).
		base, _, _ := readRecord(path)
		if base == nil {
			base = Default()
		}
		st = State{InForce: base}
	}
	if err := Save(path, st.InForce); err != nil {
		return nil, fmt.Errorf("config: cannot rewrite %s: %w", path, err)
	}
	return st.InForce, nil
}
