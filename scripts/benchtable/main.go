// Command benchtable runs agent-guard's benchmarks and prints one markdown
// table for the README: local judge throughput, whole-process hook latency
// with the server up and in fallback, the server under 1, 10 and 100
// concurrent hooks, tray idle CPU and memory, and a Node-based peer hook
// (the npm package cc-safety-net) timed on the same input, with the ratio.
//
// Run it through scripts/bench.sh from the repository root. Everything it
// starts lives in a temporary folder (AGENT_GUARD_HOME, socket, HOME) and is
// stopped before it exits; nothing touches the user's real config.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

var (
	runs     = flag.Int("runs", 400, "sequential hook runs per latency measurement")
	peerRuns = flag.Int("peer-runs", 100, "runs of the Node peer hook")
	skipNode = flag.Bool("skip-node", false, "do not install and time the Node peer")
	skipTray = flag.Bool("skip-tray", false, "do not measure tray idle CPU/RSS")
	benchT   = flag.String("benchtime", "3s", "go test -benchtime for the judge benchmark")
	verbose  = flag.Bool("v", false, "log progress to stderr")
	baseRev  = flag.String("baseline", "eef71f4", "git revision of the hook before the thin hook (its fallback judged in-process)")
	only     = flag.String("only", "", "run one part only: \"fallback\" builds the hook, agent-guard-judge and the baseline hook and times only the fallback turns and the empty-Go floor")
)

// event is the input every hook is timed on: the first public sample.
var event = []byte(`{"hook_event_name":"PreToolUse","session_id":"bench","tool_name":"Bash","tool_input":{"command":"git status"},"cwd":"/home/dev/proj"}`)

type row struct{ what, result, target string }

