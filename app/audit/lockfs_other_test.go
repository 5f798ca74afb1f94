//go:build !linux

package audit

import "testing"

type unixStatfs struct{}

func localFS(*testing.T, string, *unixStatfs) bool { return false }
