//go:build !windows

package sharedfile

import "os"

// Refused: Unix never refuses a rename or an open because of open handles.
func Refused(error) bool { return false }

func openShared(path string) (*os.File, error) { return os.Open(path) }
