//go:build !nogui

// Package settings is the Thresholds… window: the four thresholds as
// sliders with their values, degrade_ask_to_deny, the approval timeout,
// full-access handling and whether a TypeSafe key is set (never shown).
// Saving goes through the caller's save func (config.Update in the app),
// so the tray and hand edits never lose each other's changes.
package settings

import (
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agent-guard/agent-guard/app/config"
)

// Values are the settings this window edits.
type Values struct {
	BlockRisk, ConfirmRisk           float64
	BlockViolation, ConfirmViolation float64
	DegradeAskToDeny                 bool
	TimeoutSeconds                   int
	Mode                             string // "dialog" | "agent"
}

// Timeout slider bounds (config allows up to 3600; longer than 10 min
// only by hand).
const (
	MinTimeout = 5
	MaxTimeout = 600
)

// FromConfig reads the values out of c.
func FromConfig(c *config.Config) Values {
	return Values{
		BlockRisk: c.BlockRisk, ConfirmRisk: c.ConfirmRisk,
		BlockViolation: c.BlockViolation, ConfirmViolation: c.ConfirmViolation,
		DegradeAskToDeny: c.DegradeAskToDeny, TimeoutSeconds: c.Approval.TimeoutSeconds, Mode: c.Approval.Mode,
	}
}

// Apply writes v into c, leaving every other key alone.
func (v Values) Apply(c *config.Config) {
	c.BlockRisk, c.ConfirmRisk = v.BlockRisk, v.ConfirmRisk
	c.BlockViolation, c.ConfirmViolation = v.BlockViolation, v.ConfirmViolation
	c.DegradeAskToDeny = v.DegradeAskToDeny
	c.Approval.TimeoutSeconds = v.TimeoutSeconds
	c.Approval.Mode = v.Mode
}

// Validate enforces confirm below block, with messages a user can act on.
func (v Values) Validate() error {
	var errs []string
	if v.ConfirmRisk >= v.BlockRisk {
		errs = append(errs, fmt.Sprintf("Confirm risk (%.1f) must be below block risk (%.1f).", v.ConfirmRisk, v.BlockRisk))
	}
	if v.ConfirmViolation >= v.BlockViolation {
		errs = append(errs, fmt.Sprintf("Confirm red-line probability (%.2f) must be below block (%.2f).", v.ConfirmViolation, v.BlockViolation))
	}
	if v.TimeoutSeconds < MinTimeout || v.TimeoutSeconds > 3600 {
		errs = append(errs, fmt.Sprintf("Approval timeout must be %d to 3600 seconds.", MinTimeout))
	}
	if v.Mode != "dialog" && v.Mode != "agent" {
		errs = append(errs, "Choose how to confirm under full access.")
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, " "))
	}
	return nil
}

// View is the settings window.
type View struct {
	Window fyne.Window
	vals   Values
	save   func(Values) error

	blockRisk, confirmRisk, blockViol, confirmViol, timeout *widget.Slider
	degrade                                                 *widget.Check
	mode                                                    *widget.RadioGroup
	message                                                 *widget.Label
	saveBtn                                                 *widget.Button
}

const (
	modeDialog = "agent-guard's own dialog (recommended)"
	modeAgent  = "the agent's own ask (less safe under full access)"
)

