// Package cache keeps remote judgments (risk, red-line probability) by
// call key: LRU-bounded, with a TTL, safe for concurrent use, persisted
// atomically. It stores judgments, not levels, so changed thresholds
// still reuse it. A corrupt or truncated file is discarded, never fatal.
package cache

import (
	"bytes"
	"container/list"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"sync"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/internal/sharedfile"
)

// FileName is the cache file inside the cache folder.
const FileName = "judgments.json"

// maxFile caps what Load reads: 500 entries are ~60 KB; anything far
// bigger is not ours.
const maxFile = 8 << 20

type entry struct {
	Key       string    `json:"key"`
	Risk      float64   `json:"risk"`
	Violation float64   `json:"violation"`
	At        time.Time `json:"at"`
}

type file struct {
	Version int     `json:"version"`
	Entries []entry `json:"entries"` // least recently used first
}

// Cache is an LRU of judgments with a TTL. The zero value is not usable;
// call New.
type Cache struct {
	mu  sync.Mutex
	ttl time.Duration
	max int
	now func() time.Time
	ll  *list.List // front: most recently used
	m   map[string]*list.Element
}

// New returns an empty cache. ttl <= 0 or max <= 0 turns caching off
// (Get always misses, Put keeps nothing).
func New(ttl time.Duration, max int) *Cache {
	return &Cache{ttl: ttl, max: max, now: time.Now, ll: list.New(), m: map[string]*list.Element{}}
}

// FromConfig returns a cache with the config's cache.ttl_minutes and
// cache.max_entries.
func FromConfig(c *config.Config) *Cache {
	return New(time.Duration(c.Cache.TTLMinutes)*time.Minute, c.Cache.MaxEntries)
}

// SetLimits changes the TTL and the bound; extra entries are evicted.
func (c *Cache) SetLimits(ttl time.Duration, max int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ttl, c.max = ttl, max
	c.trim()
}

// SetClock replaces time.Now (tests).
func (c *Cache) SetClock(now func() time.Time) {
	c.mu.Lock()
	c.now = now
	c.mu.Unlock()
}

// Len is the number of entries held (expired ones included until touched).
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}

// Get returns a fresh judgment for key and marks it recently used.
func (c *Cache) Get(key string) (risk, violation float64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, found := c.m[key]
	if !found {
		return 0, 0, false
	}
	e := el.Value.(*entry)
	if c.ttl <= 0 || c.now().Sub(e.At) >= c.ttl {
		c.ll.Remove(el)
		delete(c.m, key)
		return 0, 0, false
	}
	c.ll.MoveToFront(el)
	return e.Risk, e.Violation, true
}

// Put stores a judgment (values outside 0..3 / 0..1 are clamped).
func (c *Cache) Put(key string, risk, violation float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ttl <= 0 || c.max <= 0 {
		return
	}
	e := &entry{Key: key, Risk: clamp(risk, 3), Violation: clamp(violation, 1), At: c.now()}
	if el, found := c.m[key]; found {
		el.Value = e
		c.ll.MoveToFront(el)
		return
	}
	c.m[key] = c.ll.PushFront(e)
	c.trim()
}

func clamp(v, hi float64) float64 {
	if math.IsNaN(v) || v < 0 {
		return 0
	}
	return math.Min(v, hi)
}

// trim evicts least recently used entries above the bound. Caller locks.
func (c *Cache) trim() {
	for c.ll.Len() > max(c.max, 0) {
		el := c.ll.Back()
		c.ll.Remove(el)
		delete(c.m, el.Value.(*entry).Key)
	}
}

// Save writes the fresh entries atomically (temp file + rename), under a
// cross-process lock and with a bounded retry where Windows refuses the
// rename (save.go).
func (c *Cache) Save(path string) error {
	c.mu.Lock()
	f := file{Version: 1}
	now := c.now()
	for el := c.ll.Back(); el != nil; el = el.Prev() {
		e := el.Value.(*entry)
		if c.ttl > 0 && now.Sub(e.At) < c.ttl {
			f.Entries = append(f.Entries, *e)
		}
	}
	c.mu.Unlock()
	data, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("cache: %v", err)
	}
	if err := writeLocked(path, data); err != nil {
		return fmt.Errorf("cache: cannot save %s: %v", path, err)
	}
	return nil
}

// Load replaces the cache's entries with the file's fresh ones. A missing
// file is an empty cache. A corrupt, truncated or invalid file is
// discarded: the cache starts empty and the error says why (callers log
// it; it is never fatal).
func (c *Cache) Load(path string) error {
	data, err := readCapped(path)
	if errors.Is(err, fs.ErrNotExist) {
		c.reset(nil)
		return nil
	}
	if err != nil {
		c.reset(nil)
		return fmt.Errorf("cache: cannot read %s (%v); starting empty", path, err)
	}
	entries, err := parse(data)
	if err != nil {
		c.reset(nil)
		return fmt.Errorf("cache: %s is corrupt (%v); discarded, starting empty", path, err)
	}
	c.reset(entries)
	return nil
}

func readCapped(path string) ([]byte, error) {
	f, err := sharedfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("larger than %d bytes", maxFile)
	}
	return data, nil
}

// parse validates the whole file; one bad entry discards it all (a file
// we did not write is not trusted piecemeal).
func parse(data []byte) ([]entry, error) {
	var f file
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("extra data after the object")
	}
	if f.Version != 1 {
		return nil, fmt.Errorf("unknown version %d", f.Version)
	}
	for i, e := range f.Entries {
		switch {
		case !validKey(e.Key):
			return nil, fmt.Errorf("entry %d: key is not a sha1 hex", i)
		case math.IsNaN(e.Risk) || e.Risk < 0 || e.Risk > 3:
			return nil, fmt.Errorf("entry %d: risk %v outside 0..3", i, e.Risk)
		case math.IsNaN(e.Violation) || e.Violation < 0 || e.Violation > 1:
			return nil, fmt.Errorf("entry %d: violation %v outside 0..1", i, e.Violation)
		case e.At.IsZero():
			return nil, fmt.Errorf("entry %d: no time", i)
		}
	}
	return f.Entries, nil
}

func validKey(k string) bool {
	if len(k) != 40 {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !(k[i] >= '0' && k[i] <= '9' || k[i] >= 'a' && k[i] <= 'f') {
			return false
		}
	}
	return true
}

// reset replaces the content with entries (oldest first), dropping
// expired ones and applying the bound.
func (c *Cache) reset(entries []entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ll.Init()
	clear(c.m)
	now := c.now()
	for i := range entries {
		e := entries[i]
		if c.ttl <= 0 || now.Sub(e.At) >= c.ttl || e.At.After(now.Add(time.Minute)) {
			continue
		}
		if el, found := c.m[e.Key]; found {
			c.ll.Remove(el)
		}
		c.m[e.Key] = c.ll.PushFront(&e)
	}
	c.trim()
}