func main() {
	flag.Parse()
	if _, err := os.Stat("go.mod"); err != nil {
		fatal("run from the repository root (scripts/bench.sh does)")
	}
	work, err := os.MkdirTemp("", "agent-guard-bench")
	check(err)
	defer os.RemoveAll(work)

	var rows []row
	add := func(r ...row) { rows = append(rows, r...) }

	switch *only {
	case "":
	case "fallback":
		add(fallbackRows(work, true)...)
		printTable(rows)
		return
	default:
		fatal("-only %q: the only part is \"fallback\"", *only)
	}

	add(judgeBench())

	logf("building the binaries (-tags nogui, CGO_ENABLED=0)")
	guard, hook := build(work)
	baseHook, baseGuard, baseErr := buildBaseline(work, true)

	// The peer is installed first, so it can be timed in turns with our
	// hook while the server is up: both see the same machine load.
	var peerRun func() error
	var peerWhat string
	var peerRows []row
	if !*skipNode {
		peerRun, peerWhat, err = installPeer(work)
		if err != nil {
			peerRows = append(peerRows, row{"Node peer: cc-safety-net `hook --claude-code`", "not measured (" + err.Error() + ")", ""})
			peerRun = nil
		}
	}

	minClient := buildTool(work, "./scripts/minclient", "minclient")
	sb := newSandbox(work, "home", guard)
	defer os.RemoveAll(filepath.Dir(sb.sock))
	ourHook := func() error { return sb.hook(hook) }
	if err := sb.start(); err != nil {
		add(row{"hook, server up", "server did not start: " + err.Error(), "median < 5 ms"})
	} else {
		// The hook and the minimal Go client in turns, so both see the
		// same load; then the hook and the Node peer in turns.
		logf("timing hook and minimal Go client in turns")
		st := timeTurns(*runs, ourHook, func() error { return sb.hook(minClient) })
		ours, floor := st[0], st[1]
		add(row{"hook process, server up (median / p99)", ours.ms(), "median < 5 ms"})
		add(row{"minimal Go socket client, same round trip, same turns (median / p99)", floor.ms(), ""})
		if len(ours.d) > 0 && len(floor.d) > 0 {
			add(row{"hook median / minimal Go client median", fmt.Sprintf("%.2fx", ratio(ours, floor)), "<= 1.25x"})
		}
		if peerRun != nil {
			logf("timing the peer hook in turns with ours")
			o, p := timePairs(*peerRuns, ourHook, peerRun)
			peerRows = append(peerRows, row{peerWhat + " (median / p99)", p.ms(), ""})
			if len(o.d) > 0 && len(p.d) > 0 {
				peerRows = append(peerRows, row{fmt.Sprintf("agent-guard hook, server up, in the same turns (%s) vs the Node peer, median", o.ms()),
					fmt.Sprintf("%.0fx faster", ratio(p, o)), ">= 30x"})
			}
		}
		// The server's CPU, in turns with the baseline server's when it
		// starts, so both see the same load.
		srvs := []*sandbox{sb}
		if baseErr == nil {
			bs := newSandbox(work, "home-base-srv", baseGuard)
			defer os.RemoveAll(filepath.Dir(bs.sock))
			if err := bs.start(); err == nil {
				srvs = append(srvs, bs)
			}
		}
		logf("server CPU in turns with the baseline server")
		spaced, hot := serverCPUTurns(srvs, minClient)
		for _, other := range srvs[1:] {
			other.stop()
		}
		add(serverCPUProfile(),
			row{"whole server process CPU per simple request, one minimal-client process per request (git status, allow; schedstat over all its threads: the runtime's wake-ups included)", spaced[0], ""},
			row{"whole server process CPU per simple request, back to back from one process (same method)", hot[0], ""})
		if len(srvs) > 1 {
			add(row{fmt.Sprintf("baseline server %s, same turns: one minimal-client process per request", *baseRev), spaced[1], ""},
				row{fmt.Sprintf("baseline server %s, same turns: back to back from one process", *baseRev), hot[1], ""})
		}
		for _, c := range []int{1, 10, 100} {
			n := max(*runs/2, c*10)
			s := timeRuns(n, c, ourHook)
			add(row{fmt.Sprintf("server under %d concurrent hooks (median / p99, throughput)", c),
				fmt.Sprintf("%s, %.0f calls/s", s.ms(), s.perSec()), ""})
		}
		sb.stop()
	}
	add(fallbackRows(work, false, fbParts{guard, hook, baseHook, baseErr})...)

	if !*skipTray {
		add(trayIdle())
	}
	add(peerRows...)

	printTable(rows)
}

func printTable(rows []row) {
	fmt.Println(machine())
	fmt.Println()
	fmt.Println("| measure | result | target |")
	fmt.Println("| --- | --- | --- |")
	for _, r := range rows {
		fmt.Printf("| %s | %s | %s |\n", r.what, r.result, r.target)
	}
}

// fbParts are the binaries the fallback turns run: the thin hook (with
// agent-guard-judge beside it) and the baseline's fat hook, or why the
// baseline did not build.
type fbParts struct {
	guard, hook, baseHook string
	baseErr               error
}

