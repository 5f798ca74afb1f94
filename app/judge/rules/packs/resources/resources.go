package resources

// Resource exhaustion (a red line): endless output into files or the
// background, filling disks from /dev/zero, huge preallocations, stress
// tools; and network abuse: floods, load tests against other hosts,
// scanners and attack tools.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.On(ruleYes, "yes")
	pack.OnAny(ruleEndlessSource)
	pack.On(ruleFallocate, "fallocate", "mkfile", "xfs_mkfile")
	pack.On(ruleHeadFill, "head", "ghead")
	pack.On(ruleStress, "stress", "stress-ng", "memtester", "sysbench")
	pack.On(ruleLoadTest, "ab", "wrk", "wrk2", "hey", "siege", "vegeta", "bombardier", "autocannon", "oha", "k6", "locust", "artillery", "h2load", "jmeter", "gatling")
	pack.On(ruleFlood, "hping3", "hping", "slowloris", "slowhttptest", "t50", "loic", "thc-ssl-dos", "mdk3", "mdk4", "aireplay-ng")
	pack.On(ruleScanners, "nmap", "masscan", "zmap", "rustscan", "nikto", "sqlmap", "hydra", "medusa", "ncrack", "msfconsole", "msfvenom", "john", "hashcat", "crackmapexec", "nxc", "netexec", "responder", "aircrack-ng", "gobuster", "ffuf", "dirb", "wfuzz", "nuclei", "wpscan", "enum4linux", "bettercap", "ettercap", "arpspoof")
}

func pkOutRedir(c *shell.Cmd) (string, bool) {
	for _, r := range c.Redirs {
		switch r.Op {
		case ">", ">>", "&>", "&>>", ">|":
			return r.Target, true
		}
	}
	return "", false
}

// ruleYes: `yes > /dev/null &` burns a core forever; `yes > file` fills the
// disk. yes piped into another program is the usual harmless use.
func ruleYes(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if len(c.PipedTo) > 0 {
		return rules.Finding{}, false
	}
	if t, ok := pkOutRedir(c); ok {
		if t == "/dev/null" {
			if c.Background {
				return rules.PkRet(c, 2.6, rules.RedLineAt, "res.yes-background", "yes > /dev/null & burns a CPU core forever (resource exhaustion)")
			}
			return rules.PkRet(c, 2, 0.6, "res.yes-null", "yes > /dev/null never ends")
		}
		return rules.PkRet(c, 2.8, 0.9, "res.yes-fill", "yes into a file grows it until the disk is full")
	}
	if c.Background {
		return rules.PkRet(c, 2.6, rules.RedLineAt, "res.yes-background", "yes in the background never ends (resource exhaustion)")
	}
	return rules.Finding{}, false
}

var pkEndless = rules.PkSet("/dev/zero", "/dev/urandom", "/dev/random", "/dev/full")

// ruleEndlessSource: cat /dev/zero > file and friends, without a bound.
func ruleEndlessSource(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch c.Name {
	case "cat", "tac", "pv", "tr", "od", "hexdump", "xxd", "base64", "strings", "tail", "more", "less", "get-content", "gc", "type":
	default:
		return rules.Finding{}, false
	}
	src := ""
	for _, o := range c.Operands() {
		if pkEndless.Has(o) {
			src = o
		}
	}
	for _, r := range c.Redirs {
		if r.Op == "<" && pkEndless.Has(r.Target) {
			src = r.Target
		}
	}
	if src == "" {
		return rules.Finding{}, false
	}
	if len(c.PipedTo) > 0 {
		for _, n := range c.PipedTo {
			if n == "head" || n == "dd" || n == "tr" && false || n == "pv" && false {
				return rules.Finding{}, false // bounded by head -c / dd count
			}
		}
	}
	t, redir := pkOutRedir(c)
	switch {
	case redir && t != "/dev/null":
		return rules.PkRet(c, 2.8, 0.9, "res.fill-disk", "copies endless "+src+" into a file until the disk is full")
	case len(c.PipedTo) > 0:
		return rules.PkRet(c, 2, 0.6, "res.endless-pipe", "feeds endless "+src+" into another program")
	case c.Background:
		return rules.PkRet(c, 2.6, rules.RedLineAt, "res.endless-background", "reads endless "+src+" in the background forever")
	}
	return rules.PkRet(c, 1.6, 0.5, "res.endless", "reads endless "+src+" (never ends)")
}

func ruleFallocate(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	size := ""
	if c.Name == "fallocate" {
		size, _ = rules.PkVal(c, "-l", "--length")
	} else if ops := c.Operands(); len(ops) > 0 {
		size = ops[0]
	}
	if c.Name == "fallocate" && (c.Flag('p', "--punch-hole") || c.Flag('d', "--dig-holes") || c.Flag('c', "--collapse-range")) {
		return rules.PkRet(c, 2, 0.3, "fs.fallocate-holes", "cuts data out of a file")
	}
	n, ok := rules.PkSizeBytes(size)
	switch {
	case !ok:
		return rules.PkUnsure(c, 1.5, "res.fallocate", "preallocates a file of unknown size")
	case n >= 50*(1<<30):
		return rules.PkRet(c, 2.8, 0.9, "res.fallocate-huge", "preallocates "+size+": likely fills the disk")
	case n >= 4*(1<<30):
		return rules.PkRet(c, 1.8, 0.5, "res.fallocate-big", "preallocates "+size+" of disk space")
	}
	return rules.PkAllow(c, 1, "res.fallocate", "preallocates a small file")
}

