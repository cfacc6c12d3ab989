package reviewfmt

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// The hidden markers of the GitHub Action's review threads. A thread's
// first comment carries its finding's fingerprint (ThreadMarker); the
// Action's reply that a finding is fixed carries FixedMarker. Only
// comments the workflow's token wrote are read for them (ghaction), so a
// marker pasted by anyone else means nothing.
const (
	threadMarkerPrefix = "<!-- tribunal:fp="
	fixedMarkerPrefix  = "<!-- tribunal:fixed fp="
	markerEnd          = " -->"
)

// fingerprintPattern is what the review command's fingerprints look like
// (dismiss.Fingerprint: "tf2:" and 32 hex digits): a marker holding
// anything else is not one of ours.
// They are compiled on first use: nothing runs at start (TestStartDoesNoWork).
var (
	threadMarkerRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<!-- tribunal:fp=(tf[0-9]+:[0-9a-f]{8,64}) -->`)
	})
	fixedMarkerRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<!-- tribunal:fixed fp=(tf[0-9]+:[0-9a-f]{8,64}) -->`)
	})
)

// ThreadMarker is the hidden line that ties a review thread to fp.
func ThreadMarker(fp string) string { return threadMarkerPrefix + fp + markerEnd }

// FixedMarker is the hidden line of the reply saying fp's finding is fixed.
func FixedMarker(fp string) string { return fixedMarkerPrefix + fp + markerEnd }

// ThreadFingerprint is the fingerprint a thread comment's marker names,
// "" when body has none.
func ThreadFingerprint(body string) string {
	if m := threadMarkerRE().FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

// FixedFingerprint is the fingerprint of a "fixed" reply's marker, "".
func FixedFingerprint(body string) string {
	if m := fixedMarkerRE().FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

// maxSuggestionLines bounds a suggested replacement: a one-click change
// of more lines than this is not a review comment's business.
const maxSuggestionLines = 30

// Suggestable says whether f's suggestion may be offered as GitHub's
// one-click change: it replaces exactly the cited line (a suggestion
// replaces the lines its comment sits on, so any other range would
// change code the judge did not mean), and its text is plain lines that
// a ```suggestion fence shows as they are.
func Suggestable(f Finding) bool {
	s := f.Suggestion
	if s == nil || f.Line < 1 || s.StartLine != f.Line || s.EndLine != f.Line || len(s.Lines) > maxSuggestionLines {
		return false
	}
	for _, l := range s.Lines {
		if strings.ContainsFunc(l, func(r rune) bool { return unicode.IsControl(r) && r != '\t' }) {
			return false
		}
	}
	return true
}

// ThreadBody is the first comment of a finding's review thread: severity,
// judge and criterion, the message made inert, the suggestion when
// Suggestable, how to dismiss it, and the hidden fingerprint marker.
func ThreadBody(f Finding) string {
	var b strings.Builder
	b.WriteString("**" + rung(f).String() + "**")
	if f.Judge != "" {
		b.WriteString(" · " + inline(f.Judge, 100) + " judge")
	}
	if f.Criterion != "" {
		b.WriteString(" · " + codeSpan(f.Criterion, 100))
	}
	if f.Refuted {
		b.WriteString(" · refuted by verification, does not block")
	}
	b.WriteString("\n\n" + inline(f.Message, 2000) + "\n")
	if Suggestable(f) {
		body := strings.Join(f.Suggestion.Lines, "\n")
		fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
		b.WriteString("\n" + fence + "suggestion\n" + body)
		if len(f.Suggestion.Lines) > 0 {
			b.WriteString("\n")
		}
		b.WriteString(fence + "\n")
	}
	b.WriteString("\n<sub>tribunal review · reply `/tribunal dismiss <reason>` (or `/tribunal wrong <reason>`) to stop raising it until this code changes</sub>\n")
	b.WriteString(ThreadMarker(f.Fingerprint) + "\n")
	return b.String()
}

// FixedBody is the Action's reply in a thread whose finding the review at
// head no longer raises, when it may not resolve the thread itself.
func FixedBody(head, fp string) string {
	return "The review of " + codeSpan(head, 64) + " no longer raises this finding: it looks fixed (or was dismissed). Resolve the thread when you agree.\n" +
		FixedMarker(fp) + "\n"
}

// ThreadLink is a finding and its review thread (URL), or why it has none
// (Why): what the summary comment lists under its inline section.
type ThreadLink struct {
	Finding Finding
	URL     string
	Why     string
}

// InlineSection is the part of the summary comment about review threads:
// a link to each finding's thread, and the findings inside the diff
// that stayed here with the reason. "" when there is nothing to say.
func InlineSection(threads, here []ThreadLink, notes []string) string {
	if len(threads) == 0 && len(here) == 0 && len(notes) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n### Review threads\n\n")
	for _, t := range threads {
		where := codeSpan(cited(t.Finding), 300)
		if strings.HasPrefix(t.URL, "https://") || strings.HasPrefix(t.URL, "http://") {
			where = "[" + inline(cited(t.Finding), 300) + "](" + strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(t.URL) + ")"
		}
		b.WriteString("- " + where + " · " + rung(t.Finding).String() + " · " + inline(t.Finding.Message, 200) + "\n")
	}
	for _, t := range here {
		b.WriteString("- " + codeSpan(cited(t.Finding), 300) + " · " + rung(t.Finding).String() + " · not posted inline: " + inline(t.Why, 200) + "\n")
	}
	for _, n := range notes {
		b.WriteString("\n> " + inline(n, 400) + "\n")
	}
	return b.String()
}
