package audit

import "errors"

// Writer appends entries to the audit log. TODO(H3): real implementation.
type Writer struct{ path string }

// Open returns a writer for the JSONL log at path (created on first append).
func Open(path string) (*Writer, error) { return &Writer{path: path}, nil }

// Append writes one entry as one whole line.
func (w *Writer) Append(e Entry) error { return errors.New("audit: not built yet") }

// Digest returns the first 200 characters of input with secrets redacted.
func Digest(input string) string { return input }
