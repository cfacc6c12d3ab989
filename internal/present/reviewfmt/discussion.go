package reviewfmt

import (
	"fmt"
	"strings"
)

// Discussion is the body of one finding's thread on its line (a GitLab
// merge request discussion): severity, criterion and judge, the message
// as inert text, the fingerprint, and hidden — the caller's marker, which
// lets the next pipeline find the thread again.
func Discussion(f Finding, marker string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**", inline(f.Severity, 40))
	if f.Criterion != "" {
		fmt.Fprintf(&b, " · %s", inline(f.Criterion, maxCell))
	}
	if f.Judge != "" {
		fmt.Fprintf(&b, " · judge %s", inline(f.Judge, maxCell))
	}
	if f.Refuted {
		b.WriteString(" · refuted by verification, not blocking")
	}
	fmt.Fprintf(&b, "\n\n%s\n\n%s · tribunal review\n%s\n", inline(f.Message, maxLine), codeSpan(f.Fingerprint, 80), marker)
	return b.String()
}
