package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/guard"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/typesafe"
)

func init() {
	register("check", "judge a command or tool call without running it (dry run)", runCheck)
}

// MaxBatchLine is the longest event line --batch accepts; a Write of a big
// file arrives as one line. Longer lines get an error object.
const MaxBatchLine = 16 << 20

const checkUsage = `usage: agent-guard check [--offline] [--mock] [--json] [--cwd DIR]
                         (--cmd CMD | --tool NAME --input JSON | --batch FILE|-)

Judges tool calls the way the guard would and prints the verdict. It is a
dry run: nothing is executed, nothing is asked, and nothing is written to
the audit log (the judgment cache is not saved either).

  --cmd CMD          a Bash command
  --tool NAME        a tool name (Write, Edit, mcp__server__tool, ...) with
  --input JSON       its tool_input object
  --batch FILE|-     one PreToolUse event object per line (tool_name,
                     tool_input, optional cwd; snake_case or camelCase; a
                     line {"event": {...}} is read as its event). Writes
                     exactly one JSON object per non-empty input line, in
                     order: {"level","source","rule","reason","risk",
                     "violation"}; a line that cannot be read gets
                     {"level":"confirm","error":"..."} and the batch goes on.
                     Blank lines are skipped.
  --cwd DIR          working directory of the call (default: the current
                     one for --cmd/--tool; for --batch, lines without cwd)
  --offline          local rules only; never touches the network
  --mock             answer the remote judge's questions with fixed stub
                     values, so the whole pipeline runs offline
  --json             print the verdict as one JSON object (--batch always does)

Exit status: 0 whatever the verdict, 1 when the guard cannot start (broken
config), 2 on bad usage.
`

type checkFlags struct {
	offline, mock, asJSON bool
	cmd, tool, input      string
	batch, cwd            string
}

func runCheck(env Env) int {
	var f checkFlags
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&f.offline, "offline", false, "")
	fs.BoolVar(&f.mock, "mock", false, "")
	fs.BoolVar(&f.asJSON, "json", false, "")
	fs.StringVar(&f.cmd, "cmd", "", "")
	fs.StringVar(&f.tool, "tool", "", "")
	fs.StringVar(&f.input, "input", "", "")
	fs.StringVar(&f.batch, "batch", "", "")
	fs.StringVar(&f.cwd, "cwd", "", "")
	if err := fs.Parse(env.Args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(env.Stdout, checkUsage)
			return 0
		}
		return checkBadUsage(env, err.Error())
	}
	if fs.NArg() > 0 {
		return checkBadUsage(env, fmt.Sprintf("unexpected argument %q (quote the command: --cmd 'git status')", fs.Arg(0)))
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	modes := 0
	for _, m := range []string{"cmd", "tool", "batch"} {
		if set[m] {
			modes++
		}
	}
	switch {
	case modes != 1:
		return checkBadUsage(env, "give exactly one of --cmd, --tool or --batch")
	case set["cmd"] && strings.TrimSpace(f.cmd) == "":
		return checkBadUsage(env, "--cmd is empty")
	case set["tool"] && !set["input"]:
		return checkBadUsage(env, "--tool needs --input with the tool_input JSON object, e.g. --input '{\"file_path\":\"a.txt\"}'")
	case set["input"] && !set["tool"]:
		return checkBadUsage(env, "--input goes with --tool")
	case set["tool"] && f.tool == "":
		return checkBadUsage(env, "--tool is empty")
	case set["batch"] && f.batch == "":
		return checkBadUsage(env, "--batch needs a file name, or - for standard input")
	}
	var input json.RawMessage
	if set["tool"] {
		in := bytes.TrimSpace([]byte(f.input))
		var obj map[string]json.RawMessage
		if len(in) == 0 || in[0] != '{' || json.Unmarshal(in, &obj) != nil {
			return checkBadUsage(env, fmt.Sprintf("--input must be a JSON object, got %q", f.input))
		}
		input = in
	}
	if f.cwd == "" && !set["batch"] {
		f.cwd, _ = os.Getwd()
	}

	var batchIn io.Reader
	if set["batch"] {
		if f.batch == "-" {
			batchIn = env.Stdin
		} else {
			file, err := os.Open(f.batch)
			if err != nil {
				return checkBadUsage(env, fmt.Sprintf("cannot read the batch file: %v", err))
			}
			defer file.Close()
			batchIn = file
		}
	}

	g, err := openCheckGuard(f)
	if err != nil {
		fmt.Fprintf(env.Stderr, "agent-guard check: %v\n", err)
		return 1
	}
	// No g.Close(): it would save the judgment cache, and a dry run (a
	// --mock one above all) must not leave judgments behind.
	ctx := context.Background()

	if batchIn != nil {
		if err := checkBatch(ctx, g.Judge, batchIn, env.Stdout, f.cwd); err != nil {
			fmt.Fprintf(env.Stderr, "agent-guard check: %v\n", err)
			return 1
		}
		return 0
	}
	ev := judge.Event{HookEventName: "PreToolUse", Cwd: f.cwd, ToolName: f.tool, ToolInput: input}
	if set["cmd"] {
		cmdJSON, _ := json.Marshal(map[string]string{"command": f.cmd})
		ev.ToolName, ev.ToolInput = "Bash", cmdJSON
	}
	out := judgeEvent(ctx, g.Judge, ev)
	if f.asJSON {
		line, _ := json.Marshal(out.wire())
		fmt.Fprintf(env.Stdout, "%s\n", line)
		return 0
	}
	printVerdict(env.Stdout, out)
	return 0
}

