package disk

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"strconv"
	"strings"
)

// entry is one index entry's stat data: what git itself compares to
// decide that a work-tree file is unchanged without reading it.
type entry struct {
	mtimeS, mtimeN uint32
	size           uint32
	mode           uint32
	oid            []byte
}

// index is a parsed .git/index: tracked paths (slash-separated, relative
// to the work tree) and the time the index was written (racy-git check).
type index struct {
	entries map[string]entry
	written int64 // index file mtime, ns
	sha256  bool
}

// maxIndex bounds the index we read (a 10,000-file repo's is ~1 MiB).
const maxIndex = 64 << 20

var errIndexExt = errors.New("index uses a split or sparse layout this reader does not know")

// readIndex parses a git index of version 2, 3 or 4.
func readIndex(path string, sha256Repo bool) (*index, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxIndex {
		return nil, fmt.Errorf("index is %d bytes, above the %d-byte limit", st.Size(), maxIndex)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	ix, err := parseIndex(b, sha256Repo)
	if err != nil {
		return nil, err
	}
	ix.written = st.ModTime().UnixNano()
	return ix, nil
}

func parseIndex(b []byte, sha256Repo bool) (*index, error) {
	if len(b) < 12 || string(b[:4]) != "DIRC" {
		return nil, errors.New("not a git index (no DIRC signature)")
	}
	ver := binary.BigEndian.Uint32(b[4:8])
	if ver < 2 || ver > 4 {
		return nil, fmt.Errorf("git index version %d is not supported", ver)
	}
	n := binary.BigEndian.Uint32(b[8:12])
	hlen := 20
	if sha256Repo {
		hlen = 32
	}
	ix := &index{entries: make(map[string]entry, n), sha256: sha256Repo}
	off := 12
	prev := ""
	for i := uint32(0); i < n; i++ {
		start := off
		fixed := 40 + hlen + 2
		if off+fixed > len(b) {
			return nil, errors.New("git index is truncated")
		}
		e := entry{
			mtimeS: binary.BigEndian.Uint32(b[off+8:]),
			mtimeN: binary.BigEndian.Uint32(b[off+12:]),
			mode:   binary.BigEndian.Uint32(b[off+24:]),
			size:   binary.BigEndian.Uint32(b[off+36:]),
			oid:    b[off+40 : off+40+hlen],
		}
		flags := binary.BigEndian.Uint16(b[off+40+hlen:])
		off += fixed
		if flags&0x4000 != 0 {
			if ver < 3 || off+2 > len(b) {
				return nil, errors.New("git index entry has a bad extended flag")
			}
			ext := binary.BigEndian.Uint16(b[off:])
			off += 2
			if ext&(1<<14) != 0 {
				return nil, errIndexExt // skip-worktree entries of a sparse checkout
			}
		}
		var name string
		if ver == 4 {
			strip, k := binary.Uvarint(b[off:])
			if k <= 0 || int(strip) > len(prev) {
				return nil, errors.New("git index v4 path prefix is bad")
			}
			off += k
			j := bytes.IndexByte(b[off:], 0)
			if j < 0 {
				return nil, errors.New("git index path is not terminated")
			}
			name = prev[:len(prev)-int(strip)] + string(b[off:off+j])
			off += j + 1
		} else {
			j := bytes.IndexByte(b[off:], 0)
			if j < 0 {
				return nil, errors.New("git index path is not terminated")
			}
			name = string(b[off : off+j])
			off += j + 1
			// Entries are padded with NULs to a multiple of 8 bytes.
			for (off-start)%8 != 0 {
				off++
			}
		}
		if e.mode&0170000 == 0040000 {
			return nil, errIndexExt // a sparse index's directory entry
		}
		if stage := (flags >> 12) & 3; stage == 0 || stage == 2 {
			ix.entries[name] = e
		}
		prev = name
	}
	// Extensions: a split index ("link") keeps entries in another file.
	for off+8 <= len(b)-hlen {
		sig := string(b[off : off+4])
		sz := int(binary.BigEndian.Uint32(b[off+4:]))
		if sig == "link" || sig == "sdir" {
			return nil, errIndexExt
		}
		off += 8 + sz
	}
	return ix, nil
}

// sameStat: git's own quick check (size and mtime as recorded).
func (e entry) sameStat(st os.FileInfo) bool {
	mt := st.ModTime()
	return int64(e.size) == st.Size()&0xffffffff && int64(e.mtimeS) == mt.Unix()&0xffffffff && int64(e.mtimeN) == int64(mt.Nanosecond())
}

// sameContent hashes the file as a git blob and compares it with the
// entry (used for racily clean files and files whose stat changed).
func (e entry) sameContent(path string, size int64, sha256Repo bool) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var h hash.Hash = sha1.New()
	if sha256Repo {
		h = sha256.New()
	}
	io.WriteString(h, "blob "+strconv.FormatInt(size, 10)+"\x00")
	if _, err := io.Copy(h, io.LimitReader(f, size)); err != nil {
		return false
	}
	return bytes.Equal(h.Sum(nil), e.oid)
}

// gitDirs finds the work tree holding dir: its root, its git dir (a
// .git folder, or the folder a .git file points to in linked worktrees
// and submodules) and whether it uses SHA-256 object names.
func gitDirs(dir string) (root, gitDir string, ok bool) {
	for d, i := dir, 0; i < 64; i++ {
		g := d + string(os.PathSeparator) + ".git"
		if st, err := os.Stat(g); err == nil {
			if st.IsDir() {
				return d, g, true
			}
			if b, err := os.ReadFile(g); err == nil && st.Size() < 4096 {
				s := strings.TrimSpace(string(b))
				if p, ok := strings.CutPrefix(s, "gitdir: "); ok {
					if !isAbs(p) {
						p = d + string(os.PathSeparator) + p
					}
					return d, p, true
				}
			}
		}
		parent := parentDir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return "", "", false
}
