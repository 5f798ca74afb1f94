//go:build !nogui

package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/ui/accept"
	"github.com/agent-guard/agent-guard/app/ui/model"
	"github.com/agent-guard/agent-guard/app/ui/pending"
	"github.com/agent-guard/agent-guard/app/ui/prompt"
	"github.com/agent-guard/agent-guard/app/ui/proto"
	"github.com/agent-guard/agent-guard/app/ui/recent"
	"github.com/agent-guard/agent-guard/app/ui/rules"
	"github.com/agent-guard/agent-guard/app/ui/settings"
	"github.com/agent-guard/agent-guard/app/ui/status"
	"github.com/agent-guard/agent-guard/assets"
)

// AppID is the Fyne app id (FyneApp.toml).
const AppID = "ai.agentguard.tray"

// RunChild runs a hidden window verb (the tray starts these as child
// processes). ok is false when args[0] is not one of them.
func RunChild(args []string) (code int, ok bool) {
	if len(args) == 0 {
		return 0, false
	}
	switch args[0] {
	case proto.VerbPrompt:
		return runPrompt(), true
	case proto.VerbSettings:
		return runSettings(), true
	case proto.VerbRecent:
		return runRecent(), true
	case proto.VerbNotify:
		return runNotify(), true
	case proto.VerbMenu:
		return runMenu(), true
	case accept.Verb:
		return runAccept(), true
	case proto.VerbRules:
		return runRules(), true
	case proto.VerbPending:
		return runPending(), true
	case proto.VerbUndo:
		return runUndo(), true
	case proto.VerbStatus:
		return runStatus(), true
	}
	if args[0] == WindowVerb {
		if len(args) != 2 || !windowVerbs[args[1]] {
			fmt.Fprintln(os.Stderr, WindowUsage)
			return 2, true
		}
		return runWindowVerb(args[1]), true
	}
	if shortWindowVerbs[args[0]] {
		if len(args) != 1 {
			fmt.Fprintln(os.Stderr, WindowUsage)
			return 2, true
		}
		return runWindowVerb(args[0]), true
	}
	return 0, false
}

func newApp() fyne.App {
	a := app.NewWithID(AppID)
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	return a
}

func readPayload(v any) error {
	s := proto.NewScanner(os.Stdin)
	if !s.Scan() {
		if err := s.Err(); err != nil {
			return err
		}
		return fmt.Errorf("no request on stdin")
	}
	return json.Unmarshal(s.Bytes(), v)
}

func childFail(verb string, err error) int {
	fmt.Fprintf(os.Stderr, "agent-guard %s: %v\n", verb, err)
	return 1
}

// runPrompt shows one approval. The reply goes to stdout; control lines
// from the tray (close, raise, queue) arrive on stdin.
func runPrompt() int {
	s := proto.NewScanner(os.Stdin)
	if !s.Scan() {
		return childFail(proto.VerbPrompt, fmt.Errorf("no prompt on stdin"))
	}
	var p proto.Prompt
	if err := json.Unmarshal(s.Bytes(), &p); err != nil {
		return childFail(proto.VerbPrompt, err)
	}
	a := newApp()
	reply := func(r proto.Reply) {
		if err := proto.Write(os.Stdout, r); err != nil {
			fmt.Fprintf(os.Stderr, "agent-guard %s: cannot send the answer: %v\n", proto.VerbPrompt, err)
		}
	}
	// The window is built once the driver runs: only then can the screen
	// size be read, and the dialog is sized to stay on the screen.
	a.Lifecycle().SetOnStarted(func() {
		v := prompt.New(a, p, time.Now, reply, screenSize(1))
		go func() {
			for s.Scan() {
				var c proto.Control
				if json.Unmarshal(s.Bytes(), &c) != nil {
					continue
				}
				switch c.Type {
				case "close":
					fyne.Do(a.Quit)
					return
				case "raise":
					fyne.Do(func() { v.Window.Show(); v.Window.RequestFocus() })
				case "queue":
					n := c.Queue
					fyne.Do(func() { v.SetQueue(n) })
				}
			}
			// The tray went away: nobody can take an answer any more.
			fyne.Do(a.Quit)
		}()
		go func() {
			for range time.Tick(time.Second) {
				fyne.Do(v.Tick)
			}
		}()
		v.Window.CenterOnScreen()
		v.Window.Show()
		v.Window.RequestFocus()
		v.FocusDeny()
	})
	a.Run()
	return 0
}

func runSettings() int {
	var req settingsReq
	if err := readPayload(&req); err != nil {
		return childFail(proto.VerbSettings, err)
	}
	cfg, err := config.Load(req.ConfigPath)
	if err != nil {
		return childFail(proto.VerbSettings, err)
	}
	a := newApp()
	v := settings.New(a, settings.FromConfig(cfg), req.KeyStatus, func(vals settings.Values) error {
		_, err := config.Update(req.ConfigPath, func(c *config.Config) error { vals.Apply(c); return nil })
		return err
	})
	v.Window.CenterOnScreen()
	v.Window.Show()
	a.Run()
	return 0
}

func runRecent() int {
	var req recentReq
	if err := readPayload(&req); err != nil {
		return childFail(proto.VerbRecent, err)
	}
	entries := req.Entries
	if entries == nil && req.AuditPath != "" {
		var err error
		if entries, err = audit.ReadLast(req.AuditPath, recent.Limit); err != nil {
			return childFail(proto.VerbRecent, err)
		}
	}
	a := newApp()
	v := recent.New(a, entries, req.Title, req.Note)
	v.Window.CenterOnScreen()
	v.Window.Show()
	a.Run()
	return 0
}

