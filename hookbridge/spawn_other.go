//go:build !linux

package hookbridge

import (
	"context"
	"io"
	"os/exec"
	"time"
)

// spawn runs the judge with stdin and waits for it, killing it when ctx
// ends; a non-zero exit is an *exec.ExitError ("exit status 3").
func spawn(ctx context.Context, bin string, args []string, stdin []byte, stdout, stderr *limited) error {
	p, err := startJudge(ctx, bin, args, stdout, stderr)
	if err != nil {
		return err
	}
	return p.finish(ctx, stdin, nil)
}

// earlyStart: elsewhere the judge is started once the event is read and
// no server answered (see getDecision).
const earlyStart = false

// judgeProc is a judge started and not yet given its event.
type judgeProc struct {
	cmd *exec.Cmd
	in  io.WriteCloser
}

// startJudge starts bin with args, its output going to stdout and
// stderr; ctx ending kills it.
func startJudge(ctx context.Context, bin string, args []string, stdout, stderr *limited) (*judgeProc, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = judgeEnv()
	cmd.WaitDelay = 100 * time.Millisecond // a grandchild holding stdout cannot hold us
	p := &judgeProc{cmd: cmd}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	p.in = in
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return p, nil
}

// abandon kills a judge that was never given an event.
func (p *judgeProc) abandon() {
	p.cmd.Process.Kill()
	p.in.Close()
}

// finish gives the judge its event and waits for it to exit;
// whileWaiting, when set, runs in between.
func (p *judgeProc) finish(ctx context.Context, stdin []byte, whileWaiting func()) error {
	p.in.Write(stdin)
	p.in.Close()
	if whileWaiting != nil {
		whileWaiting()
	}
	return p.cmd.Wait()
}
