package shell

import (
	"strings"
	"testing"
)

func TestPeelWrappers(t *testing.T) {
	cases := []struct{ in, peeled, rest string }{
		{"env rm -rf {}", "env", "rm -rf {}"},
		{"sudo -u root nice -n 5 rm {}", "sudo nice", "rm {}"},
		{"timeout 5 busybox rm {}", "timeout busybox", "rm {}"},
		{"command -v rm", "", "command -v rm"}, // a lookup runs nothing
		{"xargs rm", "", "xargs rm"},           // runners are read by runner()
		{"rm -rf {}", "", "rm -rf {}"},
	}
	for _, c := range cases {
		p, r := PeelWrappers(strings.Fields(c.in))
		if strings.Join(p, " ") != c.peeled || strings.Join(r, " ") != c.rest {
			t.Errorf("PeelWrappers(%q) = %q, %q; want %q, %q", c.in, p, r, c.peeled, c.rest)
		}
	}
}
