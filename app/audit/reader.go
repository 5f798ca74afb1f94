package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// MaxLine is the longest line the readers accept; longer ones are corrupt
// (an entry is a few hundred bytes) and skipped.
const MaxLine = 1 << 20

// Reader iterates over the entries of a JSONL log. A corrupt, partial or
// oversized line is skipped and counted, never fatal.
type Reader struct {
	br      *bufio.Reader
	skipped int
	err     error
}

// NewReader reads entries from r.
func NewReader(r io.Reader) *Reader { return &Reader{br: bufio.NewReaderSize(r, 64<<10)} }

// Next returns the next whole entry; ok is false at the end or on a read
// error (see Err).
func (r *Reader) Next() (e Entry, ok bool) {
	for r.err == nil {
		line, tooLong, err := r.readLine()
		if err != nil && !errors.Is(err, io.EOF) {
			r.err = err
			return Entry{}, false
		}
		eof := err != nil
		if tooLong {
			r.skipped++
		} else if len(bytes.TrimSpace(line)) > 0 {
			if e, ok := ParseLine(line); ok {
				if eof {
					r.err = io.EOF
				}
				return e, true
			}
			r.skipped++
		}
		if eof {
			r.err = io.EOF
		}
	}
	return Entry{}, false
}

// readLine returns one line without its newline, or tooLong when it
// exceeded MaxLine (the rest of it is consumed and dropped).
func (r *Reader) readLine() (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > MaxLine+1 {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == nil && !tooLong {
			buf = buf[:len(buf)-1]
		}
		return buf, tooLong, err
	}
}

// Skipped is how many lines so far were corrupt and skipped.
func (r *Reader) Skipped() int { return r.skipped }

// Err is the read error that stopped Next, if any (not io.EOF).
func (r *Reader) Err() error {
	if errors.Is(r.err, io.EOF) {
		return nil
	}
	return r.err
}

// ParseLine decodes one log line. A line is an entry only if it is a JSON
// object with a timestamp; anything else is corrupt.
func ParseLine(line []byte) (Entry, bool) {
	line = bytes.TrimSpace(line)
	if len(line) < 2 || line[0] != '{' {
		return Entry{}, false
	}
	var e Entry
	if err := json.Unmarshal(line, &e); err != nil || e.TS.IsZero() {
		return Entry{}, false
	}
	return e, true
}

// ScanFile calls fn for each entry of the log at path, in file order, until
// fn returns false. It returns how many lines were skipped as corrupt. A
// missing log is an error wrapping fs.ErrNotExist.
func ScanFile(path string, fn func(Entry) bool) (skipped int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("audit: cannot read the audit log %s: %w", path, err)
	}
	defer f.Close()
	r := NewReader(f)
	for {
		e, ok := r.Next()
		if !ok {
			break
		}
		if !fn(e) {
			break
		}
	}
	if err := r.Err(); err != nil {
		return r.Skipped(), fmt.Errorf("audit: reading %s: %w", path, err)
	}
	return r.Skipped(), nil
}

// ReadSince returns the entries with ts at or after since, in file order.
// A missing log has no entries.
func ReadSince(path string, since time.Time) ([]Entry, error) {
	var out []Entry
	_, err := ScanFile(path, func(e Entry) bool {
		if !e.TS.Before(since) {
			out = append(out, e)
		}
		return true
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return out, err
}

// ReadLast returns up to the last n entries, oldest first, reading the file
// backwards from its end so a long log costs only what is returned. A
// missing log has no entries.
func ReadLast(path string, n int) ([]Entry, error) {
	if n <= 0 {
		return nil, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("audit: cannot read the audit log %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("audit: cannot read the audit log %s: %w", path, err)
	}
	out, err := readLastFrom(f, st.Size(), n)
	if err != nil {
		return nil, fmt.Errorf("audit: reading %s: %w", path, err)
	}
	return out, nil
}

const backChunk = 64 << 10

// readLastFrom walks r backwards from size in chunks, parsing whole lines
// from the last one up, until it holds n entries or reaches the start.
func readLastFrom(r io.ReaderAt, size int64, n int) ([]Entry, error) {
	var rev []Entry // newest first
	var tail []byte // start of the line that continues past the chunk read last
	overlong := false
	pos := size
	for pos > 0 && len(rev) < n {
		step := int64(backChunk)
		if step > pos {
			step = pos
		}
		pos -= step
		chunk := make([]byte, step, int(step)+len(tail))
		if _, err := r.ReadAt(chunk, pos); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		buf := append(chunk, tail...)
		// Every line after the first newline in buf is whole.
		for len(rev) < n {
			i := bytes.LastIndexByte(buf, '\n')
			if i < 0 {
				break
			}
			line := buf[i+1:]
			buf = buf[:i]
			if overlong {
				overlong = false // its start is here; already dropped
				continue
			}
			if e, ok := ParseLine(line); ok {
				rev = append(rev, e)
			}
		}
		tail = buf
		if len(tail) > MaxLine {
			tail, overlong = nil, true
		}
	}
	if len(rev) < n && pos == 0 && !overlong {
		if e, ok := ParseLine(tail); ok {
			rev = append(rev, e)
		}
	}
	out := make([]Entry, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out, nil
}
