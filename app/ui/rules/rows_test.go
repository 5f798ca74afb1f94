package rules

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
)

func TestRowsRemoveAndEditThroughUpdate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	at := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	if _, err := config.Update(path, func(c *config.Config) error {
		c.Fastpath.Allowlist = []string{"npm test*", "make"}
		c.Fastpath.Denylist = []string{"terraform destroy*"}
		c.MCPOverrides = map[string]map[string]string{"github": {"get_*": "readonly"}}
		c.AddScoped(config.ScopedApproval{Scope: config.ScopeWorkspace, Tool: "Bash", Pattern: "git reset --hard HEAD~3", Rule: "git.reset-hard", Workspace: "/w/a", Host: "claude", AddedAt: at})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	rows := Rows(c)
	if len(rows) != 5 || rows[0].Kind != KindScoped || rows[0].Where != "workspace /w/a (claude)" || rows[0].Added == "" {
		t.Fatalf("rows %+v", rows)
	}
	find := func(kind, pat string) Row {
		for _, r := range Rows(c) {
			if r.Kind == kind && r.Pattern == pat {
				return r
			}
		}
		t.Fatalf("no row %s %q in %+v", kind, pat, Rows(c))
		return Row{}
	}
	steps := []struct {
		name string
		edit func(*config.Config) error
		err  string
	}{
		{"edit an allowlist entry", Edit(find(KindAllow, "make"), "make check"), ""},
		{"edit the scoped approval", Edit(find(KindScoped, "git reset --hard HEAD~3"), "git reset --hard HEAD~2"), ""},
		{"a wildcard in a scoped Bash approval is refused", Edit(Row{Kind: KindScoped, ID: "nope", Editable: true}, "rm *"), "no longer"},
		{"remove the override", Remove(find(KindOverride, "github / get_*")), ""},
		{"remove the denylist entry", Remove(find(KindDeny, "terraform destroy*")), ""},
		{"remove it twice", Remove(Row{Kind: KindDeny, Pattern: "terraform destroy*"}), "no longer"},
		{"an empty edit", Edit(find(KindAllow, "npm test*"), "  "), "empty"},
	}
	for _, s := range steps {
		_, err := config.Update(path, s.edit)
		if (s.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), s.err) {
			t.Fatalf("%s: %v, want %q", s.name, err, s.err)
		}
		if c, err = config.Load(path); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.Fastpath.Allowlist) != 2 || c.Fastpath.Allowlist[1] != "make check" || len(c.Fastpath.Denylist) != 0 || len(c.MCPOverrides) != 0 {
		t.Fatalf("config after the edits: %+v %+v %+v", c.Fastpath, c.MCPOverrides, c.ScopedApprovals)
	}
	if len(c.ScopedApprovals) != 1 || c.ScopedApprovals[0].Pattern != "git reset --hard HEAD~2" {
		t.Fatalf("scoped %+v", c.ScopedApprovals)
	}
	// Undo removes exactly the given approvals.
	if _, err := config.Update(path, RemoveIDs([]string{c.ScopedApprovals[0].ID()})); err != nil {
		t.Fatal(err)
	}
	if c, _ = config.Load(path); len(c.ScopedApprovals) != 0 {
		t.Fatalf("undo left %+v", c.ScopedApprovals)
	}
	if !errors.Is(Remove(Row{Kind: KindScoped, ID: "x"})(config.Default()), ErrGone) {
		t.Fatal("removing a missing approval did not say it is gone")
	}
}
