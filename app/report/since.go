package report

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

var dayWeek = regexp.MustCompile(`^(\d+(?:\.\d+)?)([dw])(.*)$`)

// ParseSince reads --since: a Go duration ("36h", "90m"), days or weeks
// ("3d", "2w", "1d12h"), or a date or time ("2026-11-28",
// "2026-11-28T09:00:00Z"). It returns the start of the period ending now.
func ParseSince(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	d, err := parseDuration(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--since %q: want a duration like 3d, 2w, 36h or 90m, or a date like 2026-11-28", s)
	}
	if d < 0 {
		return time.Time{}, fmt.Errorf("--since %q is negative", s)
	}
	return now.Add(-d), nil
}

func parseDuration(s string) (time.Duration, error) {
	m := dayWeek.FindStringSubmatch(s)
	if m == nil {
		return time.ParseDuration(s)
	}
	n, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, err
	}
	unit := 24 * time.Hour
	if m[2] == "w" {
		unit *= 7
	}
	if n > 10000 {
		return 0, fmt.Errorf("too long")
	}
	d := time.Duration(n * float64(unit))
	if m[3] != "" {
		rest, err := time.ParseDuration(m[3])
		if err != nil {
			return 0, err
		}
		d += rest
	}
	return d, nil
}
