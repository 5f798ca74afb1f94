package self

// A file that the system runs by itself later (a login entry, a systemd
// user unit or timer, a launchd agent, a crontab file, a shell start-up
// file) is code the guard will never see run: nothing asks it again when
// the unit starts or the next shell opens. Writing one whose commands
// stop, move or rewrite the guard is the same self-protection breach as
// running them now, so it blocks (scripts run by hand later only
// confirm: running them is another call the guard judges).
