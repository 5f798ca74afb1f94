package remote

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/facts"
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Static decoder chains: `echo TEXT | DECODER | ... | sh` where every
// decoder is one whose output this file can compute (base64/base32 -d,
// basenc, openssl base64 -d, xxd -r -p, rev, tr SET1 SET2) and TEXT is
// static (echo/printf words, or a here-string or here-doc given to the
// first decoder). The decoded text is the code the shell runs, judged as
// a command line; an encoding it cannot undo stays hidden code (confirm).

// pkDecodedFeed is the code c (a POSIX shell fed by a pipe) runs, when
// the pipe's decoder chain can be undone statically.
func pkDecodedFeed(c *shell.Cmd, x *rules.Ctx) (string, bool) {
	if !facts.IsPOSIXShell(c.Name) {
		return "", false
	}
	all := rules.PkAll(x)
	at := -1
	for i := range all {
		if all[i].Raw == c.Raw && all[i].Start == c.Start && all[i].End == c.End && all[i].Name == c.Name {
			at = i
			break
		}
	}
	if at <= 0 {
		return "", false
	}
	// Walk back over the decoders feeding c, to the static source.
	var chain []*shell.Cmd
	text, found := "", false
	for k := at - 1; k >= 0 && len(chain) < 8; k-- {
		o := &all[k]
		if len(o.PipedTo) == 0 {
			break
		}
		if pkDecodable(o) {
			chain = append(chain, o)
			if in, ok := pkHereInput(o); ok {
				text, found = in, true
				break
			}
			continue
		}
		if o.Dynamic() || len(chain) == 0 {
			break
		}
		switch o.Name {
		case "echo":
			text, found = pkEchoText(o.Args), true
		case "printf":
			if len(o.Args) == 1 {
				text, found = shell.DecodeANSI(o.Args[0]), true
			}
		}
		break
	}
	if !found || len(chain) == 0 {
		return "", false
	}
	for i := len(chain) - 1; i >= 0; i-- {
		out, ok := pkDecode(chain[i], text)
		if !ok {
			return "", false
		}
		text = out
	}
	if strings.TrimSpace(text) == "" {
		return "", false
	}
	return text, true
}

func pkEchoText(args []string) string {
	esc := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		esc = esc || strings.IndexByte(args[0], 'e') >= 0
		args = args[1:]
	}
	s := strings.Join(args, " ")
	if esc {
		s = shell.DecodeANSI(s)
	}
	return s
}

// pkHereInput is the text given to a decoder on its own stdin (<<<, <<).
func pkHereInput(o *shell.Cmd) (string, bool) {
	for i := len(o.Redirs) - 1; i >= 0; i-- {
		if r := o.Redirs[i]; (r.Op == "<<<" || r.Op == "<<" || r.Op == "<<-") && !strings.Contains(r.Target, shell.Dyn) {
			return r.Target, true
		}
	}
	return "", false
}

// pkDecodable: a decoder whose output pkDecode computes, reading stdin.
func pkDecodable(o *shell.Cmd) bool {
	if o.Dynamic() || len(o.Wrappers) > 0 {
		return false
	}
	switch o.Name {
	case "base64", "base32", "basenc":
		return pkDecodeFlag(o) && len(o.Operands()) == 0
	case "openssl":
		return len(o.Args) > 0 && (o.Args[0] == "base64" || o.Args[0] == "enc") && pkDecodeFlag(o) &&
			(o.Args[0] == "base64" || rules.PkContains(o.Args, "-base64") || rules.PkContains(o.Args, "-a")) &&
			!rules.PkContains(o.Args, "-in")
	case "xxd":
		return o.Flag('r') && o.Flag('p') && len(o.Operands()) == 0
	case "rev":
		return len(o.Args) == 0
	case "tr":
		ops := o.Operands()
		return len(ops) == 2 && len(ops) == len(o.Args)
	}
	return false
}

func pkDecodeFlag(o *shell.Cmd) bool {
	for _, a := range o.Args {
		if a == "-d" || a == "-D" || a == "--decode" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a, 'd') > 0 && o.Name != "openssl" {
			return true
		}
	}
	return false
}

// pkDecode is what decoder o writes for input in.
func pkDecode(o *shell.Cmd, in string) (string, bool) {
	switch o.Name {
	case "base64", "openssl", "basenc":
		if o.Name == "basenc" && !rules.PkContains(o.Args, "--base64") {
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
		ops := o.Operands()
		from, to := pkTrSet(ops[0]), pkTrSet(ops[1])
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

// pkTrSet expands a tr set of characters and ranges (a-z, A-Z, 0-9); nil
// for classes ([:alpha:]), escapes and anything else it does not read.
func pkTrSet(s string) []rune {
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

// pkDecodersOnly: c's pipe is fed by a static decoder chain that
// pkDecodedFeed undoes (so an openssl in it decodes, it does not download).
func pkDecodersOnly(x *rules.Ctx, c *shell.Cmd) bool {
	_, ok := pkDecodedFeed(c, x)
	return ok
}
