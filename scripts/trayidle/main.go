// Command trayidle measures the tray app at rest: it builds agent-guard,
// starts the tray in a temp home (with a private session bus when
// dbus-daemon is installed, so the tray icon registers as on a desktop),
// waits for it to settle and then samples its CPU time and resident memory
// from /proc for a while. Linux only. Run via scripts/tray-idle.sh; the
// last line of output is the result (the README and scripts/bench.sh use it).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

func main() {
	seconds := flag.Int("seconds", 20, "how long to sample")
	warmup := flag.Duration("warmup", 3*time.Second, "settle time before sampling")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("tray-idle: ")
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		die("needs Linux /proc")
	}
	tmp, err := os.MkdirTemp("", "agent-guard-idle-")
	if err != nil {
		die("%v", err)
	}
	atExit(func() { os.RemoveAll(tmp) })

	bin := filepath.Join(tmp, "agent-guard")
	build := exec.Command("go", "build", "-o", bin, "./cmd/agent-guard")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		die("go build: %v", err)
	}

	env := append(os.Environ(),
		"AGENT_GUARD_HOME="+filepath.Join(tmp, "home"),
		"AGENT_GUARD_PIPE="+filepath.Join(tmp, "pipe.sock"),
		"HOME="+tmp, "TYPESAFE_API_KEY=")
	bus := "none (no dbus-daemon)"
	if _, err := exec.LookPath("dbus-daemon"); err == nil {
		d := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address")
		out, _ := d.StdoutPipe()
		if err := d.Start(); err == nil {
			atExit(func() { _ = d.Process.Kill(); _ = d.Wait() })
			s := bufio.NewScanner(out)
			if s.Scan() {
				env = append(env, "DBUS_SESSION_BUS_ADDRESS="+strings.TrimSpace(s.Text()))
				bus = "private session bus"
			}
		}
	}

	tray := exec.Command(bin)
	tray.Env = env
	trayLog, _ := os.Create(filepath.Join(tmp, "tray.log"))
	tray.Stdout, tray.Stderr = trayLog, trayLog
	if err := tray.Start(); err != nil {
		die("%v", err)
	}
	atExit(func() { stop(tray) })
	pid := tray.Process.Pid

	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(tmp, "pipe.sock")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(tmp, "tray.log"))
			die("the tray did not open its pipe in 30 s:\n%s", b)
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(*warmup)

	hz := clockTicks()
	t0, start := cpuTicks(pid), time.Now()
	maxRSS := 0
	for time.Since(start) < time.Duration(*seconds)*time.Second {
		time.Sleep(time.Second)
		maxRSS = max(maxRSS, statusKB(pid, "VmRSS"))
	}
	ticks, wall := cpuTicks(pid)-t0, time.Since(start)
	cpu := 100 * float64(ticks) / float64(hz) / wall.Seconds()
	fmt.Printf("sampled %s after %s warm-up; bus: %s; threads: %d; clock %d Hz\n",
		wall.Round(time.Second), *warmup, bus, statusKB(pid, "Threads"), hz)
	runCleanups()
	fmt.Printf("tray idle: CPU %.2f %% over %.0f s (%d ticks), RSS %.1f MiB\n",
		cpu, wall.Seconds(), ticks, float64(maxRSS)/1024)
}

// cpuTicks is utime+stime of pid in clock ticks.
func cpuTicks(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		die("the tray exited: %v", err)
	}
	// Fields after the command name in parentheses (which may hold spaces).
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return u + s
}

// statusKB reads a numeric field of /proc/pid/status.
func statusKB(pid int, key string) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			n, _ := strconv.Atoi(strings.Fields(v)[0])
			return n
		}
	}
	return 0
}

func clockTicks() int {
	out, err := exec.Command("getconf", "CLK_TCK").Output()
	if n, e := strconv.Atoi(strings.TrimSpace(string(out))); err == nil && e == nil && n > 0 {
		return n
	}
	return 100
}

// Cleanups run on every exit path, so a failed run leaves no X server or
// tray behind.
var cleanups []func()

func atExit(f func()) { cleanups = append(cleanups, f) }

func runCleanups() {
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	cleanups = nil
}

func die(format string, args ...any) {
	log.Printf(format, args...)
	runCleanups()
	os.Exit(1)
}

// stop asks a child to end and makes sure it does.
func stop(c *exec.Cmd) {
	if c.Process == nil {
		return
	}
	_ = c.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = c.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = c.Process.Kill()
		<-done
	}
}
