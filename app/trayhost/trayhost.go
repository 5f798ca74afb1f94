// Package trayhost says whether the desktop can show a tray icon. On
// Linux an icon needs a StatusNotifier host: a process owning
// org.kde.StatusNotifierWatcher on the session bus (KDE, most panels;
// stock GNOME has none without an extension). Without one the tray icon
// never appears, and the tray must say so and offer its windows another
// way.
package trayhost

// Watcher is the D-Bus name of the StatusNotifier watcher.
const Watcher = "org.kde.StatusNotifierWatcher"
