package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The judge is started by the hook whenever no tray answers, so it must
// start fast and build without cgo everywhere: no GUI, no tray, no server,
// no installer verbs, and no HTTP or TLS stack (their init and page faults
// cost ~0.6 ms a start; the remote judge is asked through `agent-guard
// remote-judge`, app/fallback/remote.go). It links the judge and what the
// judge needs (config, cache, audit) and nothing else of the tray. Fails
// when an import (direct or through any package) pulls one of these in.
var forbidden = []string{
	"fyne.io",
	"github.com/agent-guard/agent-guard/app/ui",
	"github.com/agent-guard/agent-guard/app/cli",
	"github.com/agent-guard/agent-guard/app/server",
	"github.com/agent-guard/agent-guard/app/report",
	"github.com/agent-guard/agent-guard/app/doctor",
	"github.com/agent-guard/agent-guard/app/depend",
	"runtime/cgo",
	"github.com/agent-guard/agent-guard/app/judge/typesafe",
	"net/http",
	"crypto/tls",
	"crypto/x509",
}

func TestDeps(t *testing.T) {
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	for _, goos := range []string{"linux", "windows", "darwin"} {
		t.Run(goos, func(t *testing.T) {
			cmd := exec.Command(gobin, "list", "-deps", ".")
			cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go list: %v\n%s", err, out)
			}
			deps := strings.Fields(string(out))
			if !contains(deps, "github.com/agent-guard/agent-guard/app/judge") {
				t.Fatalf("agent-guard-judge does not link the judge: %q", deps)
			}
			for _, d := range deps {
				for _, bad := range forbidden {
					if d == bad || strings.HasPrefix(d, bad+"/") {
						t.Errorf("agent-guard-judge links %s (forbidden: %s); find who imports it with: GOOS=%s go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./cmd/agent-guard-judge", d, bad, goos)
					}
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
