package lazyre

import "testing"

func TestLazy(t *testing.T) {
	tests := []struct {
		pattern, in string
		match       bool
	}{
		{`^a+b$`, "aaab", true},
		{`^a+b$`, "aaac", false},
		{`(?i)drop\s+table`, "DROP  TABLE x", true},
	}
	for _, tt := range tests {
		r := New(tt.pattern)
		if r.re != nil {
			t.Fatalf("%q compiled before first use", tt.pattern)
		}
		if got := r.MatchString(tt.in); got != tt.match {
			t.Errorf("%q on %q = %v, want %v", tt.pattern, tt.in, got, tt.match)
		}
	}
}

func TestCheckAllReportsBadPattern(t *testing.T) {
	if err := CheckAll(); err != nil {
		t.Fatalf("good patterns reported: %v", err)
	}
	New(`(unclosed`)
	defer func() { mu.Lock(); all = all[:len(all)-1]; mu.Unlock() }()
	if err := CheckAll(); err == nil {
		t.Fatal("CheckAll accepted an invalid pattern")
	}
}
