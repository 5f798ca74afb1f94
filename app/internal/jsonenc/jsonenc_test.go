package jsonenc

import (
	"encoding/json"
	"math"
	"testing"
)

func TestAsMarshal(t *testing.T) {
	for _, s := range []string{"", "git status", `a"b\c`, "<script>&amp;", "\u2028\u2029", "\x00\x01\x1f\b\f\n\r\t\x7f", "bad \xff\xfe \xe2\x82", "ü 日本 😀", "\ufffd"} {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Errorf("%q: got %s want %s", s, got, want)
		}
	}
	for _, f := range []float64{0, -0.0000001, 1e-7, 1e-6, 0.5, 1, 2.5, 123456789.5, 1e20, 1e21, 1e300, math.SmallestNonzeroFloat64, -3} {
		want, _ := json.Marshal(f)
		if got := AppendFloat(nil, f); string(got) != string(want) {
			t.Errorf("%v: got %s want %s", f, got, want)
		}
	}
}

func FuzzAsMarshal(f *testing.F) {
	f.Add("x<&>\u2028\xff", 0.1)
	f.Fuzz(func(t *testing.T, s string, x float64) {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Errorf("%q: got %s want %s", s, got, want)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		want, _ = json.Marshal(x)
		if got := AppendFloat(nil, x); string(got) != string(want) {
			t.Errorf("%v: got %s want %s", x, got, want)
		}
	})
}