// fallbackRows times the fallback with no server: today's hook execs
// agent-guard-judge beside it; the baseline revision's hook judged
// in-process. In turns, each in its own home; then the empty-Go floor.
// With build set (-only fallback) it builds only what these turns need.
func fallbackRows(work string, build bool, p ...fbParts) []row {
	var fp fbParts
	if build {
		logf("building the hook and agent-guard-judge (-tags nogui, CGO_ENABLED=0)")
		fp.hook = buildHookOnly(work)
		fp.baseHook, _, fp.baseErr = buildBaseline(work, false)
	} else {
		fp = p[0]
	}
	// The sandbox's guard is never started here: no server is the point.
	fbNew := newSandbox(work, "home-fb", fp.guard)
	fbRows := []row{}
	if fp.baseErr != nil {
		fb := timeRuns(*runs, 1, func() error { return fbNew.hook(fp.hook) })
		fbRows = append(fbRows, row{"hook process, fallback: no server (median / p99)", fb.ms(), ""},
			row{"fallback vs the baseline's in-process fallback", "not measured: " + fp.baseErr.Error(), "<= 1.5x"})
	} else {
		fbOld := newSandbox(work, "home-fb-base", fp.guard)
		logf("timing the fallback against the baseline %s in turns", *baseRev)
		st := timeTurns(*runs, func() error { return fbNew.hook(fp.hook) }, func() error { return fbOld.hook(fp.baseHook) })
		fbRows = append(fbRows, row{"hook process, fallback: no server, execs agent-guard-judge hook-fallback (median / p99)", st[0].ms(), ""},
			row{fmt.Sprintf("baseline hook %s, fallback judged in-process, same turns (median / p99)", *baseRev), st[1].ms(), ""})
		if len(st[0].d) > 0 && len(st[1].d) > 0 {
			fbRows = append(fbRows, row{"fallback median / baseline fallback median", fmt.Sprintf("%.2fx", ratio(st[0], st[1])), "<= 1.5x"})
		}
	}
	if empty, err := buildEmpty(work); err != nil {
		fbRows = append(fbRows, row{"floor: an empty Go program, started the same way", "not measured: " + err.Error(), ""})
	} else {
		fl := timeRuns(*runs, 1, func() error { return exec.Command(empty).Run() })
		fbRows = append(fbRows, row{"floor: an empty Go program, started the same way (median / p99)", fl.ms(), ""})
	}
	return fbRows
}

// judgeBench runs the judge's own benchmark on one core.
func judgeBench() row {
	r := row{what: "judge, local rules, mixed corpus, 1 core", target: "> 50,000 events/s"}
	logf("go test -bench BenchmarkLocalMixed -cpu 1 ./app/judge")
	out, err := exec.Command("go", "test", "-run", "^$", "-bench", "^BenchmarkLocalMixed$", "-cpu", "1",
		"-benchtime", *benchT, "./app/judge").CombinedOutput()
	if err != nil {
		r.result = "benchmark failed: " + firstLine(string(out))
		return r
	}
	// "BenchmarkLocalMixed  123456  9876 ns/op  [101234 events/s] ..."
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(line, "BenchmarkLocalMixed") {
			continue
		}
		f := strings.Fields(line)
		var nsop, evs float64
		for i := 1; i+1 < len(f); i++ {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				nsop = v
			case "events/s":
				evs = v
			}
		}
		if evs == 0 && nsop > 0 {
			evs = 1e9 / nsop
		}
		if evs > 0 {
			r.result = fmt.Sprintf("%s events/s", thousands(evs))
			return r
		}
	}
	r.result = "no BenchmarkLocalMixed result in: " + firstLine(string(out))
	return r
}

func build(work string) (guard, hook string) {
	guard = filepath.Join(work, "agent-guard")
	buildEach(map[string]string{guard: "./cmd/agent-guard"})
	return guard, buildHookOnly(work)
}

// buildHookOnly builds the thin hook and agent-guard-judge, its fallback,
// beside it.
func buildHookOnly(work string) (hook string) {
	hook = filepath.Join(work, "agent-guard-hook")
	judge := filepath.Join(work, "agent-guard-judge")
	buildEach(map[string]string{hook: "./cmd/agent-guard-hook", judge: "./cmd/agent-guard-judge"})
	return hook
}

// buildEach builds every package to its output path, -tags nogui.
func buildEach(outs map[string]string) {
	for out, pkg := range outs {
		cmd := exec.Command("go", goBuild("-tags", "nogui", "-o", out, pkg)...)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			fatal("go build %s: %v\n%s", pkg, err, b)
		}
		check(installed(out))
	}
}

// goBuild is `go build` with args, the way scripts/dist.sh builds a
// release (-trimpath, no symbol table or DWARF), for every timed binary:
// ours, the baseline's, the minimal client and the empty program alike.
func goBuild(args ...string) []string {
	return append([]string{"build", "-trimpath", "-ldflags", "-s -w"}, args...)
}

