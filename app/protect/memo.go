package protect

import (
	"os"
	"sync"
	"time"
)

// fileKey names a file's content as cheaply as it can be known: a change
// of size or modification time means the file is read again.
type fileKey struct {
	path string
	size int64
	mod  time.Time
}

// fileMemo keeps a fact read from a file (the hook commands in a host
// config, whether a binary is built from our module) by fileKey. Past max
// entries it starts over: the facts are cheap to read again and a bounded
// map needs no eviction order.
type fileMemo[V any] struct {
	mu  sync.Mutex
	max int
	m   map[fileKey]V
}

// get returns the kept fact for the file, else read's; a failed read
// (ok false) is not kept, so the next call tries again.
func (c *fileMemo[V]) get(path string, fi os.FileInfo, read func() (V, bool)) V {
	k := fileKey{path, fi.Size(), fi.ModTime()}
	c.mu.Lock()
	v, hit := c.m[k]
	c.mu.Unlock()
	if hit {
		return v
	}
	v, ok := read()
	if !ok {
		return v
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= c.max {
		c.m = map[fileKey]V{}
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}