func ruleStress(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.Flag(0, "--help", "--version") || c.Name == "sysbench" && len(c.Operands()) < 2 {
		return rules.PkAllow(c, 0, "res.stress-help", "shows usage")
	}
	_, bounded := rules.PkVal(c, "-t", "--timeout", "--time")
	if !bounded && c.Name != "sysbench" {
		return rules.PkRet(c, 2.7, rules.RedLineAt, "res.stress", c.Name+" without a timeout exhausts CPU/memory/IO until stopped")
	}
	return rules.PkRet(c, 2, 0.6, "res.stress-timed", c.Name+" deliberately exhausts CPU, memory or IO for a while")
}

func ruleLoadTest(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	for _, a := range c.Args {
		if strings.Contains(a, "://") || strings.Contains(a, ".") && strings.Contains(a, ":") {
			if !rules.PkLocalHost(a) {
				return rules.PkRet(c, 2, 0.5, "net.load-test", "load-tests another host (may be a denial of service)")
			}
		}
	}
	return rules.PkAllow(c, 1, "dev.load-test", "load-tests a local service")
}

func ruleFlood(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.Name == "hping3" || c.Name == "hping" {
		if c.Flag(0, "--flood", "--faster") || rules.PkHasPrefix(c, "-iu", "-i u") || rules.PkValIs(c, "-i", "u1") {
			return rules.PkRet(c, 3, 0.9, "net.flood", "floods a host with packets (denial of service)")
		}
		return rules.PkRet(c, 2, 0.5, "net.packet-craft", "sends crafted packets")
	}
	return rules.PkRet(c, 3, 0.9, "net.dos-tool", "runs a denial-of-service or wireless attack tool")
}

func ruleScanners(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.Name == "nmap" {
		local := true
		for _, o := range rules.PkPos(c.Args, pkVFResources1) {
			if !(rules.PkLocalHost(o) || strings.HasPrefix(o, "192.168.") || strings.HasPrefix(o, "10.") || strings.HasPrefix(o, "172.") || strings.HasPrefix(o, "127.")) {
				local = false
			}
		}
		if local {
			return rules.PkAllow(c, 1, "net.nmap-local", "scans local or private addresses")
		}
		return rules.PkRet(c, 1.8, 0.4, "net.nmap", "scans other hosts' ports")
	}
	switch c.Name {
	case "john", "hashcat":
		return rules.PkRet(c, 2, 0.5, "sec.password-cracker", "cracks password hashes")
	case "msfvenom":
		return rules.PkRet(c, 2.2, 0.6, "sec.payload", "builds exploit payloads")
	}
	return rules.PkRet(c, 2.2, 0.6, "sec.attack-tool", c.Name+" attacks, brute-forces or spoofs other systems")
}

// Flag sets hoisted out of the rules (built once, not per command).
var (
	pkVFResources1 = rules.PkSet("-p", "-oN", "-oX", "-oG", "-oA", "-iL", "--top-ports", "--exclude", "-e", "-S", "--script", "--script-args", "-D", "-g", "--source-port", "--max-rate", "--min-rate", "--host-timeout")
)

// ruleHeadFill: head -c SIZE of an endless source (/dev/zero, urandom,
// yes) into a file writes SIZE bytes: a bound of 100G fills the disk as
// surely as none (and a full disk stops the guard's audit log and the
// hook's own files). Judged like fallocate's sizes; small bounds and
// heads of real files pass.
func ruleHeadFill(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	size, ok := rules.PkVal(c, "-c", "--bytes")
	if !ok {
		return rules.Finding{}, false
	}
	n, ok := rules.PkSizeBytes(size)
	if !ok || n < 4*(1<<30) {
		return rules.Finding{}, false
	}
	t, redir := pkOutRedir(c)
	if !redir || t == "/dev/null" {
		return rules.Finding{}, false
	}
	endless := false
	for _, o := range c.Operands() {
		endless = endless || pkEndless.Has(o)
	}
	for _, r := range c.Redirs {
		endless = endless || r.Op == "<" && pkEndless.Has(r.Target)
	}
	if len(c.PipedFrom) > 0 {
		endless = endless || rules.Contains(c.PipedFrom, "yes") || strings.Contains(x.Script, "/dev/zero") ||
			strings.Contains(x.Script, "/dev/urandom") || strings.Contains(x.Script, "/dev/random")
	}
	if !endless {
		return rules.Finding{}, false
	}
	if n >= 50*(1<<30) {
		return rules.PkRet(c, 2.8, 0.9, "res.write-huge", "writes "+size+" of an endless source into "+t+": likely fills the disk")
	}
	return rules.PkRet(c, 1.8, 0.5, "res.write-big", "writes "+size+" of an endless source into "+t)
}
