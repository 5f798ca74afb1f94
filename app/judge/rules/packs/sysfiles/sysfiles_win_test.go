package sysfiles

import "testing"

func TestPkRegHive(t *testing.T) {
	cases := map[string]string{
		`HKLM\Software\X`:             "machine",
		`HKEY_LOCAL_MACHINE\SYSTEM`:   "machine",
		`hkcu\software\x`:             "user",
		`Registry::HKEY_CURRENT_USER`: "user",
		`C:\temp`:                     "",
	}
	for k, want := range cases {
		if got := pkRegHive(k); got != want {
			t.Errorf("pkRegHive(%q) = %q, want %q", k, got, want)
		}
	}
}