// installed rewrites a freshly built binary the way `agent-guard install`
// puts it in place (copied with write calls into a temp file, renamed), and
// every binary timed here goes through it, ours and the baseline's alike.
// The linker writes its output through a memory map, and on this machine a
// file written so started 0.7 to 1.5 ms slower per exec than the same bytes
// copied (the 12 MB baseline hook: 5.25 vs 4.51 ms median, 300 turns; 5.2
// vs 3.6 ms at another hour): timing the linker's file measures the page
// cache, not what users run.
func installed(path string) error {
	in, err := os.Open(path)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := path + ".installing"
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// buildTool builds one of our Go programs into work.
func buildTool(work, pkg, name string) string {
	out := filepath.Join(work, name)
	cmd := exec.Command("go", goBuild("-o", out, pkg)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		fatal("go build %s: %v\n%s", pkg, err, b)
	}
	check(installed(out))
	return out
}

// buildBaseline builds the hook and, with withGuard, agent-guard of the
// -baseline revision (git archive into work/base): the hook whose fallback
// judged in-process.
func buildBaseline(work string, withGuard bool) (hook, guard string, err error) {
	dir := filepath.Join(work, "base")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	arch := exec.Command("sh", "-c", "git archive --format=tar \"$0\" | tar -x -C \"$1\"", *baseRev, dir)
	if b, err := arch.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("git archive %s: %v %s", *baseRev, err, firstLine(string(b)))
	}
	hook, guard = filepath.Join(dir, "bin", "agent-guard-hook"), filepath.Join(dir, "bin", "agent-guard")
	outs := map[string]string{hook: "./cmd/agent-guard-hook"}
	if withGuard {
		outs[guard] = "./cmd/agent-guard"
	}
	for out, pkg := range outs {
		cmd := exec.Command("go", goBuild("-tags", "nogui", "-o", out, pkg)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", "", fmt.Errorf("go build at %s: %v %s", *baseRev, err, firstLine(string(b)))
		}
		if err := installed(out); err != nil {
			return "", "", err
		}
	}
	return hook, guard, nil
}

// serverCPUTurns is each server's CPU time per simple request: the sum of
// its threads' on-CPU time (/proc/PID/task/*/schedstat, in ns) across n
// requests, divided by n, the servers taking turns request by request so
// all see the same load. Two ways: one minimal-client process per request
// (the server goes idle between requests, as with real hooks), and back to
// back from this process (a new connection each, as hooks make). The first
// server speaks this wire version, the others (the baseline) version 1.
func serverCPUTurns(srvs []*sandbox, client string) (spaced, hot []string) {
	n := max(*runs, 200)
	spawn := func(i int) error {
		cmd := exec.Command(client)
		cmd.Env = srvs[i].env
		if i > 0 {
			cmd.Env = append(cmd.Env, "MINCLIENT_V=1")
		}
		cmd.Stdin = bytes.NewReader(event)
		return cmd.Run()
	}
	direct := func(i int) error {
		v := 2
		if i > 0 {
			v = 1
		}
		return ask(srvs[i].sock, v)
	}
	measure := func(n int, one func(int) error) []string {
		for k := 0; k < 20; k++ {
			for i := range srvs {
				one(i)
			}
		}
		before := make([]int64, len(srvs))
		for i, sb := range srvs {
			before[i], _ = cpuNS(sb.srv.Process.Pid)
		}
		fails := 0
		for k := 0; k < n; k++ {
			for i := range srvs {
				if one(i) != nil {
					fails++
				}
			}
		}
		out := make([]string, len(srvs))
		for i, sb := range srvs {
			after, err := cpuNS(sb.srv.Process.Pid)
			if err != nil || fails > 0 || before[i] == 0 {
				out[i] = fmt.Sprintf("not measured: %v, %d failed", err, fails)
				continue
			}
			out[i] = fmt.Sprintf("%.0f us (%d requests)", float64(after-before[i])/float64(n)/1000, n)
		}
		return out
	}
	return measure(n, spawn), measure(n*5, direct)
}

