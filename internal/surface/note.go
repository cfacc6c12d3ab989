package surface

import (
	"github.com/tribunal-cc/tribunal/internal/safetext"

	"fmt"
	"strings"
	"time"
)

// Note limits: the note goes into the model's context at the start of every
// session that has something new, so it stays a few lines long.
const (
	// MaxListed is how many verdicts the note describes; the rest are
	// counted ("and N more").
	MaxListed = 3
	// maxFeedback bounds each quoted feedback summary, in bytes.
	maxFeedback = 160
)

// Note renders the additionalContext for the surfaced verdicts, newest
// first. shown must not be empty.
func Note(shown []Advisory, now time.Time) string {
	var b strings.Builder
	n := len(shown)
	if n == 1 {
		b.WriteString("tribunal: an advisory verdict from an earlier session of this project has not been shown to the user yet:\n")
	} else {
		fmt.Fprintf(&b, "tribunal: %d advisory verdicts from earlier sessions of this project have not been shown to the user yet:\n", n)
	}
	for i, a := range shown {
		if i == MaxListed {
			fmt.Fprintf(&b, "- and %d more\n", n-MaxListed)
			break
		}
		fmt.Fprintf(&b, "- %s, score %.2f (%s, session %s)", a.Outcome, a.Score, Age(now.Sub(a.WrittenAt)), a.ShortSession())
		if fb := OneLine(a.Feedback, maxFeedback); fb != "" {
			fmt.Fprintf(&b, ": %q", fb)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Mention this to the user if it bears on their work. Details: /tribunal-log, or `tribunal-session show %s`.", shown[0].ShortSession())
	return b.String()
}

// Age says how long ago something happened, coarsely: "just now", "5 min
// ago", "2 h ago", "3 d ago". A negative duration (a clock that went back)
// is "just now".
func Age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	default:
		return fmt.Sprintf("%d d ago", int(d/(24*time.Hour)))
	}
}

// OneLine flattens s to a single line (every run of whitespace or control
// characters becomes one space) and cuts it to at most max bytes without
// splitting a character, marking a cut with "…".
func OneLine(s string, max int) string { return safetext.OneLine(s, max) }
