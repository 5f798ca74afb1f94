package hookbridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"
)

// spawn runs the judge with stdin and waits for it, killing it when ctx
// ends. Linux: syscall.ForkExec and wait4 instead of os/exec, whose first
// start in a process probes pidfd support by forking a throwaway child
// (about half a millisecond, paid on every fallback of this short-lived
// hook). A non-zero exit is reported as "exit status N", a signal as
// "signal: ...", like os/exec.
//
// An answer is complete when the judge has closed stdout after one line
// (it writes the answer last, after its audit line): then spawn returns at
// once and leaves the judge's exit to the kernel, so the hook does not
// wait for the judge's teardown. Without a complete line it waits for the
// exit status, which names the failure.
func spawn(ctx context.Context, bin string, args []string, stdin []byte, stdout, stderr *limited) error {
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return err
	}
	pid, err := syscall.ForkExec(bin, append([]string{bin}, args...), &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{inR.Fd(), outW.Fd(), errW.Fd()},
	})
	// The child has its copies (or never started): ours of its ends go.
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return &os.PathError{Op: "fork/exec", Path: bin, Err: err}
	}
	go func() { // the event may be larger than the pipe's buffer
		inW.Write(stdin)
		inW.Close()
	}()

	// wait4 in its own goroutine; a kill after ctx ends is sent only while
	// the child is not yet reaped, so it never hits a reused pid.
	var mu sync.Mutex
	reaped := false
	status := make(chan error, 1)
	go func() {
		var ws syscall.WaitStatus
		_, werr := wait4(pid, &ws)
		mu.Lock()
		reaped = true
		mu.Unlock()
		switch {
		case werr != nil:
			status <- werr
		case ws.Exited() && ws.ExitStatus() == 0:
			status <- nil
		case ws.Exited():
			status <- fmt.Errorf("exit status %d", ws.ExitStatus())
		case ws.Signaled():
			status <- fmt.Errorf("signal: %v", ws.Signal())
		default:
			status <- fmt.Errorf("wait status %v", ws)
		}
	}()
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		if !reaped {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		mu.Unlock()
		// A grandchild holding the pipes cannot hold us.
		deadline := time.Now().Add(100 * time.Millisecond)
		outR.SetReadDeadline(deadline)
		errR.SetReadDeadline(deadline)
	})
	defer stop()
	errDone := make(chan struct{})
	go func() {
		io.Copy(stderr, errR)
		errR.Close()
		close(errDone)
	}()
	io.Copy(stdout, outR)
	if ctx.Err() == nil && !stdout.over && bytes.Count(stdout.Bytes(), []byte("\n")) == 1 && bytes.HasSuffix(stdout.Bytes(), []byte("\n")) {
		outR.Close()
		return nil // the reaper goroutine collects the exit status
	}
	werr := <-status
	<-errDone
	outR.Close()
	return werr
}

func wait4(pid int, ws *syscall.WaitStatus) (int, error) {
	for {
		wpid, err := syscall.Wait4(pid, ws, 0, nil)
		if !errors.Is(err, syscall.EINTR) {
			return wpid, err
		}
	}
}