// runNotify sends one notification through Fyne (macOS, Windows) and
// exits once it has had time to be delivered.
func runNotify() int {
	var req notifyReq
	if err := readPayload(&req); err != nil {
		return childFail(proto.VerbNotify, err)
	}
	a := newApp()
	a.Lifecycle().SetOnStarted(func() {
		a.SendNotification(fyne.NewNotification(req.Title, req.Body))
		go func() { time.Sleep(3 * time.Second); fyne.Do(a.Quit) }()
	})
	a.Run()
	return 0
}

// runMenu renders the tray menu model in a window, for screenshots on
// machines without a tray host (Xvfb).
func runMenu() int {
	var st model.State
	if err := readPayload(&st); err != nil {
		return childFail(proto.VerbMenu, err)
	}
	a := newApp()
	w := menuWindow(a, st)
	w.Show()
	a.Run()
	return 0
}

// runAccept asks the user to accept a waiting config change; the one
// answer goes to stdout, the pipe the tray made for this child.
func runAccept() int {
	var req accept.Request
	if err := readPayload(&req); err != nil {
		return childFail(accept.Verb, err)
	}
	a := newApp()
	v := accept.New(a, req, func(r accept.Reply) {
		if err := proto.Write(os.Stdout, r); err != nil {
			fmt.Fprintf(os.Stderr, "agent-guard %s: cannot send the answer: %v\n", accept.Verb, err)
		}
	})
	v.Window.CenterOnScreen()
	v.Window.Show()
	v.Window.RequestFocus()
	v.FocusDeny()
	a.Run()
	return 0
}

type rulesReq struct {
	ConfigPath string `json:"config_path"`
}

func runRules() int {
	var req rulesReq
	if err := readPayload(&req); err != nil {
		return childFail(proto.VerbRules, err)
	}
	a := newApp()
	v := rules.New(a, req.ConfigPath)
	v.Window.CenterOnScreen()
	v.Window.Show()
	a.Run()
	return 0
}

func runUndo() int {
	var req undoReq
	if err := readPayload(&req); err != nil {
		return childFail(proto.VerbUndo, err)
	}
	a := newApp()
	v := rules.NewUndo(a, req.ConfigPath, req.IDs, req.Lines, req.Scope, 30*time.Second)
	v.Window.CenterOnScreen()
	v.Window.Show()
	a.Run()
	return 0
}

func runStatus() int {
	a := newApp()
	w := status.New(a, func(verb string) error {
		ok, err := askTray(verb)
		if !ok && err == nil {
			err = fmt.Errorf("the agent-guard tray is not answering")
		}
		return err
	})
	w.CenterOnScreen()
	w.Show()
	a.Run()
	return 0
}

// runPending is the queue window, a child of the tray: the list comes on
// stdin (proto.PendingList lines), requests go to stdout.
func runPending() int {
	in := proto.NewScanner(os.Stdin)
	a := newApp()
	v := pending.New(a, time.Now, func(act proto.PendingAction) {
		if err := proto.Write(os.Stdout, act); err != nil {
			fmt.Fprintf(os.Stderr, "agent-guard %s: %v\n", proto.VerbPending, err)
		}
	})
	go func() {
		for in.Scan() {
			var l proto.PendingList
			if json.Unmarshal(in.Bytes(), &l) != nil {
				continue
			}
			fyne.Do(func() { v.SetItems(l.Items) })
		}
		fyne.Do(a.Quit) // the tray went away
	}()
	go func() {
		for range time.Tick(time.Second) {
			fyne.Do(v.Window.Content().Refresh) // the waiting times
		}
	}()
	v.Window.CenterOnScreen()
	v.Window.Show()
	a.Run()
	return 0
}

// runWindowVerb is `agent-guard window settings|rules|recent|pending|status`
// (or `agent-guard settings|recent|pending`) typed in a terminal: the
// running tray opens its own window; without a tray, the settings, rules
// and recent windows open here (the pending list and the status window
// exist only in a running tray).
func runWindowVerb(verb string) int {
	ok, err := askTray(verb)
	switch {
	case ok && err == nil:
		fmt.Fprintf(os.Stderr, "agent-guard: the running tray opens its %s window\n", verb)
		return 0
	case ok:
		fmt.Fprintf(os.Stderr, "agent-guard: the tray could not open the %s window: %v\n", verb, err)
		return 1
	}
	paths, perr := config.DefaultPaths()
	if perr != nil {
		return childFail(verb, perr)
	}
	a := newApp()
	var w fyne.Window
	switch verb {
	case "rules":
		w = rules.New(a, paths.Config).Window
	case "settings":
		cfg, err := config.Load(paths.Config)
		if err != nil {
			return childFail(verb, err)
		}
		w = settings.New(a, settings.FromConfig(cfg), keyStatus(), func(vals settings.Values) error {
			_, err := config.Update(paths.Config, func(c *config.Config) error { vals.Apply(c); return nil })
			return err
		}).Window
	case "recent":
		entries, err := audit.ReadLast(paths.Audit, recent.Limit)
		if err != nil {
			return childFail(verb, err)
		}
		w = recent.New(a, entries, "", "").Window
	case "pending":
		fmt.Fprintln(os.Stderr, "agent-guard: the tray is not running, so nothing is pending (without the tray, hooks judge in-process and a confirm becomes deny). Start it with: agent-guard")
		return 1
	default:
		fmt.Fprintf(os.Stderr, "agent-guard: the tray is not running, so it has no %s window. Start it with: agent-guard\n", verb)
		return 1
	}
	w.CenterOnScreen()
	w.Show()
	a.Run()
	return 0
}
