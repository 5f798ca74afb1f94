// Package wire is the protocol between agent-guard-hook and the agent-guard
// server: one request and one response per connection, each a single line
// of JSON ending in '\n', versioned and size-limited.
//
// A request only submits an event to be judged. No field of any message can
// approve a call: approval comes from a human in the tray's dialog.
package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/internal/jsonenc"
)

// Version is the protocol version both sides must speak exactly. 2: the
// response carries the host's finished output (stdout, stderr, code).
const Version = 2

// Size limits. The hook caps stdin at MaxEvent; a request is the event plus
// a small envelope.
const (
	MaxEvent    = 1 << 20
	MaxRequest  = MaxEvent + 16<<10
	MaxResponse = 64 << 10
	// MaxBudgetMS bounds the time a hook may ask the server to take.
	MaxBudgetMS = 3600 * 1000
)

// Host decisions, as the host's permissionDecision field spells them.
const (
	Allow = "allow"
	Ask   = "ask"
	Deny  = "deny"
)

// Hosts the hook speaks for (every hostproto host is accepted).
const (
	HostZCode  = "zcode"
	HostClaude = "claude"
)

// Request is what the hook sends: the host's raw event and how long the
// hook will wait for the answer.
type Request struct {
	V     int             `json:"v"`
	Host  string          `json:"host"`
	Event json.RawMessage `json:"event"`
	// BudgetMS is the time left before the hook answers deny on its own.
	// The server must answer well within it.
	BudgetMS int64 `json:"budget_ms"`
}

// Response is the server's decision, rendered for the host: the hook
// checks that Stdout, Stderr and Code are exactly what its host protocol
// renders for Decision and Reason, then copies them out.
type Response struct {
	V        int    `json:"v"`
	Decision string `json:"decision"` // allow | ask | deny
	Reason   string `json:"reason"`
	Level    string `json:"level,omitempty"` // allow | confirm | block
	Source   string `json:"source,omitempty"`
	Rule     string `json:"rule,omitempty"`
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr,omitempty"`
	Code     int    `json:"code"`
}

// MaxReason bounds a reason, so that it and the host output holding it
// always fit in one response.
const MaxReason = MaxResponse / 8

// ErrTooLarge is returned for a message over its size limit.
var ErrTooLarge = errors.New("wire: message too large")

// Validate checks a request's fields.
func (r *Request) Validate() error {
	if r.V != Version {
		return fmt.Errorf("wire: request version %d, this agent-guard speaks %d; update agent-guard-hook and agent-guard together", r.V, Version)
	}
	if _, ok := hostproto.Lookup(r.Host); !ok || r.Host != strings.ToLower(r.Host) {
		return fmt.Errorf("wire: unknown host %q", r.Host)
	}
	ev := bytes.TrimSpace(r.Event)
	if len(ev) == 0 || ev[0] != '{' {
		return errors.New("wire: request event is not a JSON object")
	}
	if r.BudgetMS <= 0 || r.BudgetMS > MaxBudgetMS {
		return fmt.Errorf("wire: request budget_ms %d is outside 1..%d", r.BudgetMS, MaxBudgetMS)
	}
	return nil
}

// Validate checks a response's fields.
func (r *Response) Validate() error {
	if r.V != Version {
		return fmt.Errorf("wire: response version %d, this agent-guard-hook speaks %d; update agent-guard-hook and agent-guard together", r.V, Version)
	}
	switch r.Decision {
	case Allow, Ask, Deny:
	default:
		return fmt.Errorf("wire: response decision %q is not allow, ask or deny", r.Decision)
	}
	if r.Reason == "" {
		return errors.New("wire: response has no reason")
	}
	if r.Code < 0 || r.Code > 255 {
		return fmt.Errorf("wire: response exit code %d is outside 0..255", r.Code)
	}
	return nil
}

// DecodeRequest parses one request line strictly: unknown fields, trailing
// data, a wrong version or bad fields are errors.
func DecodeRequest(line []byte) (Request, error) {
	var r Request
	if len(line) > MaxRequest {
		return r, ErrTooLarge
	}
	if fast, ok := scanRequest(line); ok {
		r = fast
	} else if err := strictDecode(line, &r); err != nil {
		return Request{}, fmt.Errorf("wire: bad request: %w", err)
	}
	if err := r.Validate(); err != nil {
		return Request{}, err
	}
	return r, nil
}

// DecodeResponse parses one response line strictly.
func DecodeResponse(line []byte) (Response, error) {
	var r Response
	if len(line) > MaxResponse {
		return r, ErrTooLarge
	}
	if err := strictDecode(line, &r); err != nil {
		return Response{}, fmt.Errorf("wire: bad response: %w", err)
	}
	if err := r.Validate(); err != nil {
		return Response{}, err
	}
	return r, nil
}