// openCheckGuard opens the guard as check needs it: the user's config,
// offline or mocked when asked, and no audit writer at all. The judgment
// cache is read (never saved) except under --mock, whose fixed answers
// must not be hidden by real cached ones.
func openCheckGuard(f checkFlags) (*guard.Guard, error) {
	paths, err := config.DefaultPaths()
	if err != nil {
		return nil, err
	}
	paths.Audit = ""
	if f.mock {
		paths.CacheDir = ""
	}
	return guard.Open(guard.Options{Paths: paths, Offline: f.offline, Mock: f.mock, DryRun: true, NewRemote: typesafe.Remote})
}

func checkBadUsage(env Env, msg string) int {
	fmt.Fprintf(env.Stderr, "agent-guard check: %s\n\n%s", msg, checkUsage)
	return 2
}

// checkResult is one output object. Error objects carry only level and
// error, as issue 2 §8 specifies.
type checkResult struct {
	Level     string  `json:"level"`
	Source    string  `json:"source"`
	Rule      string  `json:"rule"`
	Reason    string  `json:"reason"`
	Risk      float64 `json:"risk"`
	Violation float64 `json:"violation"`
	Error     string  `json:"error,omitempty"`
}

type errorJSON struct {
	Level string `json:"level"`
	Error string `json:"error"`
}

type verdictJSON struct {
	Level     string  `json:"level"`
	Source    string  `json:"source"`
	Rule      string  `json:"rule"`
	Reason    string  `json:"reason"`
	Risk      float64 `json:"risk"`
	Violation float64 `json:"violation"`
}

// wire is the object printed for r: level and error only for a line that
// could not be read. (Plain structs, not a MarshalJSON method: encoding
// stays a single pass in big batches.)
func (r checkResult) wire() any {
	if r.Error != "" {
		return errorJSON{r.Level, r.Error}
	}
	return verdictJSON{r.Level, r.Source, r.Rule, r.Reason, r.Risk, r.Violation}
}

func errorResult(err error) checkResult {
	return checkResult{Level: judge.Confirm.String(), Error: err.Error()}
}

func judgeEvent(ctx context.Context, j *judge.Judge, ev judge.Event) checkResult {
	st, err := judge.StateFromEvent(ev)
	if err != nil {
		return errorResult(err)
	}
	v := j.Judge(ctx, st)
	return checkResult{Level: v.Level.String(), Source: v.Source, Rule: v.Rule, Reason: v.Reason, Risk: finite(v.Risk), Violation: finite(v.Violation)}
}

// finite keeps a broken number from making the output line unencodable.
func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 3
	}
	return f
}

// Batches are judged in chunks of up to batchChunk lines (or
// batchChunkBytes), each chunk in parallel on all cores, its verdicts
// written in input order.
const (
	batchChunk      = 512
	batchChunkBytes = 8 << 20
)

type batchItem struct {
	n       int // 1-based input line number
	line    []byte
	tooLong bool
	res     checkResult
}

