//go:build !linux

package hookbridge

import (
	"bytes"
	"context"
	"os/exec"
	"time"
)

// spawn runs the judge with stdin and waits for it, killing it when ctx
// ends; a non-zero exit is an *exec.ExitError ("exit status 3").
func spawn(ctx context.Context, bin string, args []string, stdin []byte, stdout, stderr *limited) error {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = judgeEnv()
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 100 * time.Millisecond // a grandchild holding stdout cannot hold us
	return cmd.Run()
}
