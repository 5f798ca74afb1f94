package proto

import (
	"bytes"
	"strings"
	"testing"
)

func TestReadReply(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string
		wantErr string
	}{
		{"allow", `{"id":3,"action":"allow"}` + "\n", ActionAllow, ""},
		{"always", `{"id":3,"action":"always","scope":"workspace"}`, ActionAlways, ""},
		{"always without a scope", `{"id":3,"action":"always"}`, "", "known scope"},
		{"always with a made-up scope", `{"id":3,"action":"always","scope":"forever"}`, "", "known scope"},
		{"eof", ``, "", "closed without an answer"},
		{"garbage", `{"id":3,"act`, "", "broken answer"},
		{"wrong id", `{"id":4,"action":"allow"}`, "", "expected 3"},
		{"unknown action", `{"id":3,"action":"yes"}`, "", "unknown action"},
		{"too long", `{"id":3,"reason":"` + strings.Repeat("x", MaxLine) + `"}`, "", "reading its answer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ReadReply(strings.NewReader(tc.in), 3)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || r.Action != tc.want {
				t.Fatalf("got %+v, %v", r, err)
			}
		})
	}
}

func TestWriteIsOneLine(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, Prompt{ID: 1, Reason: "a\nb"}); err != nil {
		t.Fatal(err)
	}
	if strings.Count(b.String(), "\n") != 1 || !strings.HasSuffix(b.String(), "\n") {
		t.Fatalf("not one line: %q", b.String())
	}
}
