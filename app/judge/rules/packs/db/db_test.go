package db

import (
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/rules/rulestest"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func TestPkJudgeSQL(t *testing.T) {
	cases := []struct {
		sql  string
		want string // level
	}{
		{"SELECT * FROM users", "allow"},
		{"select 'drop table x' as note", "allow"},
		{"-- DROP TABLE x\nSELECT 1", "allow"},
		{"/* truncate t */ select 1", "allow"},
		{"DROP TABLE users", "block"},
		{"drop temporary table t", "block"},
		{"DROP DATABASE app; SELECT 1", "block"},
		{"TRUNCATE orders", "block"},
		{"DELETE FROM users", "block"},
		{"DELETE FROM users WHERE 1 = 1", "block"},
		{"DELETE FROM users WHERE id = 3", "confirm"},
		{"UPDATE users SET a = 1", "block"},
		{"UPDATE users SET a = 'where' ", "block"},
		{"UPDATE users SET a = 1 WHERE id = 2", "confirm"},
		{"INSERT INTO t VALUES (1)", "allow"},
		{"ALTER TABLE t ADD COLUMN c int", "allow"},
		{"ALTER TABLE t DROP COLUMN c", "confirm"},
		{"GRANT ALL ON db.* TO 'u'", "confirm"},
		{"insert into notes values ('it''s a DROP TABLE joke')", "allow"},
	}
	c := &shell.Cmd{Name: "psql", Raw: "psql"}
	for _, tc := range cases {
		f, ok := pkJudgeSQL(c, tc.sql)
		if !ok {
			t.Errorf("%q: no finding", tc.sql)
			continue
		}
		if got := rulestest.Level(f); got != tc.want {
			t.Errorf("%q: got %s (%s), want %s", tc.sql, got, f.Rule, tc.want)
		}
	}
}