// checkBatch judges r line by line, writing one object per non-empty line
// in order. It streams: memory stays bounded by one chunk, and a chunk
// ends as soon as the input has nothing more buffered, so a caller that
// feeds one line and waits for its answer gets it at once.
func checkBatch(ctx context.Context, j *judge.Judge, r io.Reader, w io.Writer, defaultCwd string) error {
	br := bufio.NewReaderSize(r, 256<<10)
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	workers := runtime.GOMAXPROCS(0)
	n := 0
	for eof := false; !eof; {
		var items []batchItem
		size := 0
		for len(items) < batchChunk && size < batchChunkBytes {
			line, tooLong, err := readBatchLine(br)
			if err != nil && !errors.Is(err, io.EOF) {
				bw.Flush()
				return fmt.Errorf("reading the batch: %w", err)
			}
			eof = err != nil
			n++
			if tooLong || len(bytes.TrimSpace(line)) > 0 {
				items = append(items, batchItem{n: n, line: bytes.Clone(line), tooLong: tooLong})
				size += len(line)
			}
			if eof || br.Buffered() == 0 {
				break
			}
		}
		judgeItems(ctx, j, items, defaultCwd, workers)
		for _, it := range items {
			if err := enc.Encode(it.res.wire()); err != nil {
				return fmt.Errorf("writing the verdicts: %w", err)
			}
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("writing the verdicts: %w", err)
		}
	}
	return nil
}

func judgeItems(ctx context.Context, j *judge.Judge, items []batchItem, defaultCwd string, workers int) {
	one := func(it *batchItem) {
		if it.tooLong {
			it.res = errorResult(fmt.Errorf("line %d is longer than %d bytes", it.n, MaxBatchLine))
		} else {
			it.res = judgeLine(ctx, j, it.line, defaultCwd, it.n)
		}
		it.line = nil
	}
	if workers < 2 || len(items) < 2*workers {
		for i := range items {
			one(&items[i])
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(items) {
					return
				}
				one(&items[i])
			}
		}()
	}
	wg.Wait()
}

func judgeLine(ctx context.Context, j *judge.Judge, line []byte, defaultCwd string, n int) checkResult {
	line = unwrapEnvelope(line)
	ev, err := judge.ParseEvent(line)
	if err != nil {
		return errorResult(fmt.Errorf("line %d: %v", n, err))
	}
	if ev.Cwd == "" {
		ev.Cwd = defaultCwd
	}
	res := judgeEvent(ctx, j, ev)
	if res.Error != "" {
		res.Error = fmt.Sprintf("line %d: %s", n, res.Error)
	}
	return res
}

// unwrapEnvelope reads {"event": {...}, ...} (the corpus format of
// testdata/samples.jsonl) as its event; anything else is returned as is.
func unwrapEnvelope(line []byte) []byte {
	if !bytes.Contains(line, []byte(`"event"`)) {
		return line
	}
	var env struct {
		Event    json.RawMessage `json:"event"`
		ToolName json.RawMessage `json:"tool_name"`
	}
	if json.Unmarshal(line, &env) != nil || len(env.ToolName) > 0 {
		return line
	}
	if ev := bytes.TrimSpace(env.Event); len(ev) > 0 && ev[0] == '{' {
		return ev
	}
	return line
}

// readBatchLine returns one line without its newline, or tooLong when it
// exceeded MaxBatchLine (the rest of it is consumed and dropped).
func readBatchLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > MaxBatchLine+1 {
				tooLong, buf = true, nil
			} else if buf == nil && err == nil {
				// Common case: the whole line is in the buffer; no copy
				// needed because it is used before the next read.
				return chunk[:len(chunk)-1], false, nil
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

func printVerdict(w io.Writer, r checkResult) {
	if r.Error != "" {
		fmt.Fprintf(w, "CONFIRM   the call could not be read: %s\n", r.Error)
		return
	}
	fmt.Fprintf(w, "%s\n", strings.ToUpper(r.Level))
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "  %-10s %s\n", k+":", v)
		}
	}
	row("rule", r.Rule)
	row("reason", r.Reason)
	// The deciding rule's catalog entry: what it is about and the file
	// that judges it (agent-guard rules lists them all).
	if e, ok := rules.Lookup(r.Rule); ok {
		if e.ID != r.Rule {
			row("catalog", e.ID)
		}
		if route, _, found := strings.Cut(r.Rule, "/"); found {
			if re, ok := rules.Lookup(route); ok && re.ID == route {
				row("route", route+": "+re.Reason+" ("+re.Where+")")
			}
		}
		row("category", e.Category)
		row("about", e.Reason)
		row("where", e.Where)
	}
	row("risk", fmt.Sprintf("%.2f of 3 (%s)", r.Risk, ladder(r.Risk)))
	row("violation", fmt.Sprintf("%.2f (red-line probability)", r.Violation))
	row("source", r.Source)
}

// ladder names the seed's 0-3 risk levels.
func ladder(risk float64) string {
	switch {
	case risk >= 2.5:
		return "destructive, irreversible"
	case risk >= 1.5:
		return "affects services or history"
	case risk >= 0.5:
		return "controlled, reversible"
	}
	return "read-only"
}
