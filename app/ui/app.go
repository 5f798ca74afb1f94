//go:build !nogui

// Package ui is agent-guard's desktop side. The tray process (Run) drives
// fyne.io/systray directly and runs no Fyne app, so it idles at 0 % CPU;
// every window (approval dialog, settings, recent decisions, menu
// screenshot, notifications off Linux) is a short-lived child process of
// the same binary (RunChild) speaking package proto over stdin/stdout.
// Only this package and its subpackages import Fyne.
package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"fyne.io/systray"

	"github.com/agent-guard/agent-guard/app/approval"
	"github.com/agent-guard/agent-guard/app/autostart"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/pipe"
	"github.com/agent-guard/agent-guard/app/server"
	"github.com/agent-guard/agent-guard/app/ui/model"
	"github.com/agent-guard/agent-guard/app/ui/proto"
	"github.com/agent-guard/agent-guard/assets"
)

// SnapshotEnv names a file the tray rewrites with its menu state (JSON of
// model.State) on every change. scripts/screenshots.sh uses it to draw the
// real tray's menu where no tray host exists (Xvfb).
const SnapshotEnv = "AGENT_GUARD_MENU_SNAPSHOT"

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
	// The config in force is the last one the user accepted plus any
	// strengthening since; a weakening on disk waits (config.Resolve).
	st, cfgErr := config.Resolve(paths.Config)
	cfg := st.InForce
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
	listen := func() (net.Listener, error) {
		ln, err := pipe.Listen(name)
		if errors.Is(err, pipe.ErrInUse) {
			err = fmt.Errorf("%v (%s); quit the other one first", err, name)
		}
		return ln, err
	}
	var ln net.Listener
	if cfgErr == nil {
		if ln, err = listen(); err != nil {
			return fail(err)
		}
	}

	exe, _ := os.Executable()
	sp := newSpawner(exe)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	t := &controller{paths: paths, setConfig: be.setConfig, update: config.Update, cfg: cfg, open: openFile, window: sp.window, ask: sp.ask, quit: systray.Quit}
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
			t.resolved(p, r, r.TimedOut)
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
	pr.config = t.config
	startWindows(ctx, t, sp, nt, pr, name)
	pr.afterAlways = func(added []config.ScopedApproval, lines []string) { showUndo(sp, nt, paths.Config, added, lines) }
	go func() {
		// Every queue change (new, answered, timed out, withdrawn) shows
		// in the icon, the status line and the pending list.
		sub, stop := t.q.Subscribe()
		defer stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-sub:
				t.refresh()
			}
		}
	}()
	if path := os.Getenv(SnapshotEnv); path != "" {
		t.snapshot = func(s model.State) {
			if b, err := json.Marshal(s); err == nil {
				_ = config.WriteFileAtomic(path, b)
			}
		}
	}
	go pr.run(ctx)
	t.watchDepends(ctx, exe)

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
	var serveOnce sync.Once
	serve := func() {
		serveOnce.Do(func() {
			l := ln
			if l == nil {
				var err error
				if l, err = listen(); err != nil {
					srvDone <- err
					return
				}
			}
			go func() { srvDone <- srv.Serve(ctx, l) }()
		})
	}
	// With a broken config file at start there is no last good config:
	// judging with the defaults could be looser than what the user wrote.
	// Until the file is fixed the pipe stays closed, so the hook judges
	// in-process and fails closed on the same broken file. (Not even
	// listening: a connection nobody serves would only make hooks wait.)
	if cfgErr == nil {
		serve()
	} else {
		t.configError(cfgErr)
	}
	onState := func(st config.State) { t.configState(st); serve() }

	go func() {
		if err := config.WatchState(ctx, paths.Config, onState, t.configError); err != nil {
			t.configError(err)
		}
	}()
	go func() {
		// Persist the judgment cache now and then, so a restart keeps it.
		tk := time.NewTicker(10 * time.Minute)
		defer tk.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
				_ = be.saveCache()
			}
		}
	}()

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
	saveCache func() error
	close     func()
}
