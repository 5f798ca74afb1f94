package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Mail sent from the command line (mail, mailx, mutt, sendmail, msmtp,
// swaks, Send-MailMessage) reaches people outside the machine and cannot
// be called back: at least confirm, as an MCP tool sending a message
// is. Reading a mailbox or the queue (mail with no recipient, mail -f,
// sendmail -bp) is not sending. A secret attached or piped in is the
// credentials pack's red line.

func init() {
	on(ruleMailSend, "mail", "mailx", "s-nail", "mutt", "neomutt", "sendmail", "msmtp", "ssmtp", "swaks", "send-mailmessage")
}

// mailVals are the options of mail/mailx/mutt that take a value.
var mailVals = newSet([]string{"-s", "-a", "-A", "-c", "-b", "-r", "-S", "-q", "-F", "-e", "-i", "-H", "-o", "-O"})

func ruleMailSend(c *shell.Cmd, x *Ctx) (Finding, bool) {
	send := false
	switch c.Name {
	case "swaks", "send-mailmessage":
		send = true
	case "sendmail", "msmtp", "ssmtp":
		send = c.Flag('t')
		for _, a := range c.Args {
			if strings.HasPrefix(a, "-b") && a != "-bm" || a == "-q" || strings.HasPrefix(a, "--serverinfo") {
				return Finding{Rule: "mail.read", Reason: c.Name + " shows its queue or configuration", Marked: c.Raw}, true
			}
		}
		if len(c.Operands()) > 0 {
			send = true
		}
	default:
		for i := 0; i < len(c.Args); i++ {
			a := c.Args[i]
			switch {
			case a == "-f" || a == "-H" || a == "-N" && len(c.Args) == 1 || a == "-e":
				return Finding{Rule: "mail.read", Reason: c.Name + " reads a mailbox", Marked: c.Raw}, true
			case a == "--":
				send = send || i+1 < len(c.Args)
				i = len(c.Args)
			case len(a) > 1 && a[0] == '-':
				if c.Name != "mutt" && c.Name != "neomutt" && mailVals.Has(a) || (c.Name == "mutt" || c.Name == "neomutt") && (a == "-s" || a == "-a" || a == "-c" || a == "-b" || a == "-F" || a == "-e" || a == "-i" || a == "-H") {
					i++
				}
			default:
				send = true // a recipient
			}
		}
	}
	if !send {
		return Finding{Rule: "mail.read", Reason: c.Name + " without a recipient reads mail", Marked: c.Raw}, true
	}
	return pkRet(c, 1.6, 0.3, "mail.send", c.Name+" sends an email to people outside this machine; it cannot be called back")
}
