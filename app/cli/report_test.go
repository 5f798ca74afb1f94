package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const reportLog = "../report/testdata/audit.jsonl"

func pinReportClock(t *testing.T) {
	old := reportNow
	reportNow = func() time.Time { return time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC) }
	t.Cleanup(func() { reportNow = old })
}

// The numbers are worked out by hand in app/report/report_test.go.
func TestReportJSON(t *testing.T) {
	pinReportClock(t)
	code, out, errOut := runCLI(t, "", "report", "--since", "3d", "--json", "--audit", reportLog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Total   int `json:"total"`
		Skipped int `json:"skipped_lines"`
		ByLevel []struct {
			Name  string
			Count int
		} `json:"by_level"`
		Remote struct {
			APICalls     int     `json:"api_calls"`
			CacheHits    int     `json:"cache_hits"`
			CacheHitRate float64 `json:"cache_hit_rate"`
		} `json:"remote"`
		Approvals struct {
			Total     int `json:"total"`
			ByDecider []struct {
				Decider                       string
				Count, Allowed, Denied, Asked int
			} `json:"by_decider"`
			Wait struct{ N, P50, P90 float64 } `json:"wait_ms"`
		} `json:"approvals"`
		TopConfirms []struct {
			Tool, Input string
			Count       int
			UserAllowed int `json:"user_allowed"`
		} `json:"top_confirms"`
		TopBlocks []struct {
			Input string
			Count int
		} `json:"top_blocks"`
		MCPServers []struct {
			Server                       string
			Calls, Allow, Confirm, Block int
			Tools                        []string
		} `json:"mcp_servers"`
		Latency struct{ N, P50, P90, P99, Max float64 } `json:"latency_ms"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	check := func(what string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	check("total", r.Total, 18)
	check("skipped", r.Skipped, 2)
	check("levels", len(r.ByLevel), 3)
	check("allow", r.ByLevel[0].Count, 7)
	check("confirm", r.ByLevel[1].Count, 7)
	check("block", r.ByLevel[2].Count, 4)
	check("api calls", r.Remote.APICalls, 2)
	check("cache hits", r.Remote.CacheHits, 1)
	check("cache hit rate", r.Remote.CacheHitRate, 1.0/3)
	check("approvals", r.Approvals.Total, 7)
	check("first decider", r.Approvals.ByDecider[0].Decider, "user")
	check("user count", r.Approvals.ByDecider[0].Count, 4)
	check("user allowed", r.Approvals.ByDecider[0].Allowed, 3)
	check("policy denied", r.Approvals.ByDecider[1].Denied, 1)
	check("wait median", r.Approvals.Wait.P50, 4000.0)
	check("wait p90", r.Approvals.Wait.P90, 10000.0)
	check("top confirm", r.TopConfirms[0].Input, "git reset --hard HEAD~1")
	check("top confirm count", r.TopConfirms[0].Count, 3)
	check("top confirm user allowed", r.TopConfirms[0].UserAllowed, 2)
	check("top block", r.TopBlocks[0].Input, "rm -rf /")
	check("top block count", r.TopBlocks[0].Count, 2)
	check("mcp servers", len(r.MCPServers), 2)
	check("github calls", r.MCPServers[0].Calls, 3)
	check("github block", r.MCPServers[0].Block, 1)
	check("github tools", strings.Join(r.MCPServers[0].Tools, ","), "create_issue,delete_repo,get_issue")
	check("latency p50", r.Latency.P50, 2.0)
	check("latency p90", r.Latency.P90, 700.0)
	check("latency p99", r.Latency.P99, 800.0)
}

func TestReportText(t *testing.T) {
	pinReportClock(t)
	code, out, errOut := runCLI(t, "", "report", "--since", "3d", "--audit", reportLog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, re := range []string{
		`(?m)^decisions\s+18 \(2 corrupt lines skipped\)$`,
		`(?m)^  allow\s+7\s+38\.9%$`,
		`(?m)^  confirm\s+7\s+38\.9%$`,
		`(?m)^  block\s+4\s+22\.2%$`,
		`(?m)^  Bash\s+12\s+66\.7%$`,
		`(?m)^By host$`,
		`(?m)^  zcode \(ZCode\)\s+16\s+7\s+5\s+4\s+6$`,
		`(?m)^  claude \(Claude Code\)\s+2\s+0\s+2\s+0\s+0$`,
		`(?m)^  remote judge calls\s+2$`,
		`(?m)^  cache hits\s+1$`,
		`(?m)^  cache hit rate\s+33\.3%$`,
		`(?m)^Approvals \(confirm-level calls: 7\)$`,
		`(?m)^  user\s+4\s+3\s+1\s+0$`,
		`(?m)^  policy\s+1\s+0\s+1\s+0$`,
		`(?m)^  time to answer: median 4\.0 s, p90 10\.0 s \(4 answers\)$`,
		`(?m)^  3\s+2\s+Bash\s+git reset --hard HEAD~1$`,
		`(?m)^  2\s+Bash\s+rm -rf /$`,
		`(?m)^  github\s+3\s+1\s+1\s+1\s+create_issue, delete_repo, get_issue$`,
		`(?m)^  p50 2\.0 ms\s+p90 700 ms\s+p99 800 ms\s+max 800 ms\s+\(18 decisions\)$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("text report lacks %s:\n%s", re, out)
		}
	}
}

func TestReportErrors(t *testing.T) {
	code, _, errOut := runCLI(t, "", "report", "--since", "3 days")
	if code != 2 || !strings.Contains(errOut, `--since "3 days"`) {
		t.Errorf("bad --since: exit %d, %q", code, errOut)
	}
	missing := filepath.Join(t.TempDir(), "none.jsonl")
	code, _, errOut = runCLI(t, "", "report", "--audit", missing)
	if code != 1 || !strings.Contains(errOut, "no audit log at "+missing) {
		t.Errorf("missing log: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "", "report", "stray")
	if code != 2 || !strings.Contains(errOut, "unexpected argument") {
		t.Errorf("stray arg: exit %d, %q", code, errOut)
	}
}

// Without --audit the report reads the guard's own log under AGENT_GUARD_HOME.
func TestReportDefaultPathAndEmptyPeriod(t *testing.T) {
	pinReportClock(t)
	home := t.TempDir()
	t.Setenv("AGENT_GUARD_HOME", home)
	data, err := os.ReadFile(reportLog)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(home, "audit.jsonl"), data, 0o600)
	code, out, _ := runCLI(t, "", "report", "--since", "1h")
	if code != 0 || !strings.Contains(out, "No decisions in this period.") || !strings.Contains(out, filepath.Join(home, "audit.jsonl")) {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
