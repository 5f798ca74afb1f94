package shell

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// Static decoders: what base64/base32 -d, basenc --base64 -d, openssl
// base64 -d, xxd -r -p, rev and tr SET1 SET2 write for a known input, so
// code decoded into a shell or into a script file run later is read
// (echo B64 | base64 -d | sh, base64 -d <<< B64 > x.sh; sh x.sh).

// Decodable reports whether c is a decoder whose output Decode computes
// from its stdin.
func Decodable(c *Cmd) bool {
	if c.Dynamic() || len(c.Wrappers) > 0 {
		return false
	}
	switch c.Name {
	case "base64", "base32", "basenc":
		return decodeFlag(c) && len(c.Operands()) == 0
	case "openssl":
		return len(c.Args) > 0 && (c.Args[0] == "base64" || c.Args[0] == "enc") && decodeFlag(c) &&
			(c.Args[0] == "base64" || contains(c.Args, "-base64") || contains(c.Args, "-a")) && !contains(c.Args, "-in")
	case "xxd":
		return c.Flag('r') && c.Flag('p') && len(c.Operands()) == 0
	case "rev":
		return len(c.Args) == 0
	case "tr":
		ops := c.Operands()
		return len(ops) == 2 && len(ops) == len(c.Args)
	}
	return false
}

func decodeFlag(c *Cmd) bool {
	for _, a := range c.Args {
		if a == "-d" || a == "-D" || a == "--decode" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a, 'd') > 0 && c.Name != "openssl" {
			return true
		}
	}
	return false
}

// Decode is what decoder c (Decodable) writes for input in.
func Decode(c *Cmd, in string) (string, bool) {
	switch c.Name {
	case "base64", "openssl", "basenc":
		if c.Name == "basenc" && !contains(c.Args, "--base64") {
			return "", false
		}
		s := strings.Join(strings.Fields(in), "")
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(s)
		}
		return string(b), err == nil
	case "base32":
		b, err := base32.StdEncoding.DecodeString(strings.Join(strings.Fields(in), ""))
		return string(b), err == nil
	case "xxd":
		b, err := hex.DecodeString(strings.Join(strings.Fields(in), ""))
		return string(b), err == nil
	case "rev":
		lines := strings.Split(in, "\n")
		for i, l := range lines {
			r := []rune(l)
			for a, z := 0, len(r)-1; a < z; a, z = a+1, z-1 {
				r[a], r[z] = r[z], r[a]
			}
			lines[i] = string(r)
		}
		return strings.Join(lines, "\n"), true
	case "tr":
		ops := c.Operands()
		from, to := trSet(ops[0]), trSet(ops[1])
		if len(from) == 0 || len(to) == 0 {
			return "", false
		}
		m := make(map[rune]rune, len(from))
		for i, r := range from {
			t := to[len(to)-1] // tr pads SET2 with its last character
			if i < len(to) {
				t = to[i]
			}
			m[r] = t
		}
		return strings.Map(func(r rune) rune {
			if t, ok := m[r]; ok {
				return t
			}
			return r
		}, in), true
	}
	return "", false
}

// trSet expands a tr set of characters and ranges (a-z, A-Z, 0-9); nil
// for classes ([:alpha:]), escapes and anything else it does not read.
func trSet(s string) []rune {
	if strings.ContainsAny(s, "[\\") {
		return nil
	}
	r := []rune(s)
	var out []rune
	for i := 0; i < len(r); i++ {
		if i+2 < len(r) && r[i+1] == '-' && r[i] <= r[i+2] && r[i+2]-r[i] < 256 {
			for ch := r[i]; ch <= r[i+2]; ch++ {
				out = append(out, ch)
			}
			i += 2
			continue
		}
		out = append(out, r[i])
	}
	return out
}

// hereInput is the text given to c on its own stdin (<<<, <<).
func hereInput(c *Cmd) (string, bool) {
	for i := len(c.Redirs) - 1; i >= 0; i-- {
		if r := c.Redirs[i]; (r.Op == "<<<" || r.Op == "<<" || r.Op == "<<-") && !strings.Contains(r.Target, Dyn) {
			return r.Target, true
		}
	}
	return "", false
}
