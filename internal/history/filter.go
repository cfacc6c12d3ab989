package history

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/records"
)

// Outcomes are the outcomes a record can have: a task's (spec §7.10, plus
// OutcomeIncomplete) and an advisory verdict's (accepted, rejected).
// An advisory judgement that produced no verdict is failed or cancelled.
var Outcomes = []string{"accepted", "rejected", "exhausted_iterations", "aborted", OutcomeIncomplete,
	records.OutcomeFailed, records.OutcomeCancelled}

// ParseOutcomes reads a comma-separated list of outcomes.
func ParseOutcomes(s string) ([]string, error) {
	var out []string
	for _, o := range strings.Split(s, ",") {
		o = strings.ToLower(strings.TrimSpace(o))
		if o == "" {
			continue
		}
		if !slices.Contains(Outcomes, o) {
			return nil, fmt.Errorf("unknown outcome %q", o)
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		return nil, errors.New("no outcome given")
	}
	return out, nil
}

// ParseSince reads a --since value: a duration back from now (Go's
// durations plus whole days, "7d"), a date (midnight UTC) or an RFC 3339
// time.
func ParseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return now.Add(-time.Duration(n) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, errors.New("a duration back from now cannot be negative")
		}
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	return time.Time{}, errors.New("neither a duration nor a date")
}