// serverCPUProfile is the server's own CPU per simple request by profile
// (scripts/server-cpu.sh: its accept loop's and workers' samples over the
// requests, the in-process client's left out).
func serverCPUProfile() row {
	r := row{what: "server CPU per simple request by profile (scripts/server-cpu.sh: accept loop and workers, 40,000 requests)", target: "<= 50 us"}
	logf("scripts/server-cpu.sh")
	cmd := exec.Command("bash", "scripts/server-cpu.sh")
	cmd.Env = append(os.Environ(), "N=40000")
	out, err := cmd.CombinedOutput()
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "server CPU per request by profile (accept loop + workers): "); ok {
			r.result = v
			return r
		}
	}
	r.result = fmt.Sprintf("not measured (%v): %s", err, firstLine(string(out)))
	return r
}

// ask sends the event to the server at sock once, on a new connection,
// and checks that it allows it.
func ask(sock string, v int) error {
	req, err := json.Marshal(struct {
		V        int             `json:"v"`
		Host     string          `json:"host"`
		Event    json.RawMessage `json:"event"`
		BudgetMS int64           `json:"budget_ms"`
	}{v, "zcode", event, 50000})
	if err != nil {
		return err
	}
	c, err := net.Dial("unix", sock)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.Write(append(req, '\n')); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadBytes('\n')
	if err != nil || !bytes.Contains(line, []byte(`"allow"`)) {
		return fmt.Errorf("no allow: %v %q", err, line)
	}
	return nil
}

func cpuNS(pid int) (int64, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("no schedstat for pid %d", pid)
	}
	var sum int64
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that just ended
		}
		f := strings.Fields(string(b))
		if len(f) > 0 {
			v, _ := strconv.ParseInt(f[0], 10, 64)
			sum += v
		}
	}
	return sum, nil
}

func ratio(a, b stats) float64 { return float64(a.pct(0.5)) / float64(b.pct(0.5)) }

// timeTurns runs every f once per round, n rounds after a warm-up, so all
// are measured under the same load.
func timeTurns(n int, fs ...func() error) []stats {
	st := make([]stats, len(fs))
	for i := 0; i < 5; i++ {
		for _, f := range fs {
			f()
		}
	}
	t0 := time.Now()
	for i := 0; i < n; i++ {
		for k, f := range fs {
			t := time.Now()
			if err := f(); err != nil {
				st[k].fails++
				st[k].err = err
				continue
			}
			st[k].d = append(st[k].d, time.Since(t))
		}
	}
	for k := range st {
		st[k].wall = time.Since(t0)
		sort.Slice(st[k].d, func(i, j int) bool { return st[k].d[i] < st[k].d[j] })
	}
	return st
}

// buildEmpty builds `func main() {}` the way the hook is built, to show
// what starting any Go process costs on this machine.
func buildEmpty(work string) (string, error) {
	dir := filepath.Join(work, "empty")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module empty\n\ngo 1.21\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		return "", err
	}
	out := filepath.Join(work, "empty-bin")
	cmd := exec.Command("go", goBuild("-o", out, ".")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-buildvcs=false", "GOWORK=off")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%v: %s", err, firstLine(string(b)))
	}
	return out, installed(out)
}

// sandbox is a throwaway agent-guard home with its own socket.
type sandbox struct {
	guard string
	home  string
	env   []string
	srv   *exec.Cmd
	sock  string
}

