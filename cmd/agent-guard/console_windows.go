//go:build windows

package main

import (
	"os"
	"strings"

	"golang.org/x/sys/windows"
)

// The release tray is linked with -H=windowsgui, so Windows gives it no
// console and `agent-guard install --zcode` typed in cmd or PowerShell
// would print nothing. For a CLI verb, attach to the parent's console and
// point the standard streams that have no usable handle at it; streams
// redirected to a file or pipe (and the window children's pipes) are left
// alone. In a console build AttachConsole fails and nothing changes.
func init() {
	if len(os.Args) < 2 || strings.HasPrefix(os.Args[1], "ui-") {
		return
	}
	attach := windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")
	const attachParentProcess = ^uintptr(0) // (DWORD)-1
	if attach.Find() != nil {
		return
	}
	if r, _, _ := attach.Call(attachParentProcess); r == 0 {
		return // no parent console (Explorer, Task Scheduler) or already one
	}
	rebind(&os.Stdout, "CONOUT$", os.O_WRONLY)
	rebind(&os.Stderr, "CONOUT$", os.O_WRONLY)
	rebind(&os.Stdin, "CONIN$", os.O_RDONLY)
}

func rebind(f **os.File, name string, flag int) {
	if *f != nil {
		if h := windows.Handle((*f).Fd()); h != 0 && h != windows.InvalidHandle {
			return
		}
	}
	if c, err := os.OpenFile(name, flag, 0); err == nil {
		*f = c
	}
}
