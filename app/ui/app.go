// Package ui is agent-guard's desktop side. The tray process (Run) drives
// fyne.io/systray directly and runs no Fyne app, so it idles at 0 % CPU;
// every window (approval dialog, settings, recent decisions, menu
// screenshot, notifications off Linux) is a short-lived child process of
// the same binary (RunChild) speaking package proto over stdin/stdout.
// Only this package and its subpackages import Fyne.
package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"fyne.io/systray"

	"github.com/agent-guard/agent-guard/app/approval"
	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/autostart"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/server"
	"github.com/agent-guard/agent-guard/app/ui/model"
	"github.com/agent-guard/agent-guard/app/ui/proto"
	"github.com/agent-guard/agent-guard/assets"
	"github.com/agent-guard/agent-guard/hookbridge/pipe"
)

// Run starts the tray app and blocks until Quit. It returns the exit code.
func Run() int {
	code := 0
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "agent-guard:", err)
		return 1
	}
	paths, err := config.DefaultPaths()
	if err != nil {
		return fail(err)
	}
	cfg, cfgErr := config.Load(paths.Config)
	if cfgErr != nil {
		// Keep running on the defaults and say so: a guard that refuses to
		// start protects nothing. The status line names the error.
		cfg = config.Default()
	}
	be, err := openBackend(paths, cfg)
	if err != nil {
		return fail(err)
	}
	defer be.close()

	name, err := pipe.Name()
	if err != nil {
		return fail(err)
	}
	ln, err := pipe.Listen(name)
	if err != nil {
		if errors.Is(err, pipe.ErrInUse) {
			return fail(fmt.Errorf("%v (%s); quit the other one first", err, name))
		}
		return fail(err)
	}

	exe, _ := os.Executable()
	sp := &spawner{exe: exe}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	t := &controller{paths: paths, setConfig: be.setConfig, update: config.Update, cfg: cfg, open: openFile, window: sp.window, quit: systray.Quit}
	menu := &trayMenu{onClick: func(id string) { go t.click(id) }}
	ready := make(chan struct{})
	t.view = func(items []model.Item, icon, tip string) {
		select {
		case <-ready:
		default:
			return // systray not up yet; onReady refreshes
		}
		systray.SetIcon(assets.TrayIcon(icon))
		systray.SetTooltip(tip)
		menu.apply(items)
	}
	nt := newNotifier(sp)
	t.notify = nt.send
	t.q = approval.New(approval.Options{
		Timeout: func() time.Duration { return time.Duration(t.config().Approval.TimeoutSeconds) * time.Second },
		OnResolve: func(p approval.Pending, r approval.Result) {
			if !r.Allow && r.Decider == approval.DeciderPolicy && len(t.q.Missed()) > 0 {
				t.notify("agent-guard denied a call: no answer in time",
					model.Short(p.Item.Tool, p.Item.Input, 120)+"\nOpen the tray menu to see what was denied while you were away.")
			}
			t.resolved(p, r)
		},
	})
	if exe != "" {
		t.autostart = &autostartHooks{enabled: autostart.Enabled, enable: func() error { return autostart.Enable(exe) }, disable: autostart.Disable}
	}
	pr := newPrompter(t.q, sp.start, func(edit func(*config.Config) error) error {
		c, err := config.Update(paths.Config, edit)
		if err == nil {
			t.applyConfig(c)
		}
		return err
	}, func(err error) { t.notify("agent-guard: approval dialog failed", err.Error()) })
	t.raise = pr.raise
	go pr.run(ctx)

	srv := server.New(server.Deps{
		Judge:      be.judge,
		Config:     t.config,
		Audit:      be.audit,
		Asker:      asker{q: t.q},
		OnDecision: t.decided,
		OnProblem: func(err error) {
			fmt.Fprintln(os.Stderr, "agent-guard:", err)
		},
	})
	srvDone := make(chan error, 1)
	go func() { srvDone <- srv.Serve(ctx, ln) }()

	go func() {
		if err := config.Watch(ctx, paths.Config, t.applyConfig, t.configError); err != nil {
			t.configError(err)
		}
	}()
	if cfgErr != nil {
		t.configError(cfgErr)
	}

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-sig:
			systray.Quit()
		case err := <-srvDone:
			if err != nil {
				fmt.Fprintln(os.Stderr, "agent-guard: the pipe server stopped:", err)
				code = 1
			}
			systray.Quit()
		}
	}()

	fmt.Fprintf(os.Stderr, "agent-guard: tray running; config %s, audit %s, pipe %s\n", paths.Config, paths.Audit, name)
	systray.Run(func() {
		systray.SetTitle("agent-guard")
		close(ready)
		t.refresh()
	}, func() {
		cancel()
	})
	cancel()
	return code
}

// notifier sends desktop notifications: DBus on Linux, a child process
// elsewhere; on failure the text goes to stderr, so nothing is silent.
type notifier struct{ sp *spawner }

func newNotifier(sp *spawner) *notifier { return &notifier{sp: sp} }

func (n *notifier) send(title, body string) {
	fmt.Fprintf(os.Stderr, "agent-guard: %s: %s\n", title, body)
	go func() {
		err := notifyNative(title, body)
		if errors.Is(err, errors.ErrUnsupported) {
			err = n.sp.window(proto.VerbNotify, notifyReq{Title: title, Body: body})
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "agent-guard: notification not shown (%v)\n", err)
		}
	}()
}

// backend is the guard: judge, audit log and the config swap.
type backend struct {
	judge     server.Judger
	audit     server.AuditLog
	setConfig func(*config.Config)
	close     func()
}

var _ = audit.Entry{}