func newSandbox(work, name, guard string) *sandbox {
	home := filepath.Join(work, name)
	check(os.MkdirAll(home, 0o700))
	sockDir, err := os.MkdirTemp("", "agb")
	check(err)
	sb := &sandbox{guard: guard, home: home, sock: filepath.Join(sockDir, "s")}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "AGENT_GUARD_") || k == "TYPESAFE_API_KEY" || k == "HOME" {
			continue
		}
		sb.env = append(sb.env, kv)
	}
	sb.env = append(sb.env, "AGENT_GUARD_HOME="+home, "AGENT_GUARD_PIPE="+sb.sock, "HOME="+home)
	return sb
}

func (sb *sandbox) start() error {
	cmd := exec.Command(sb.guard, "serve", "--headless")
	cmd.Env = sb.env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		return err
	}
	sb.srv = cmd
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if fi, err := os.Stat(sb.sock); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	sb.stop()
	return fmt.Errorf("no socket after 30s: %s", firstLine(errb.String()))
}

func (sb *sandbox) stop() {
	if sb.srv != nil {
		sb.srv.Process.Kill()
		sb.srv.Wait()
		sb.srv = nil
	}
}

// hook runs the hook binary once on the event, as a host would. The event
// (git status) must be allowed: a deny (say, a fallback that could not
// run its judge) is a failed run, not a fast one.
func (sb *sandbox) hook(bin string) error {
	cmd := exec.Command(bin)
	cmd.Env = sb.env
	cmd.Stdin = bytes.NewReader(event)
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	if !bytes.Contains(out, []byte(`"permissionDecision":"allow"`)) {
		return fmt.Errorf("no allow in %q", out)
	}
	return nil
}

type stats struct {
	d     []time.Duration // sorted
	wall  time.Duration
	fails int
	err   error
}

func (s stats) pct(p float64) time.Duration {
	if len(s.d) == 0 {
		return 0
	}
	i := int(float64(len(s.d)-1) * p)
	return s.d[i]
}

func (s stats) ms() string {
	if len(s.d) == 0 {
		return fmt.Sprintf("all runs failed: %v", s.err)
	}
	out := fmt.Sprintf("%.2f / %.2f ms", msf(s.pct(0.5)), msf(s.pct(0.99)))
	if s.fails > 0 {
		out += fmt.Sprintf(" (%d failed: %v)", s.fails, s.err)
	}
	return out
}

func (s stats) perSec() float64 { return float64(len(s.d)) / s.wall.Seconds() }

