package dismiss

import (
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/severity"
)

// InlineMarker starts the inline form of a dismissal, written in a
// comment of any language:
//
//	// tribunal: dismiss <topic> — <reason>
//
// <topic> is the criterion a finding names (case-insensitive), or its
// severity when it names none; the separator is an em dash, "--" or ":";
// the reason is the rest of the line, with a closing "*/" or "-->"
// dropped, and must not be empty. The comment dismisses the findings of
// that topic whose cited line is its own line or one of the InlineReach
// lines below it.
const InlineMarker = "tribunal: dismiss "

// InlineReach is how many lines below an inline dismissal it covers.
const InlineReach = 3

// Inline is one inline dismissal found in a file.
type Inline struct {
	File   string
	Line   int
	Topic  string
	Reason string
}

// ParseInline reads the inline dismissal on one line of code: ok is false
// when the line has none; err says why a line that has one is not valid
// (no topic, or no reason).
func ParseInline(line string) (topic, reason string, ok bool, err error) {
	i := strings.Index(line, InlineMarker)
	if i < 0 {
		return "", "", false, nil
	}
	rest := strings.TrimSpace(line[i+len(InlineMarker):])
	for _, closer := range []string{"*/", "-->"} {
		rest = strings.TrimSpace(strings.TrimSuffix(rest, closer))
	}
	end := strings.IndexFunc(rest, func(r rune) bool {
		return !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
	if end < 0 {
		end = len(rest)
	}
	topic, rest = rest[:end], rest[end:]
	if k := strings.Index(topic, "--"); k >= 0 {
		topic, rest = topic[:k], topic[k:]+rest
	}
	rest = strings.TrimSpace(rest)
	if topic == "" {
		return "", "", true, fmt.Errorf("%q names no criterion", strings.TrimSpace(line[i:]))
	}
	for _, sep := range []string{"—", "--", ":"} {
		if r, found := strings.CutPrefix(rest, sep); found {
			reason = strings.TrimSpace(r)
			break
		}
	}
	if reason == "" {
		return topic, "", true, fmt.Errorf("the inline dismissal of %q gives no reason (write %s%s — why it does not apply)", topic, InlineMarker, topic)
	}
	return topic, reason, true, nil
}

// InlineAt finds the inline dismissal that covers a finding of topic at
// line n of lines, nil when none does; problems names the invalid inline
// dismissals it passed over (file is for their wording).
func InlineAt(file string, lines []string, n int, f severity.Finding) (found *Inline, problems []string) {
	if n < 1 || n > len(lines) {
		return nil, nil
	}
	want := strings.ToLower(f.Criterion)
	if want == "" {
		want = f.Severity
	}
	for l := n; l >= 1 && l >= n-InlineReach; l-- {
		topic, reason, ok, err := ParseInline(lines[l-1])
		if !ok {
			continue
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s:%d: %v; it dismisses nothing", file, l, err))
			continue
		}
		if strings.ToLower(topic) == want {
			return &Inline{File: file, Line: l, Topic: topic, Reason: reason}, problems
		}
	}
	return nil, problems
}
