package audit

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/agent-guard/agent-guard/app/internal/filelock"
)

// Writer appends entries to the audit log. Each entry is one JSON line
// written with a single write(2) on a file opened O_APPEND, under an
// advisory lock (flock / LockFileEx) except on Linux's local filesystems,
// where the kernel already keeps each such write whole (lock_linux.go), so
// the tray, the hook's fallback and any other process appending at the
// same time never interleave lines.
// Safe for concurrent use.
type Writer struct {
	path string

	mu sync.Mutex
	f  *os.File    // opened lazily on first Append
	fi os.FileInfo // f's identity, for spotting a deleted or rotated log
	// watch, once set, reports a change of the path (see ensureOpen).
	watch    *pathWatch
	statOnly bool // no watch could be set on this file
	lock     bool // appends to f take the advisory lock (lock_linux.go)
}

// Open returns a writer for the JSONL log at path. Nothing is created until
// the first Append, so a dry run (agent-guard check) leaves no trace; use
// Writable to test the location up front.
func Open(path string) (*Writer, error) {
	if path == "" {
		return nil, errors.New("audit: no audit log path given")
	}
	return &Writer{path: path}, nil
}

// Path is the log file this writer appends to.
func (w *Writer) Path() string { return w.path }

// Writable creates the log's folder and file if needed and reports whether
// an entry could be appended there (for doctor), without writing one.
func Writable(path string) error {
	f, err := openLog(path)
	if err != nil {
		return err
	}
	return f.Close()
}

func openLog(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("audit: cannot create the folder of the audit log %s: %w; make it writable or set AGENT_GUARD_HOME", path, err)
	}
	f, err := openAppend(path)
	if err != nil {
		return nil, fmt.Errorf("audit: cannot open the audit log %s for appending: %w; make it writable or set AGENT_GUARD_HOME", path, err)
	}
	return f, nil
}

// Append writes one entry as one whole line. The input digest and the
// reason are redacted again here, so a caller that forgot cannot leak a
// secret into the log.
func (w *Writer) Append(e Entry) error {
	line, err := encode(e)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.ensureOpen(); err != nil {
		return err
	}
	if !w.lock {
		if _, err := w.f.Write(line); err != nil {
			return fmt.Errorf("audit: cannot append to %s: %w", w.path, err)
		}
		return nil
	}
	if err := filelock.Lock(w.f); err != nil {
		return fmt.Errorf("audit: cannot lock %s: %w", w.path, err)
	}
	_, werr := w.f.Write(line)
	uerr := filelock.Unlock(w.f)
	if werr != nil {
		return fmt.Errorf("audit: cannot append to %s: %w", w.path, werr)
	}
	if uerr != nil {
		return fmt.Errorf("audit: cannot unlock %s: %w", w.path, uerr)
	}
	return nil
}

// ensureOpen opens the file on first use, and again when someone deleted
// or rotated it meanwhile (otherwise we would write to an unlinked inode).
// The open file's identity is read once (it never changes). The first
// line after an open needs no check; the second stats the path and, on
// Linux, starts a watch on it (watch_linux.go), which from then on costs
// one read(2) per line instead of the stat. A one-shot writer (the hook's
// fallback: one line) so never pays for a watch.
func (w *Writer) ensureOpen() error {
	if w.f != nil {
		if w.watch != nil {
			if !w.watch.changed() {
				return nil
			}
		} else if onDisk, err := os.Stat(w.path); err == nil && w.fi != nil && os.SameFile(w.fi, onDisk) && !deletePending(w.f) {
			if !w.statOnly {
				w.watch = watchPath(w.path, w.fi)
				w.statOnly = w.watch == nil // no watch here: stat per line
			}
			return nil
		}
		w.closeFile()
	}
	f, err := openLog(w.path)
	if err != nil {
		return err
	}
	w.f = f
	w.fi, _ = f.Stat() // nil on error: the next append reopens
	w.lock = needsLock(f)
	return nil
}

// closeFile closes the file and its watch.
func (w *Writer) closeFile() error {
	if w.watch != nil {
		w.watch.close()
	}
	err := w.f.Close()
	w.f, w.fi, w.watch, w.statOnly = nil, nil, nil, false
	return err
}

// Close releases the file. Append after Close reopens it.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	return w.closeFile()
}

// encode renders e as one newline-terminated JSON line. Non-finite numbers
// (which JSON cannot carry) become 0 rather than losing the whole line.
func encode(e Entry) ([]byte, error) {
	e.Input = Digest(e.Input)
	e.Reason = Redact(e.Reason)
	e.Session = Redact(e.Session)
	e.Risk, e.Violation = finite(e.Risk), finite(e.Violation)
	e.DurationMS, e.WaitMS = finite(e.DurationMS), finite(e.WaitMS)
	if len(e.RiskProbs) > 0 {
		probs := make([]float64, len(e.RiskProbs))
		for i, p := range e.RiskProbs {
			probs[i] = finite(p)
		}
		e.RiskProbs = probs
	}
	if y := e.TS.Year(); y < 0 || y > 9999 { // as encoding/json's time.Time
		return nil, fmt.Errorf("audit: cannot encode entry: timestamp year %d outside [0,9999]", y)
	}
	b := make([]byte, 0, 320+len(e.Input)+len(e.Reason)+len(e.Cwd)+len(e.Session)+len(e.Answer))
	return append(appendEntry(b, &e), '\n'), nil
}

func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}
