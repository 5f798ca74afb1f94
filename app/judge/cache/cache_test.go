package cache

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func key(i int) string {
	h := sha1.Sum([]byte(fmt.Sprint(i)))
	return hex.EncodeToString(h[:])
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func newClocked(ttl time.Duration, max int) (*Cache, *clock) {
	c := New(ttl, max)
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	c.SetClock(clk.now)
	return c, clk
}

func TestGetPut(t *testing.T) {
	c, _ := newClocked(time.Hour, 10)
	if _, _, ok := c.Get(key(1)); ok {
		t.Fatal("hit on an empty cache")
	}
	c.Put(key(1), 1.5, 0.2)
	r, v, ok := c.Get(key(1))
	if !ok || r != 1.5 || v != 0.2 {
		t.Fatalf("Get = %v %v %v; want 1.5 0.2 true", r, v, ok)
	}
	c.Put(key(1), 9, -1) // clamped
	if r, v, _ := c.Get(key(1)); r != 3 || v != 0 {
		t.Fatalf("clamp: got %v %v; want 3 0", r, v)
	}
	if c.Len() != 1 {
		t.Fatalf("Len = %d; want 1", c.Len())
	}
}

func TestEvictionLRU(t *testing.T) {
	c, _ := newClocked(time.Hour, 3)
	for i := 0; i < 3; i++ {
		c.Put(key(i), float64(i), 0)
	}
	c.Get(key(0)) // 0 becomes most recent; 1 is now the oldest
	c.Put(key(3), 3, 0)
	if _, _, ok := c.Get(key(1)); ok {
		t.Error("key 1 (least recently used) survived eviction")
	}
	for _, i := range []int{0, 2, 3} {
		if _, _, ok := c.Get(key(i)); !ok {
			t.Errorf("key %d evicted; want kept", i)
		}
	}
	c.SetLimits(time.Hour, 1)
	if c.Len() != 1 {
		t.Errorf("after SetLimits(1) Len = %d", c.Len())
	}
}

func TestTTL(t *testing.T) {
	c, clk := newClocked(time.Hour, 10)
	c.Put(key(1), 2, 0.5)
	clk.add(59 * time.Minute)
	if _, _, ok := c.Get(key(1)); !ok {
		t.Fatal("expired before the TTL")
	}
	clk.add(time.Minute)
	if _, _, ok := c.Get(key(1)); ok {
		t.Fatal("still there at the TTL")
	}
	if c.Len() != 0 {
		t.Fatal("expired entry not removed")
	}
}

func TestDisabled(t *testing.T) {
	for _, c := range []*Cache{New(0, 10), New(time.Hour, 0)} {
		c.Put(key(1), 1, 1)
		if _, _, ok := c.Get(key(1)); ok {
			t.Error("a disabled cache returned a hit")
		}
	}
}

func TestSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", FileName)
	c, clk := newClocked(time.Hour, 10)
	for i := 0; i < 5; i++ {
		c.Put(key(i), float64(i%4), float64(i)/10)
		clk.add(time.Minute)
	}
	c.Get(key(0)) // most recent
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm()&0o077 != 0 && os.PathSeparator == '/' {
		t.Fatalf("saved file: %v %v", fi, err)
	}
	d, clk2 := newClocked(time.Hour, 4) // smaller bound: the LRU one goes
	clk2.t = clk.now()
	if err := d.Load(path); err != nil {
		t.Fatal(err)
	}
	if d.Len() != 4 {
		t.Fatalf("loaded %d entries; want 4", d.Len())
	}
	if _, _, ok := d.Get(key(1)); ok {
		t.Error("least recently used entry survived a smaller bound")
	}
	if r, v, ok := d.Get(key(3)); !ok || r != 3 || v != 0.3 {
		t.Errorf("key 3 = %v %v %v", r, v, ok)
	}
	if _, _, ok := d.Get(key(0)); !ok {
		t.Error("most recently used entry lost")
	}
	// Entries older than the TTL are not loaded.
	clk2.add(2 * time.Hour)
	if err := d.Load(path); err != nil || d.Len() != 0 {
		t.Errorf("stale load: err=%v len=%d", err, d.Len())
	}
	// A missing file is an empty cache, no error.
	if err := d.Load(filepath.Join(t.TempDir(), "none.json")); err != nil || d.Len() != 0 {
		t.Errorf("missing file: err=%v len=%d", err, d.Len())
	}
}