// scanRequest reads the request the hook writes (each of the four fields
// once, spelled exactly, plain values) without encoding/json's reflection:
// it was a tenth of the server's CPU per request. Anything else (a field
// twice, another spelling, null, a number with a fraction, bad JSON)
// reports !ok and goes through strictDecode, which is the reference for
// what is accepted and for the error (FuzzScanRequest holds them equal).
func scanRequest(line []byte) (Request, bool) {
	var r Request
	var seen [4]bool
	once := func(i int) bool {
		if seen[i] {
			return false
		}
		seen[i] = true
		return true
	}
	ok := hostproto.ScanObject(line, func(m hostproto.Member) bool {
		if m.Slow {
			return false
		}
		var ok bool
		switch string(m.Key) {
		case `"v"`:
			var n int64
			n, ok = hostproto.IntValue(m.Value, strconv.IntSize)
			r.V = int(n)
			return ok && once(0)
		case `"host"`:
			r.Host, ok = hostproto.StringValue(m.Value)
			return ok && once(1)
		case `"event"`:
			r.Event = append(json.RawMessage(nil), m.Value...)
			return m.Value[0] == '{' && once(2)
		case `"budget_ms"`:
			r.BudgetMS, ok = hostproto.IntValue(m.Value, 64)
			return ok && once(3)
		}
		return false
	})
	return r, ok
}

func strictDecode(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("extra data after the JSON object")
	}
	return nil
}

// EncodeRequest validates r and renders it as one line with its newline.
func EncodeRequest(r Request) ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	// Compact the event so it cannot carry a raw newline into the frame.
	var ev bytes.Buffer
	if err := json.Compact(&ev, r.Event); err != nil {
		return nil, fmt.Errorf("wire: request event is not valid JSON: %w", err)
	}
	r.Event = ev.Bytes()
	return encode(r, MaxRequest)
}

// CutReason shortens an over-long reason (before it is rendered into the
// host output) so the response always fits.
func CutReason(reason string) string {
	if len(reason) > MaxReason {
		return cutUTF8(reason, MaxReason) + "…"
	}
	return reason
}

// EncodeResponse validates r and renders it as one line with its newline.
func EncodeResponse(r Response) ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	// Room for the escapes too: the host output is JSON, its quotes
	// come back escaped.
	n := len(r.Reason) + len(r.Level) + len(r.Source) + len(r.Rule) + len(r.Stdout) + len(r.Stderr)
	b := appendResponse(make([]byte, 0, 128+n+n/2), &r)
	if len(b)+1 > MaxResponse {
		return nil, ErrTooLarge
	}
	return append(b, '\n'), nil
}

// appendResponse writes r as json.Marshal does (field order, omitempty,
// HTML-safe escapes; TestAppendResponseMatchesMarshal), without its
// reflection: the server writes one per call.
func appendResponse(b []byte, r *Response) []byte {
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(r.V), 10)
	b = jsonenc.AppendField(b, "decision", r.Decision, false)
	b = jsonenc.AppendField(b, "reason", r.Reason, false)
	b = jsonenc.AppendField(b, "level", r.Level, true)
	b = jsonenc.AppendField(b, "source", r.Source, true)
	b = jsonenc.AppendField(b, "rule", r.Rule, true)
	b = jsonenc.AppendField(b, "stdout", r.Stdout, false)
	b = jsonenc.AppendField(b, "stderr", r.Stderr, true)
	b = append(b, `,"code":`...)
	b = strconv.AppendInt(b, int64(r.Code), 10)
	return append(b, '}')
}

func encode(v any, max int) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(b)+1 > max {
		return nil, ErrTooLarge
	}
	return append(b, '\n'), nil
}

// readers reuses ReadLine's buffers: a fresh 4 KB one per message was the
// largest allocation on the server's path (and the limit reader with it).
var readers = sync.Pool{New: func() any {
	lr := new(limitedReader)
	lr.br = bufio.NewReaderSize(&lr.lr, 4096)
	return lr
}}

type limitedReader struct {
	lr io.LimitedReader
	br *bufio.Reader
}

// ReadLine reads one '\n'-terminated line of at most max bytes (without the
// newline). Callers set the connection's read deadline.
func ReadLine(r io.Reader, max int) (line []byte, err error) {
	err = readLine(r, max, func(l []byte) error {
		line = append(make([]byte, 0, len(l)), l...)
		return nil
	})
	return line, err
}

// readLine is ReadLine handing the line to use, which must not keep it:
// a line that came in one piece is the pooled buffer itself (no copy).
func readLine(r io.Reader, max int, use func(line []byte) error) error {
	rd := readers.Get().(*limitedReader)
	rd.lr = io.LimitedReader{R: r, N: int64(max) + 1}
	br := rd.br
	br.Reset(&rd.lr)
	defer func() { rd.lr.R = nil; br.Reset(&rd.lr); readers.Put(rd) }()
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if err == nil && line == nil {
			return use(chunk[:len(chunk)-1])
		}
		line = append(line, chunk...)
		if err == nil { // the limit reader admits at most max bytes plus '\n'
			return use(line[:len(line)-1])
		}
		if len(line) > max {
			return ErrTooLarge
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) {
			if len(line) == 0 {
				return io.EOF
			}
			return fmt.Errorf("wire: message cut off after %d bytes: %w", len(line), io.ErrUnexpectedEOF)
		}
		return err
	}
}

// ReadRequest reads and decodes one request. DecodeRequest keeps nothing
// of the line (the event is copied), so it reads the pooled buffer.
func ReadRequest(r io.Reader) (req Request, err error) {
	err = readLine(r, MaxRequest, func(line []byte) error {
		var derr error
		req, derr = DecodeRequest(line)
		return derr
	})
	if err != nil {
		return Request{}, err
	}
	return req, nil
}

// ReadResponse reads and decodes one response.
func ReadResponse(r io.Reader) (Response, error) {
	line, err := ReadLine(r, MaxResponse)
	if err != nil {
		return Response{}, err
	}
	return DecodeResponse(line)
}

// cutUTF8 returns at most n bytes of s without splitting a rune.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
