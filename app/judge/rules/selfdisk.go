package rules

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Bounds on what self-protection reads from disk for one call: a copy's
// source tree and an archive's listing. Over a bound the content counts
// as unknown (confirm when the target holds protected paths).
const (
	maxTreeEntries    = 20000
	maxArchiveMembers = 50000
	diskBudget        = 150 * time.Millisecond
)

func isDirOnDisk(p string) bool {
	fi, err := os.Stat(filepath.FromSlash(p))
	return err == nil && fi.IsDir()
}

// listTree returns the slash paths below p relative to it ("" for p
// itself when it is a file). ok is false when p is not on disk or the
// tree is over the bounds.
func listTree(p string) (rels []string, ok bool) {
	root := filepath.FromSlash(p)
	fi, err := os.Lstat(root)
	if err != nil {
		return nil, false
	}
	if !fi.IsDir() {
		return []string{""}, true
	}
	deadline := time.Now().Add(diskBudget)
	over := false
	err = filepath.WalkDir(root, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable parts are not copied either
		}
		if len(rels) >= maxTreeEntries || len(rels)%256 == 0 && time.Now().After(deadline) {
			over = true
			return filepath.SkipAll
		}
		if r, err := filepath.Rel(root, q); err == nil && r != "." {
			rels = append(rels, filepath.ToSlash(r))
		}
		return nil
	})
	if err != nil || over {
		return nil, false
	}
	return rels, true
}

// member is one archive entry: its name and, for links, their target.
type member struct{ name, link string }

// listArchive reads the member names of a tar (plain, gzip or bzip2) or
// zip file. ok is false for anything else, unreadable or over the bounds.
func listArchive(p string) ([]member, bool) {
	f, err := os.Open(filepath.FromSlash(p))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	br := bufio.NewReader(f)
	head, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return listZip(p)
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, false
		}
		return listTar(gz)
	case bytes.HasPrefix(head, []byte("BZh")):
		return listTar(bzip2.NewReader(br))
	}
	return listTar(br)
}

func listTar(r io.Reader) ([]member, bool) {
	tr := tar.NewReader(r)
	deadline := time.Now().Add(diskBudget)
	var out []member
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, len(out) > 0
		}
		if err != nil || len(out) >= maxArchiveMembers || time.Now().After(deadline) {
			return nil, false
		}
		m := member{name: h.Name}
		if h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink {
			m.link = h.Linkname
		}
		out = append(out, m)
	}
}

func listZip(p string) ([]member, bool) {
	z, err := zip.OpenReader(filepath.FromSlash(p))
	if err != nil || len(z.File) > maxArchiveMembers {
		if z != nil {
			z.Close()
		}
		return nil, false
	}
	defer z.Close()
	out := make([]member, 0, len(z.File))
	for _, f := range z.File {
		m := member{name: f.Name}
		if f.Mode()&fs.ModeSymlink != 0 && f.UncompressedSize64 < 4096 {
			if rc, err := f.Open(); err == nil {
				b, _ := io.ReadAll(io.LimitReader(rc, 4096))
				rc.Close()
				m.link = string(b)
			}
		}
		out = append(out, m)
	}
	return out, true
}
