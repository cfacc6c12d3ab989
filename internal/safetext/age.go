package safetext

import (
	"fmt"
	"time"
)

// Age says how long ago something happened, coarsely: "just now", "5 min
// ago", "2 h ago", "3 d ago": the one wording of a record's age, in the
// SessionStart note and in `tribunal-session show`. A negative duration (a clock that went back)
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