func msf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// timeRuns runs f n times on c workers after a short warm-up and returns
// the per-call latencies.
func timeRuns(n, c int, f func() error) stats {
	for i := 0; i < 10; i++ {
		f()
	}
	var mu sync.Mutex
	var s stats
	next := make(chan struct{}, n)
	for i := 0; i < n; i++ {
		next <- struct{}{}
	}
	close(next)
	t0 := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < c; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range next {
				t := time.Now()
				err := f()
				d := time.Since(t)
				mu.Lock()
				if err != nil {
					s.fails++
					s.err = err
				} else {
					s.d = append(s.d, d)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	s.wall = time.Since(t0)
	sort.Slice(s.d, func(i, j int) bool { return s.d[i] < s.d[j] })
	return s
}

// trayIdle runs the tray's own idle probe (scripts/tray-idle.sh) and
// reports its last line.
func trayIdle() row {
	r := row{what: "tray app idle (CPU, RSS)"}
	if _, err := os.Stat("scripts/tray-idle.sh"); err != nil {
		r.result = "not measured (scripts/tray-idle.sh not present)"
		return r
	}
	logf("scripts/tray-idle.sh")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "bash", "scripts/tray-idle.sh").CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := lines[len(lines)-1]
	if err != nil {
		r.result = fmt.Sprintf("tray-idle.sh failed (%v): %s", err, last)
		return r
	}
	r.result = strings.TrimPrefix(strings.ReplaceAll(last, "|", "/"), "tray idle: ")
	return r
}

// installPeer installs cc-safety-net into a temp folder with npm and
// returns a function that runs its hook once on our event, with its own
// HOME so nothing of the user's is read or written.
func installPeer(work string) (run func() error, what string, err error) {
	node, err1 := exec.LookPath("node")
	npm, err2 := exec.LookPath("npm")
	if err1 != nil || err2 != nil {
		return nil, "", fmt.Errorf("node/npm not installed")
	}
	dir := filepath.Join(work, "peer")
	check(os.MkdirAll(dir, 0o755))
	logf("npm install cc-safety-net")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	inst := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--prefix", dir, "cc-safety-net")
	if out, err := inst.CombinedOutput(); err != nil {
		return nil, "", fmt.Errorf("npm install failed: %s", firstLine(string(out)))
	}
	pkgDir := filepath.Join(dir, "node_modules", "cc-safety-net")
	var pkg struct {
		Version string            `json:"version"`
		Bin     map[string]string `json:"bin"`
	}
	b, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err == nil {
		err = json.Unmarshal(b, &pkg)
	}
	if err != nil || pkg.Bin["cc-safety-net"] == "" {
		return nil, "", fmt.Errorf("cannot read its bin: %v", err)
	}
	bin := filepath.Join(pkgDir, pkg.Bin["cc-safety-net"])
	home := filepath.Join(work, "peer-home")
	check(os.MkdirAll(home, 0o700))
	env := append(os.Environ(), "HOME="+home)
	run = func() error {
		cmd := exec.Command(node, bin, "hook", "--claude-code")
		cmd.Env = env
		cmd.Stdin = bytes.NewReader(event)
		return cmd.Run()
	}
	if err := run(); err != nil {
		return nil, "", fmt.Errorf("its hook failed: %v", err)
	}
	what = fmt.Sprintf("Node peer: cc-safety-net %s `hook --claude-code`, Node %s", pkg.Version, nodeVersion(node))
	return run, what, nil
}

// timePairs runs a and b in turns, n times each after a warm-up, so both
// are measured under the same load.
func timePairs(n int, a, b func() error) (sa, sb stats) {
	for i := 0; i < 5; i++ {
		a()
		b()
	}
	one := func(s *stats, f func() error) {
		t := time.Now()
		if err := f(); err != nil {
			s.fails++
			s.err = err
			return
		}
		s.d = append(s.d, time.Since(t))
	}
	t0 := time.Now()
	for i := 0; i < n; i++ {
		one(&sa, a)
		one(&sb, b)
	}
	sa.wall, sb.wall = time.Since(t0), time.Since(t0)
	sort.Slice(sa.d, func(i, j int) bool { return sa.d[i] < sa.d[j] })
	sort.Slice(sb.d, func(i, j int) bool { return sb.d[i] < sb.d[j] })
	return sa, sb
}

func nodeVersion(node string) string {
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(out))
}

// machine describes where the numbers come from.
func machine() string {
	cpu := "unknown CPU"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		if m := regexp.MustCompile(`MemTotal:\s+(\d+) kB`).FindSubmatch(b); m != nil {
			kb, _ := strconv.ParseFloat(string(m[1]), 64)
			mem = fmt.Sprintf(", %.0f GiB RAM", kb/1024/1024)
		}
	}
	kernel := ""
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = ", Linux " + strings.TrimSpace(string(b))
	}
	return fmt.Sprintf("Machine: %s, %d cores%s%s, %s, %s/%s, %s.", cpu, runtime.NumCPU(), mem, kernel,
		runtime.Version(), runtime.GOOS, runtime.GOARCH, time.Now().UTC().Format("2006-01-02"))
}

func thousands(v float64) string {
	s := strconv.FormatInt(int64(v+0.5), 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.ReplaceAll(s, "|", "/")
}

func logf(format string, a ...any) {
	if *verbose {
		fmt.Fprintf(os.Stderr, "bench: "+format+"\n", a...)
	}
}

func check(err error) {
	if err != nil {
		fatal("%v", err)
	}
}

func fatal(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "benchtable: "+format+"\n", a...)
	os.Exit(1)
}
