module github.com/agent-guard/agent-guard

go 1.26.8

require (
	fyne.io/fyne/v2 v2.8.1 // indirect
	github.com/Microsoft/go-winio v0.6.4 // indirect
	github.com/fsnotify/fsnotify v1.10.1 // indirect
	github.com/godbus/dbus/v5 v5.2.4 // indirect
	golang.org/x/sys v0.50.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
