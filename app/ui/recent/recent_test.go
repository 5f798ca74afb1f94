//go:build !nogui

package recent

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/agent-guard/agent-guard/app/audit"
)

func TestNewestFirstAndLimit(t *testing.T) {
	a := test.NewTempApp(t)
	var es []audit.Entry
	for i := 0; i < Limit+10; i++ {
		es = append(es, audit.Entry{TS: time.Now(), Tool: "Bash", Input: fmt.Sprintf("cmd %d", i), Level: "confirm", Decision: "deny", Decider: "user"})
	}
	v := New(a, es, "", "")
	if len(v.Rows) != Limit {
		t.Fatalf("%d rows, want %d", len(v.Rows), Limit)
	}
	if v.Rows[0][4] != fmt.Sprintf("cmd %d", Limit+9) {
		t.Fatalf("first row %v, want the newest", v.Rows[0])
	}
	if got := v.Rows[0]; got[1] != "deny" || got[2] != "confirm" || got[3] != "Bash" || got[5] != "user" {
		t.Fatalf("row %v", got)
	}
}

func TestEmpty(t *testing.T) {
	v := New(test.NewTempApp(t), nil, "", "")
	if len(v.Rows) != 0 {
		t.Fatal("rows from nothing")
	}
}

func TestRowFlattensInput(t *testing.T) {
	r := Row(audit.Entry{TS: time.Now(), Input: "a\n  b"})
	if r[4] != "a b" {
		t.Fatalf("input cell %q", r[4])
	}
}