// New builds the window. keyStatus describes the TypeSafe key (already
// masked). save persists the values; the window closes after a save.
func New(a fyne.App, v Values, keyStatus string, save func(Values) error) *View {
	s := &View{vals: v, save: save}
	w := a.NewWindow("agent-guard — thresholds and settings")
	s.Window = w

	s.blockRisk = s.slider(0, 3, 0.1, v.BlockRisk)
	s.confirmRisk = s.slider(0, 3, 0.1, v.ConfirmRisk)
	s.blockViol = s.slider(0, 1, 0.01, v.BlockViolation)
	s.confirmViol = s.slider(0, 1, 0.01, v.ConfirmViolation)
	s.timeout = s.slider(MinTimeout, MaxTimeout, 5, float64(min(max(v.TimeoutSeconds, MinTimeout), MaxTimeout)))
	s.degrade = widget.NewCheck("When the agent's ask cannot be trusted, deny instead of asking", func(bool) { s.changed() })
	s.degrade.SetChecked(v.DegradeAskToDeny)
	s.mode = widget.NewRadioGroup([]string{modeDialog, modeAgent}, func(string) { s.changed() })
	if v.Mode == "agent" {
		s.mode.SetSelected(modeAgent)
	} else {
		s.mode.SetSelected(modeDialog)
	}
	s.mode.Required = true
	s.message = widget.NewLabel("")
	s.message.Wrapping = fyne.TextWrapWord
	s.message.Importance = widget.DangerImportance
	s.saveBtn = widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), s.Save)
	s.saveBtn.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel", w.Close)

	vals := func(sl *widget.Slider, format string, scale float64) fyne.CanvasObject {
		l := widget.NewLabel("")
		upd := func() { l.SetText(fmt.Sprintf(format, sl.Value*scale)) }
		prev := sl.OnChanged
		sl.OnChanged = func(f float64) { upd(); prev(f) }
		upd()
		return container.NewBorder(nil, nil, nil, l, sl)
	}
	form := container.New(layout.NewFormLayout(),
		bold("Block at risk ≥"), vals(s.blockRisk, "%.1f of 3", 1),
		bold("Confirm at risk ≥"), vals(s.confirmRisk, "%.1f of 3", 1),
		bold("Block at red-line probability ≥"), vals(s.blockViol, "%3.0f %%", 100),
		bold("Confirm at red-line probability ≥"), vals(s.confirmViol, "%3.0f %%", 100),
		bold("Approval timeout"), vals(s.timeout, "%.0f s", 1),
	)
	content := container.NewVBox(
		widget.NewLabelWithStyle("Thresholds", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		form,
		widget.NewSeparator(),
		widget.NewLabelWithStyle("Under full access, confirm with", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		s.mode,
		s.degrade,
		widget.NewSeparator(),
		container.NewHBox(bold("TypeSafe key"), widget.NewLabel(keyStatus)),
		s.message,
		container.NewHBox(layout.NewSpacer(), cancel, s.saveBtn),
	)
	w.SetContent(container.NewPadded(container.New(&minWidth{560}, content)))
	s.changed()
	return s
}

func bold(s string) *widget.Label {
	return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

func (s *View) slider(lo, hi, step, val float64) *widget.Slider {
	sl := widget.NewSlider(lo, hi)
	sl.Step = step
	sl.Value = val
	sl.OnChanged = func(float64) { s.changed() }
	return sl
}

// Current is the values as the widgets show them.
func (s *View) Current() Values {
	v := s.vals
	v.BlockRisk, v.ConfirmRisk = round(s.blockRisk.Value, 10), round(s.confirmRisk.Value, 10)
	v.BlockViolation, v.ConfirmViolation = round(s.blockViol.Value, 100), round(s.confirmViol.Value, 100)
	v.TimeoutSeconds = int(s.timeout.Value + 0.5)
	v.DegradeAskToDeny = s.degrade.Checked
	v.Mode = "dialog"
	if s.mode.Selected == modeAgent {
		v.Mode = "agent"
	}
	return v
}

func round(f, k float64) float64 { return float64(int(f*k+0.5)) / k }

// changed re-validates: an invalid combination disables Save and says why.
func (s *View) changed() {
	if s.saveBtn == nil {
		return
	}
	if err := s.Current().Validate(); err != nil {
		s.message.SetText(err.Error())
		s.saveBtn.Disable()
		return
	}
	s.message.SetText("")
	s.saveBtn.Enable()
}

// Save validates and persists; on success the window closes, on failure
// the message says what went wrong and the window stays open.
func (s *View) Save() {
	v := s.Current()
	if err := v.Validate(); err != nil {
		s.message.SetText(err.Error())
		return
	}
	if err := s.save(v); err != nil {
		s.message.SetText("Could not save: " + err.Error())
		return
	}
	s.Window.Close()
}

type minWidth struct{ w float32 }

func (m *minWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Resize(size)
		o.Move(fyne.NewPos(0, 0))
	}
}

func (m *minWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	s.Width = max(s.Width, m.w)
	return s
}
