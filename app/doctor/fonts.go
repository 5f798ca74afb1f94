package doctor

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// cjkFix is how to get a font that draws Chinese on Debian and Ubuntu.
const cjkFix = "sudo apt-get install fonts-wqy-microhei (or fonts-noto-cjk)"

// fcTimeout bounds fc-list, which builds its cache on a first run.
const fcTimeout = 15 * time.Second

// checkFonts says whether the dialog can draw Chinese (file names, commit
// messages and its own Chinese labels): without a CJK font they show as
// empty boxes. Windows and macOS ship such fonts; elsewhere fontconfig is
// asked.
func checkFonts(ctx context.Context, r *report) { checkFontsOn(ctx, r, runtime.GOOS) }

func checkFontsOn(ctx context.Context, r *report, goos string) {
	switch goos {
	case "windows":
		r.ok("fonts: Windows ships fonts that draw Chinese (Microsoft YaHei)")
		return
	case "darwin":
		r.ok("fonts: macOS ships fonts that draw Chinese (PingFang)")
		return
	}
	ctx, cancel := context.WithTimeout(ctx, fcTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "fc-list", ":lang=zh", "family").Output()
	switch {
	case errors.Is(err, exec.ErrNotFound):
		r.note("fonts: fc-list (fontconfig) is not installed, so whether Chinese can be drawn is unknown; the approval dialog needs a CJK font for Chinese text: %s", cjkFix)
		return
	case ctx.Err() != nil:
		r.note("fonts: fc-list did not answer in %s, so whether Chinese can be drawn is unknown; the approval dialog needs a CJK font for Chinese text: %s", fcTimeout, cjkFix)
		return
	case err != nil:
		r.note("fonts: fc-list failed (%v), so whether Chinese can be drawn is unknown; the approval dialog needs a CJK font for Chinese text: %s", err, cjkFix)
		return
	}
	list := strings.TrimSpace(string(out))
	if list == "" {
		r.fix("fonts: no font that draws Chinese is installed (fc-list :lang=zh lists none): the approval dialog would show Chinese commands, file names and labels as empty boxes; install one: %s", cjkFix)
		return
	}
	// A line is "Family,Alias,..."; its first name is enough.
	first, _, _ := strings.Cut(strings.SplitN(list, "\n", 2)[0], ",")
	r.ok("fonts: Chinese can be drawn (%s)", first)
}
