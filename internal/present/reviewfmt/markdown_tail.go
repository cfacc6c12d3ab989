package reviewfmt

import (
	"fmt"
	"strings"
)

// findingDetail is the collapsed detail of each finding — its whole
// message, judge, criterion and fingerprint — within budget bytes; it
// returns how many it showed.
func findingDetail(fs []Finding, r Review, budget int) (string, int) {
	if len(fs) == 0 || budget <= 0 {
		return "", 0
	}
	var b strings.Builder
	b.WriteString("<details><summary>Finding detail</summary>\n\n")
	const closing = "</details>\n\n"
	for i, f := range fs {
		var e strings.Builder
		fmt.Fprintf(&e, "**%d. %s**", i+1, rung(f))
		if f.File != "" {
			e.WriteString(" · " + location(f, r, MarkdownOptions{}))
		}
		if f.Judge != "" {
			e.WriteString(" · judge " + inline(f.Judge, 60))
		}
		if f.Criterion != "" {
			e.WriteString(" · criterion " + inline(f.Criterion, 60))
		}
		if f.Fingerprint != "" {
			e.WriteString(" · fingerprint " + codeSpan(f.Fingerprint, 100))
		}
		e.WriteString("\n\n" + codeBlock(f.Message, maxLine) + "\n\n")
		if b.Len()+e.Len()+len(closing) > budget {
			b.WriteString(closing)
			return b.String(), i
		}
		b.WriteString(e.String())
	}
	b.WriteString(closing)
	return b.String(), len(fs)
}

// markdownTail is what was omitted, the dismissals, the cost and the
// review's identity.
func markdownTail(r Review, o MarkdownOptions) string {
	var b strings.Builder
	if len(r.Omitted) > 0 {
		b.WriteString("**Not reviewed** (cut from what the judges saw):\n\n")
		for i, s := range r.Omitted {
			if i == 20 {
				fmt.Fprintf(&b, "- … and %d more\n", len(r.Omitted)-i)
				break
			}
			b.WriteString("- " + inline(s, maxCell) + "\n")
		}
		b.WriteString("\n")
	}
	if r.Dismissed > 0 {
		fmt.Fprintf(&b, "%d %s dismissed in earlier reviews %s not raised again.\n\n", r.Dismissed, plural(r.Dismissed, "finding", "findings"), plural(r.Dismissed, "is", "are"))
	}
	file := "the branch's dismissal file"
	if o.DismissedFile != "" {
		file = codeSpan(o.DismissedFile, maxPath)
	}
	fmt.Fprintf(&b, "To dismiss a finding, add its fingerprint (in the detail) as a line of %s on the base branch (a pull request's own copy is not read), optionally followed by why; it is not raised again until the code it points at changes.\n\n", file)
	b.WriteString("<sub>" + footer(r) + "</sub>\n")
	return b.String()
}

// footer is the one line of cost and identity under the comment.
func footer(r Review) string {
	parts := []string{}
	switch {
	case r.Reused:
		parts = append(parts, "cost $0 (verdict reused)")
	case r.CostUSD != nil:
		parts = append(parts, fmt.Sprintf("cost $%.4f", *r.CostUSD))
	default:
		parts = append(parts, "cost not reported")
	}
	if r.Base != "" && r.Head != "" {
		parts = append(parts, "reviewed "+codeSpan(short(r.Base)+"..."+short(r.Head), 100))
	}
	if r.ID != "" {
		parts = append(parts, "review "+codeSpan(r.ID, 64))
	}
	return strings.Join(parts, " · ")
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
