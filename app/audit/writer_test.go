package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func entry(i int, who string) Entry {
	return Entry{
		TS: time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second),
		// A long input makes torn writes visible if they ever happen.
		Host: "check", Session: who, Tool: "Bash", Input: fmt.Sprintf("echo %d %s", i, strings.Repeat("x", 180)),
		Source: "rule", Rule: "test", Risk: 1, Violation: 0.1, Level: "allow", Decision: "allow",
		Decider: DeciderAuto, Reason: strings.Repeat("r", 300), DurationMS: 0.5,
	}
}

func TestAppendCreatesPrivateFileAndRoundTrips(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "agent-guard")
	path := filepath.Join(dir, "audit.jsonl")
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("Open created the log before any Append (err %v); a dry run must leave no file", err)
	}
	want := entry(1, "s1")
	want.Input = "curl -H 'Authorization: Bearer SECRET123' x"
	want.Reason = "sends password=hunter2"
	if err := w.Append(want); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		for p, mode := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != mode {
				t.Errorf("%s has mode %v, want %v", p, st.Mode().Perm(), mode)
			}
		}
	}
	raw, _ := os.ReadFile(path)
	if bytes.Contains(raw, []byte("SECRET123")) || bytes.Contains(raw, []byte("hunter2")) {
		t.Errorf("a secret reached the log: %s", raw)
	}
	got, err := ReadLast(path, 5)
	if err != nil || len(got) != 1 {
		t.Fatalf("ReadLast = %v, %v; want one entry", got, err)
	}
	if !got[0].TS.Equal(want.TS) || got[0].Tool != "Bash" || got[0].Level != "allow" || got[0].Reason != "sends password=[REDACTED]" {
		t.Errorf("round trip = %+v", got[0])
	}
}

func TestAppendNonFiniteNumbersStillLogs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	w, _ := Open(path)
	defer w.Close()
	e := entry(1, "s")
	e.Risk, e.Violation, e.RiskProbs = math.NaN(), math.Inf(1), []float64{math.NaN(), 1}
	if err := w.Append(e); err != nil {
		t.Fatalf("Append with NaN: %v", err)
	}
	if got, _ := ReadLast(path, 1); len(got) != 1 || got[0].Risk != 0 {
		t.Errorf("got %+v", got)
	}
}

func TestAppendUnwritableLocationNamesThePath(t *testing.T) {
	base := t.TempDir()
	// A regular file where the folder should be: fails even for root.
	blocker := filepath.Join(base, "notadir")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(blocker, "audit.jsonl")
	w, _ := Open(path)
	err := w.Append(entry(1, "s"))
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Append under a file = %v; want an error naming %s", err, path)
	}
	if err := Writable(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Writable = %v; want an error naming %s", err, path)
	}
}

func TestAppendReadOnlyFolder(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("permission bits do not stop root or Windows")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	path := filepath.Join(dir, "audit.jsonl")
	w, _ := Open(path)
	err := w.Append(entry(1, "s"))
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("Append in a read-only folder = %v; want a permission error naming %s", err, path)
	}
}

func TestAppendReopensAfterRotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	w, _ := Open(path)
	defer w.Close()
	if err := w.Append(entry(1, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(entry(2, "b")); err != nil {
		t.Fatal(err)
	}
	got, _ := ReadLast(path, 10)
	if len(got) != 1 || got[0].Session != "b" {
		t.Errorf("after rotation the new log holds %+v; want only entry b", got)
	}
}

// Deleting the log while the writer holds it (a user clearing it, a log
// tool) must work on every OS; on Windows that needs FILE_SHARE_DELETE on
// the writer's handle. Under Windows' classic delete semantics the name
// lasts until the writer lets go, so the check is after Close.
func TestLogCanBeDeletedWhileOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	w, _ := Open(path)
	defer w.Close()
	if err := w.Append(entry(1, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatalf("deleting the open log: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the log is still there after the delete and Close: %v", err)
	}
	if err := w.Append(entry(2, "b")); err != nil {
		t.Fatal(err)
	}
	got, _ := ReadLast(path, 10)
	if len(got) != 1 || got[0].Session != "b" {
		t.Errorf("the new log holds %+v; want only entry b", got)
	}
}

// checkWhole asserts every line of the log parses and returns the count
// per session (writer).
func checkWhole(t *testing.T, path string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, MaxLine)
	counts := map[string]int{}
	n := 0
	for sc.Scan() {
		n++
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %d is torn: %v: %.120q", n, err, sc.Text())
		}
		counts[e.Session]++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return counts
}

func TestConcurrentAppendsFromGoroutines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	const writers, each = 8, 150
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Half share one Writer, half have their own: both must hold.
			w, _ := Open(path)
			defer w.Close()
			for i := range each {
				if err := w.Append(entry(i, "g"+strconv.Itoa(g))); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	counts := checkWhole(t, path)
	for g := range writers {
		if c := counts["g"+strconv.Itoa(g)]; c != each {
			t.Errorf("writer g%d has %d lines, want %d", g, c, each)
		}
	}
}

const childEnv = "AUDIT_TEST_CHILD_WRITER"

// TestChildWriter is the body of a child process in
// TestConcurrentAppendsFromProcesses; on its own it does nothing.
func TestChildWriter(t *testing.T) {
	spec := os.Getenv(childEnv)
	if spec == "" {
		t.Skip("only runs as a child writer")
	}
	path, rest, _ := strings.Cut(spec, "|")
	who, rest, _ := strings.Cut(rest, "|")
	nStr, reasonStr, _ := strings.Cut(rest, "|")
	n, _ := strconv.Atoi(nStr)
	reason, _ := strconv.Atoi(reasonStr)
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := w.Append(sized(entry(i, who), reason)); err != nil {
			t.Fatal(err)
		}
	}
}

// sized gives e a reason of n bytes (0: as it is).
func sized(e Entry, n int) Entry {
	if n > 0 {
		e.Reason = strings.Repeat("r", n)
	}
	return e
}

// Whole lines from several processes at once, with or without the lock
// (on Linux's local filesystems the writer does not take it), for lines
// of the usual size and for the longest reasons (MaxReason, 8 KB).
func TestConcurrentAppendsFromProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	for _, reason := range []int{0, 8 << 10} {
		t.Run(fmt.Sprintf("reason=%d", reason), func(t *testing.T) { concurrentAppends(t, reason) })
	}
}

func concurrentAppends(t *testing.T, reason int) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	const procs, each = 4, 500
	var cmds []*exec.Cmd
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChildWriter$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|p%d|%d|%d", childEnv, path, p, each, reason))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("child output: %s", out.String())
			}
		})
	}
	// The parent writes too, at the same time.
	w, _ := Open(path)
	defer w.Close()
	for i := range each {
		if err := w.Append(sized(entry(i, "parent"), reason)); err != nil {
			t.Fatal(err)
		}
	}
	if runtime.GOOS == "linux" {
		t.Logf("parent writer takes the lock: %v", w.lock)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("child writer: %v", err)
		}
	}
	counts := checkWhole(t, path)
	for _, who := range []string{"p0", "p1", "p2", "p3", "parent"} {
		if counts[who] != each {
			t.Errorf("%s has %d lines, want %d (counts %v)", who, counts[who], each, counts)
		}
	}
}

func BenchmarkAppend(b *testing.B) {
	w, _ := Open(filepath.Join(b.TempDir(), "audit.jsonl"))
	defer w.Close()
	e := entry(1, "bench")
	for b.Loop() {
		if err := w.Append(e); err != nil {
			b.Fatal(err)
		}
	}
}
