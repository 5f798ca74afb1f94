// Package sharedfile reads and replaces files that several agent-guard
// processes use at once (config.json, accepted.json, the judgment cache).
//
// On Unix a reader and a rename over the file never get in each other's
// way. Windows refuses a rename over a file that another process holds
// open without FILE_SHARE_DELETE (Go's os.Open leaves that flag out), or
// that is being replaced right now, with "Access is denied" or a sharing
// violation; and an open fails while a rename onto the file is under way.
// So readers here open with FILE_SHARE_DELETE, and both sides retry a
// refusal for a bounded time, which also outlasts a short foreign hold
// (an antivirus scan, a backup tool).
package sharedfile

import (
	"io"
	"os"
	"time"
)

// Retry windows: a replace may wait for a reader to finish; a read only
// for a rename under way.
const (
	ReplaceRetryFor = 2 * time.Second
	OpenRetryFor    = 500 * time.Millisecond
	maxPause        = 50 * time.Millisecond
)

// Retry runs op until it succeeds, fails for another reason than a
// refusal Windows gives for a file in use, or within is over.
func Retry(op func() error, within time.Duration) error {
	deadline := time.Now().Add(within)
	pause := time.Millisecond
	for {
		err := op()
		if err == nil || !Refused(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(pause)
		pause = min(2*pause, maxPause)
	}
}

// Replace renames tmp over path, retrying while Windows refuses it.
func Replace(tmp, path string) error {
	return Retry(func() error { return os.Rename(tmp, path) }, ReplaceRetryFor)
}

// Open opens path for reading so that a rename over it can go ahead
// meanwhile, retrying briefly while one is under way.
func Open(path string) (*os.File, error) {
	var f *os.File
	err := Retry(func() (err error) {
		f, err = openShared(path)
		return err
	}, OpenRetryFor)
	return f, err
}

// ReadFile is os.ReadFile through Open.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
