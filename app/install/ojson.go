package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// We edit other programs' config files, so a round trip must keep every
// key we do not touch, in its order, with its exact value. A JSON object is
// held as an ordered list of members whose values stay json.RawMessage
// until we need to look inside; only the path we edit (hooks, events,
// PreToolUse) is ever decoded. Untouched values are re-emitted byte for
// byte apart from whitespace (the whole file is re-indented at the end).

type member struct {
	key string
	val json.RawMessage
}

type object struct{ members []member }

// parseObject decodes raw as one JSON object, keeping member order.
// Duplicate keys are refused: which one the host honours is not ours to guess.
func parseObject(raw []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errNotObject
	}
	o := &object{}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if seen[key] {
			return nil, fmt.Errorf("duplicate key %q", key)
		}
		seen[key] = true
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		o.members = append(o.members, member{key, val})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("extra data after the JSON object")
	}
	return o, nil
}

var errNotObject = errors.New("not a JSON object")

func (o *object) get(key string) (json.RawMessage, bool) {
	for _, m := range o.members {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// set replaces key's value in place, or appends the key at the end.
func (o *object) set(key string, val json.RawMessage) {
	for i, m := range o.members {
		if m.key == key {
			o.members[i].val = val
			return
		}
	}
	o.members = append(o.members, member{key, val})
}

// child returns key's value as an object, a new empty one when the key is
// missing or null, or an error naming the key when it is something else.
func (o *object) child(key, where string) (*object, error) {
	raw, ok := o.get(key)
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return &object{}, nil
	}
	c, err := parseObject(raw)
	if err != nil {
		return nil, fmt.Errorf("%s is not a JSON object (%v); fix it by hand, nothing was changed", where, err)
	}
	return c, nil
}

// array returns key's value as a list of raw elements (empty when missing).
func (o *object) array(key, where string) ([]json.RawMessage, error) {
	raw, ok := o.get(key)
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("%s is not a JSON array; fix it by hand, nothing was changed", where)
	}
	return a, nil
}

// compact renders the object without whitespace, in member order.
func (o *object) compact() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o.members {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(mustMarshal(m.key))
		b.WriteByte(':')
		if err := json.Compact(&b, m.val); err != nil {
			// Values come from a successful decode or from mustMarshal.
			panic("install: invalid raw JSON value: " + err.Error())
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

func compactArray(a []json.RawMessage) json.RawMessage {
	if len(a) == 0 {
		return json.RawMessage("[]")
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, v := range a {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := json.Compact(&b, v); err != nil {
			panic("install: invalid raw JSON value: " + err.Error())
		}
	}
	b.WriteByte(']')
	return b.Bytes()
}

// mustMarshal encodes our own values; HTML escaping is off so a path with
// & or < stays readable in the user's file.
func mustMarshal(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("install: " + err.Error())
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// render indents compact JSON like the original file (its first indented
// line sets the unit; two spaces for a new file) and ends it with a newline.
func render(compact []byte, original []byte) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, compact, "", indentOf(original)); err != nil {
		panic("install: " + err.Error())
	}
	b.WriteByte('\n')
	return b.Bytes()
}

func indentOf(original []byte) string {
	for _, line := range bytes.Split(original, []byte("\n"))[1:] {
		trimmed := bytes.TrimLeft(line, " \t")
		if n := len(line) - len(trimmed); n > 0 && len(trimmed) > 0 {
			return string(line[:n])
		}
	}
	return "  "
}

// checkJSON validates a whole file and turns a syntax error into a line
// and column the user can jump to.
func checkJSON(data []byte) error {
	var v any
	err := json.Unmarshal(data, &v)
	if err == nil {
		if _, ok := v.(map[string]any); !ok {
			return errors.New("the top level is not a JSON object")
		}
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := position(data, se.Offset)
		return fmt.Errorf("not valid JSON at line %d, column %d: %v", line, col, se)
	}
	return err
}

// position converts a byte offset (json's Offset counts bytes read, so the
// culprit is the byte before it) into 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	if offset > 0 {
		offset--
	}
	line, col = 1, 1
	for _, c := range data[:offset] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
