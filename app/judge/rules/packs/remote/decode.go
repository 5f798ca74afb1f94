package remote

import (
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
		if shell.Decodable(o) {
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
			text, found = shell.EchoText(o.Args), true
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
		out, ok := shell.Decode(chain[i], text)
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

// pkHereInput is the text given to a decoder on its own stdin (<<<, <<).
func pkHereInput(o *shell.Cmd) (string, bool) {
	for i := len(o.Redirs) - 1; i >= 0; i-- {
		if r := o.Redirs[i]; (r.Op == "<<<" || r.Op == "<<" || r.Op == "<<-") && !strings.Contains(r.Target, shell.Dyn) {
			return r.Target, true
		}
	}
	return "", false
}

// pkDecodersOnly: c's pipe is fed by a static decoder chain that
// pkDecodedFeed undoes (so an openssl in it decodes, it does not download).
func pkDecodersOnly(x *rules.Ctx, c *shell.Cmd) bool {
	_, ok := pkDecodedFeed(c, x)
	return ok
}