func TestCorruptFileDiscarded(t *testing.T) {
	good := `{"version":1,"entries":[{"key":"` + key(1) + `","risk":1,"violation":0.1,"at":"2026-01-01T00:00:00Z"}]}`
	bad := map[string]string{
		"truncated":   good[:len(good)/2],
		"garbage":     "\x00\x01not json",
		"empty":       "",
		"bad key":     strings.Replace(good, key(1), "zz", 1),
		"risk range":  strings.Replace(good, `"risk":1`, `"risk":7`, 1),
		"viol range":  strings.Replace(good, `"violation":0.1`, `"violation":1.5`, 1),
		"version":     strings.Replace(good, `"version":1`, `"version":9`, 1),
		"unknown key": strings.Replace(good, `"version":1`, `"version":1,"x":2`, 1),
		"extra":       good + good,
		"array":       "[]",
		"no time":     strings.Replace(good, `,"at":"2026-01-01T00:00:00Z"`, ``, 1),
	}
	for name, content := range bad {
		path := filepath.Join(t.TempDir(), FileName)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		c, _ := newClocked(time.Hour, 10)
		c.Put(key(2), 1, 1)
		err := c.Load(path)
		if err == nil || !strings.Contains(err.Error(), "starting empty") {
			t.Errorf("%s: Load err = %v; want a 'starting empty' error", name, err)
		}
		if c.Len() != 0 {
			t.Errorf("%s: %d entries kept after a corrupt load", name, c.Len())
		}
		// Rebuilt: it works and saves over the bad file.
		c.Put(key(3), 2, 0)
		if err := c.Save(path); err != nil {
			t.Errorf("%s: save after discard: %v", name, err)
		}
		if err := c.Load(path); err != nil || c.Len() != 1 {
			t.Errorf("%s: reload after rebuild: %v len %d", name, err, c.Len())
		}
	}
	path := filepath.Join(t.TempDir(), FileName)
	os.WriteFile(path, []byte(good), 0o600)
	c, _ := newClocked(time.Hour, 10)
	if err := c.Load(path); err != nil || c.Len() != 1 {
		t.Fatalf("good file: %v len %d", err, c.Len())
	}
}

func TestConcurrent(t *testing.T) {
	c := New(time.Hour, 50)
	path := filepath.Join(t.TempDir(), FileName)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				k := key(i % 80)
				c.Put(k, float64(i%4), 0.5)
				if r, _, ok := c.Get(k); ok && (r < 0 || r > 3) {
					t.Errorf("bad risk %v", r)
				}
				if i%100 == 0 {
					if err := c.Save(path); err != nil {
						t.Errorf("save: %v", err)
					}
					c.SetLimits(time.Hour, 40+g)
				}
			}
		}(g)
	}
	wg.Wait()
	if c.Len() > 50 {
		t.Fatalf("Len %d above every bound", c.Len())
	}
	if err := c.Load(path); err != nil {
		t.Fatalf("file written concurrently is corrupt: %v", err)
	}
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"version":1,"entries":[{"key":"` + key(1) + `","risk":1,"violation":0.1,"at":"2026-01-01T00:00:00Z"}]}`))
	f.Add([]byte(`{"version":1,"entries":null}`))
	f.Add([]byte(`{`))
	// One file per fuzz process, rewritten each run: a fresh TempDir per
	// input made runs slow enough to hit the fuzzer's deadline under load.
	path := filepath.Join(f.TempDir(), FileName)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		c, _ := newClocked(time.Hour, 5)
		err := c.Load(path)
		if err != nil && c.Len() != 0 {
			t.Fatalf("error %v but %d entries kept", err, c.Len())
		}
		if c.Len() > 5 {
			t.Fatalf("Len %d above the bound", c.Len())
		}
		for el := c.ll.Front(); el != nil; el = el.Next() {
			e := el.Value.(*entry)
			if !validKey(e.Key) || e.Risk < 0 || e.Risk > 3 || e.Violation < 0 || e.Violation > 1 {
				t.Fatalf("invalid entry loaded: %+v", e)
			}
		}
	})
}
