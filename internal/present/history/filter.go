package history

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// Outcomes are the words --outcome takes, as the help lists them: the
// words people read (rules.OutcomeWords, "not-accepted" for a task whose
// gate never passed) and "failed", for everything that failed.
var Outcomes = []string{"accepted", "not-accepted", "aborted", "rejected", "failed", "cancelled", OutcomeIncomplete}

// outcomeAliases maps what people type, spaces and underscores read as
// hyphens, to the recorded outcomes it selects. "rejected" is the Stop
// judge's verdict only: a task is "not accepted". "failed" is everything
// that failed: tasks not accepted or aborted, and advisory judgements
// that produced no verdict.
var outcomeAliases = map[string][]string{
	"accepted":             {rules.OutcomeAccepted},
	"accept":               {rules.OutcomeAccepted},
	"passed":               {rules.OutcomeAccepted},
	"not-accepted":         {rules.OutcomeExhausted},
	"notaccepted":          {rules.OutcomeExhausted},
	"unaccepted":           {rules.OutcomeExhausted},
	"exhausted":            {rules.OutcomeExhausted},
	"exhausted-iterations": {rules.OutcomeExhausted},
	"aborted":              {rules.OutcomeAborted},
	"rejected":             {rules.OutcomeRejected},
	"failed":               {rules.OutcomeExhausted, rules.OutcomeAborted, rules.OutcomeFailed},
	"failures":             {rules.OutcomeExhausted, rules.OutcomeAborted, rules.OutcomeFailed},
	"cancelled":            {rules.OutcomeCancelled},
	"canceled":             {rules.OutcomeCancelled},
	OutcomeIncomplete:      {OutcomeIncomplete},
	"running":              {OutcomeIncomplete},
}

// ParseOutcomes reads a comma-separated list of outcomes, in the words of
// Outcomes or their aliases, into the recorded outcomes they select.
func ParseOutcomes(s string) ([]string, error) {
	var out []string
	for _, o := range strings.Split(s, ",") {
		o = strings.NewReplacer(" ", "-", "_", "-").Replace(strings.ToLower(strings.TrimSpace(o)))
		if o == "" {
			continue
		}
		recorded, ok := outcomeAliases[o]
		if !ok {
			return nil, fmt.Errorf("unknown outcome %q%s", o, safetext.DidYouMean(o, Outcomes, strconv.Quote))
		}
		for _, r := range recorded {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
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
