package shell

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/flatten.golden from the current walk")

// flatCmd is the part of a Cmd the golden file pins: what runs, with what,
// from where. A new Cmd field does not churn the file.
type flatCmd struct {
	Name       string   `json:"name"`
	Args       []string `json:"args,omitempty"`
	Wrappers   []string `json:"wrappers,omitempty"`
	Redirs     []string `json:"redirs,omitempty"`
	Depth      int      `json:"depth,omitempty"`
	FedCode    bool     `json:"fed_code,omitempty"`
	HiddenCode bool     `json:"hidden_code,omitempty"`
	DynName    bool     `json:"dyn_name,omitempty"`
	Background bool     `json:"background,omitempty"`
	Piped      bool     `json:"piped,omitempty"`
}

type flatLine struct {
	In   string    `json:"in"`
	Cmds []flatCmd `json:"cmds"`
	Err  bool      `json:"err,omitempty"`
}

// readable shows Dyn as $? so the golden file is text.
func readable(s string) string { return strings.ReplaceAll(s, Dyn, "$?") }

func flatten(src string) flatLine {
	a := Analyze(src)
	l := flatLine{In: src, Err: a.Err != nil, Cmds: []flatCmd{}}
	for _, c := range a.Cmds {
		f := flatCmd{Name: readable(c.Name), Wrappers: c.Wrappers, Depth: c.Depth, FedCode: c.FedCode,
			HiddenCode: c.HiddenCode, DynName: c.DynName, Background: c.Background,
			Piped: len(c.PipedFrom)+len(c.PipedTo) > 0}
		for _, a := range c.Args {
			f.Args = append(f.Args, readable(a))
		}
		for _, r := range c.Redirs {
			t := readable(r.Target)
			if len(t) > 60 {
				t = t[:60] + "..."
			}
			f.Redirs = append(f.Redirs, r.Op+" "+t)
		}
		l.Cmds = append(l.Cmds, f)
	}
	return l
}

// TestFlattenGolden pins what the walk makes of each line in
// testdata/flatten.jsonl (the simple commands that would run, unwrapped
// and opened up). A change shows as a diff of testdata/flatten.golden;
// after reading it, `go test ./app/judge/shell -run TestFlattenGolden
// -update` records the new walk.
func TestFlattenGolden(t *testing.T) {
	in, err := os.ReadFile("testdata/flatten.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(in))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		var src string
		if err := json.Unmarshal([]byte(line), &src); err != nil {
			t.Fatalf("flatten.jsonl: %v: %s", err, line)
		}
		b, err := json.Marshal(flatten(src))
		if err != nil {
			t.Fatal(err)
		}
		got.Write(b)
		got.WriteByte('\n')
		n++
	}
	if n < 500 {
		t.Fatalf("flatten.jsonl has %d lines; want at least 500", n)
	}
	if *updateGolden {
		if err := os.WriteFile("testdata/flatten.golden", got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile("testdata/flatten.golden")
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
	bad := 0
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			if bad++; bad <= 10 {
				t.Errorf("line %d:\n got  %s\n want %s", i+1, g, w)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d lines differ from testdata/flatten.golden; if the new walk is right, run with -update", bad)
	}
}
