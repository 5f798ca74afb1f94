package audit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func line(t *testing.T, e Entry) string {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func TestReaderSkipsAndCountsCorruptLines(t *testing.T) {
	var b strings.Builder
	b.WriteString(line(t, entry(1, "a")))
	b.WriteString("not json\n")
	b.WriteString("\n")                     // blank: neither entry nor corrupt
	b.WriteString(`{"tool":"Bash"}` + "\n") // no timestamp
	b.WriteString(line(t, entry(2, "b")))
	b.WriteString(strings.Repeat("z", MaxLine+10) + "\n") // oversized
	b.WriteString(`[1,2]` + "\n")
	b.WriteString(line(t, entry(3, "c")))
	b.WriteString(`{"ts":"2026-11-30T03:00:0`) // torn last line
	r := NewReader(strings.NewReader(b.String()))
	var got []string
	for {
		e, ok := r.Next()
		if !ok {
			break
		}
		got = append(got, e.Session)
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	if strings.Join(got, ",") != "a,b,c" || r.Skipped() != 5 {
		t.Errorf("got %v skipped %d; want a,b,c skipped 5", got, r.Skipped())
	}
}

func TestReaderLastLineWithoutNewline(t *testing.T) {
	data := line(t, entry(1, "a")) + strings.TrimSuffix(line(t, entry(2, "b")), "\n")
	r := NewReader(strings.NewReader(data))
	n := 0
	for {
		if _, ok := r.Next(); !ok {
			break
		}
		n++
	}
	if n != 2 || r.Skipped() != 0 {
		t.Errorf("got %d entries, %d skipped; want 2, 0", n, r.Skipped())
	}
}

func writeLog(t *testing.T, n int, corruptEvery int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var b bytes.Buffer
	for i := range n {
		b.WriteString(line(t, entry(i, strconv.Itoa(i))))
		if corruptEvery > 0 && i%corruptEvery == 0 {
			b.WriteString("{garbage\n")
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadLast(t *testing.T) {
	// ~600 bytes a line: 3000 lines span many 64 KiB chunks.
	path := writeLog(t, 3000, 7)
	for _, n := range []int{1, 50, 109, 110, 111, 3000, 5000} {
		got, err := ReadLast(path, n)
		if err != nil {
			t.Fatal(err)
		}
		want := min(n, 3000)
		if len(got) != want {
			t.Fatalf("ReadLast(%d) returned %d entries, want %d", n, len(got), want)
		}
		for i, e := range got {
			if e.Session != strconv.Itoa(3000-want+i) {
				t.Fatalf("ReadLast(%d)[%d] = entry %s, want %d (oldest first)", n, i, e.Session, 3000-want+i)
			}
		}
	}
	if got, err := ReadLast(filepath.Join(t.TempDir(), "missing.jsonl"), 10); err != nil || len(got) != 0 {
		t.Errorf("missing log: %v, %v; want no entries and no error", got, err)
	}
}

func TestReadLastSkipsOversizedLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	data := line(t, entry(1, "a")) + strings.Repeat("q", 3*MaxLine) + "\n" + line(t, entry(2, "b"))
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadLast(path, 10)
	if err != nil || len(got) != 2 || got[0].Session != "a" || got[1].Session != "b" {
		t.Errorf("ReadLast = %+v, %v; want a, b", got, err)
	}
}

func TestReadSince(t *testing.T) {
	path := writeLog(t, 100, 10)
	since := entry(90, "").TS
	got, err := ReadSince(path, since)
	if err != nil || len(got) != 10 || got[0].Session != "90" {
		t.Errorf("ReadSince = %d entries (first %+v), %v; want 10 from entry 90", len(got), got, err)
	}
	skipped, err := ScanFile(path, func(Entry) bool { return true })
	if err != nil || skipped != 10 {
		t.Errorf("ScanFile skipped %d, %v; want 10", skipped, err)
	}
	if _, err := ScanFile(filepath.Join(t.TempDir(), "nope"), func(Entry) bool { return true }); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("ScanFile on a missing log = %v; want an error naming it", err)
	}
}

// FuzzReadLines: neither reader panics, and reading backwards finds the
// same entries as reading forwards.
func FuzzReadLines(f *testing.F) {
	good := `{"ts":"2026-11-30T03:00:00Z","tool":"Bash","input":"ls","source":"rule","risk":0,"violation":0,"level":"allow","decision":"allow","decider":"auto","reason":"","duration_ms":1}`
	f.Add([]byte(good + "\n" + good + "\n"))
	f.Add([]byte(good + "\nbroken\n\n" + good))
	f.Add([]byte("{\n}\n{\"ts\":1}\n"))
	f.Add([]byte(""))
	f.Add([]byte("\r\n\r\n" + good + "\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		var fwd []Entry
		for {
			e, ok := r.Next()
			if !ok {
				break
			}
			fwd = append(fwd, e)
		}
		if r.Err() != nil {
			t.Fatalf("reader error on in-memory data: %v", r.Err())
		}
		back, err := readLastFrom(bytes.NewReader(data), int64(len(data)), len(data)+1)
		if err != nil {
			t.Fatal(err)
		}
		if len(fwd) == 0 && len(back) == 0 {
			return
		}
		if !reflect.DeepEqual(fwd, back) {
			t.Fatalf("forward read %d entries, backward %d; they differ", len(fwd), len(back))
		}
		for _, e := range fwd {
			if e.TS.IsZero() {
				t.Fatal("an entry without a timestamp was accepted")
			}
		}
	})
}

func BenchmarkReadLast50(b *testing.B) {
	path := filepath.Join(b.TempDir(), "audit.jsonl")
	var buf bytes.Buffer
	e := entry(1, "x")
	ln, _ := json.Marshal(e)
	for range 100000 {
		buf.Write(ln)
		buf.WriteByte('\n')
	}
	os.WriteFile(path, buf.Bytes(), 0o600)
	b.ResetTimer()
	for b.Loop() {
		if got, _ := ReadLast(path, 50); len(got) != 50 {
			b.Fatal(len(got))
		}
	}

}
