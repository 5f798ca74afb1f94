package hookbridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
)

// spawn runs the judge with stdin and waits for it, killing it when ctx
// ends. Linux: syscall.ForkExec, blocking pipes and wait4 instead of
// os/exec, whose first start in a process probes pidfd support by forking
// a throwaway child (about half a millisecond, paid on every fallback of
// this short-lived hook), and whose pipes go through the network poller
// (a wake-up and a thread hand-off per read). Here the calling goroutine
// writes the event and reads the answer with plain blocking system calls,
// so the kernel wakes it directly when the judge writes. A non-zero exit
// is reported as "exit status N", a signal as "signal: ...", like os/exec.
//
// An answer is complete when the judge has closed stdout after one line
// (it writes the answer last, after its audit line): then spawn returns at
// once and leaves the judge's exit to the kernel (init reaps it once the
// hook has exited), so the hook does not wait for the judge's teardown.
// Without a complete line it waits for the exit status, which names the
// failure, and reads what the judge wrote on stderr.
//
// The reads cannot time out; ctx ending kills the judge, which ends them,
// and a grandchild that keeps the pipes open is covered by Run, which
// answers deny at its deadline whatever this goroutine is doing. The judge
// reads all of stdin before it writes anything, and writes little to
// stderr (a pipe holds 64 KiB), so the order below cannot deadlock with it;
// one that does not behave is killed at the deadline.
func spawn(ctx context.Context, bin string, args []string, stdin []byte, stdout, stderr *limited) error {
	p, err := startJudge(ctx, bin, args, stdout, stderr)
	if err != nil {
		return err
	}
	return p.finish(ctx, stdin, nil)
}

// earlyStart: on Linux the hook may start the judge before it has read
// the event through (see getDecision).
const earlyStart = true

// judgeProc is a judge started and not yet given its event: until finish
// writes it, the judge can only start up and wait on stdin.
type judgeProc struct {
	pid             int
	inW, outR, errR int
	stdout, stderr  *limited
	mu              sync.Mutex
	reaped          bool
	stop            func() bool
}

// startJudge starts bin with args and pipes for its stdin, stdout and
// stderr (read into stdout and stderr by finish); ctx ending kills it.
func startJudge(ctx context.Context, bin string, args []string, stdout, stderr *limited) (*judgeProc, error) {
	var fds [6]int // in r/w, out r/w, err r/w
	for i := 0; i < 6; i += 2 {
		p := fds[i : i+2]
		if err := syscall.Pipe2(p, syscall.O_CLOEXEC); err != nil {
			closeAll(fds[:i])
			return nil, os.NewSyscallError("pipe2", err)
		}
	}
	inR, inW, outR, outW, errR, errW := fds[0], fds[1], fds[2], fds[3], fds[4], fds[5]
	pid, err := syscall.ForkExec(bin, append([]string{bin}, args...), &syscall.ProcAttr{
		Env:   judgeEnv(),
		Files: []uintptr{uintptr(inR), uintptr(outW), uintptr(errW)},
	})
	// The child has its copies (or never started): ours of its ends go.
	closeAll([]int{inR, outW, errW})
	if err != nil {
		closeAll([]int{inW, outR, errR})
		return nil, &os.PathError{Op: "fork/exec", Path: bin, Err: err}
	}
	p := &judgeProc{pid: pid, inW: inW, outR: outR, errR: errR, stdout: stdout, stderr: stderr}
	// A kill after ctx ends is sent only while the child is not yet
	// reaped, so it never hits a reused pid.
	p.stop = context.AfterFunc(ctx, p.kill)
	return p, nil
}

func (p *judgeProc) kill() {
	p.mu.Lock()
	if !p.reaped {
		syscall.Kill(p.pid, syscall.SIGKILL)
	}
	p.mu.Unlock()
}

// abandon kills a judge that was never given an event and closes our
// ends; init reaps it once the hook has exited.
func (p *judgeProc) abandon() {
	p.stop()
	p.kill()
	closeAll([]int{p.inW, p.outR, p.errR})
}

// finish gives the judge its event and waits for the answer (spawn's
// comment has the rules); whileWaiting, when set, runs in between.
func (p *judgeProc) finish(ctx context.Context, stdin []byte, whileWaiting func()) error {
	stdout, stderr := p.stdout, p.stderr
	defer p.stop()
	defer syscall.Close(p.errR)
	writeAll(p.inW, stdin)
	syscall.Close(p.inW)
	if whileWaiting != nil {
		whileWaiting()
	}
	readAll(p.outR, stdout)
	syscall.Close(p.outR)
	if ctx.Err() == nil && !stdout.over && bytes.Count(stdout.Bytes(), []byte("\n")) == 1 && bytes.HasSuffix(stdout.Bytes(), []byte("\n")) {
		return nil // not waited for: see spawn
	}
	var ws syscall.WaitStatus
	_, werr := wait4(p.pid, &ws)
	p.mu.Lock()
	p.reaped = true
	p.mu.Unlock()
	readAll(p.errR, stderr)
	switch {
	case werr != nil:
		return werr
	case ws.Exited() && ws.ExitStatus() == 0:
		return nil
	case ws.Exited():
		return fmt.Errorf("exit status %d", ws.ExitStatus())
	case ws.Signaled():
		return fmt.Errorf("signal: %v", ws.Signal())
	}
	return fmt.Errorf("wait status %v", ws)
}

// writeAll writes b to fd; it gives up when the reader is gone (EPIPE:
// SIGPIPE is ignored by the hook, see cmd/agent-guard-hook).
func writeAll(fd int, b []byte) {
	for len(b) > 0 {
		n, err := syscall.Write(fd, b)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		b = b[n:]
	}
}

// readAll reads fd to its end into w (which keeps what fits).
func readAll(fd int, w *limited) {
	var buf [16 << 10]byte
	for {
		n, err := syscall.Read(fd, buf[:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		w.Write(buf[:n])
	}
}

func closeAll(fds []int) {
	for _, fd := range fds {
		syscall.Close(fd)
	}
}

func wait4(pid int, ws *syscall.WaitStatus) (int, error) {
	for {
		wpid, err := syscall.Wait4(pid, ws, 0, nil)
		if !errors.Is(err, syscall.EINTR) {
			return wpid, err
		}
	}
}
