//go:build !windows

package cache

import "os"

// replaceRefused: Unix never refuses a rename because of open handles.
func replaceRefused(error) bool { return false }

// openShared opens the cache file for reading; on Unix a reader and a
// rename over the file never get in each other's way.
func openShared(path string) (*os.File, error) { return os.Open(path) }
