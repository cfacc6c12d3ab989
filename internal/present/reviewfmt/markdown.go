package reviewfmt

import (
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/severity"
)

// Marker is the hidden first line of every comment body: the CI
// integrations find the one comment to update by it. Model text can never
// produce it, because every '<' of model text becomes '‹'.
const Marker = "<!-- tribunal-review -->"

// MaxMarkdownBytes bounds a comment body below GitHub's 65,536-character
// limit on a comment; findings that do not fit are counted, not shown.
const MaxMarkdownBytes = 60000

// Bounds on one piece of untrusted text in the comment.
const (
	maxCell    = 200 // a table cell, a reason, a task's first line
	maxSummary = 300 // a finding's message in the list
	maxPath    = 300 // a file name
	maxLine    = 500 // one line of a message in the detail
)

// Markdown renders r as one PR-comment body: the marker, the outcome
// sentence, the judges' scores, the findings by severity with file:line
// links, their detail collapsed, what was omitted, the cost, and how to
// dismiss a finding. Every piece of model- or author-written text is made
// inert (see inline, codeSpan, codeBlock).
func Markdown(r Review, o MarkdownOptions) string {
	head := markdownHead(r)
	tail := markdownTail(r, o)
	fs := Ordered(r.Findings)
	budget := MaxMarkdownBytes - len(head) - len(tail) - 200
	list, listed := findingList(fs, r, o, budget/2)
	detail, detailed := findingDetail(fs, r, budget-len(list))
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(list)
	b.WriteString(detail)
	if left := len(fs) - min(listed, detailed); left > 0 && len(fs) > 0 {
		fmt.Fprintf(&b, "%d more findings do not fit in a comment: see the SARIF or JSON output, or `tribunal-session show %s`.\n\n", left, inline(r.ID, 64))
	}
	b.WriteString(tail)
	return b.String()
}

// markdownHead is the marker, the outcome sentence and the judges table.
func markdownHead(r Review) string {
	var b strings.Builder
	b.WriteString(Marker + "\n")
	fmt.Fprintf(&b, "## tribunal review: %s\n\n", inline(r.Outcome, 40))
	b.WriteString(outcomeSentence(r) + "\n\n")
	if len(r.PolicyFromBase) > 0 {
		fmt.Fprintf(&b, "> **Note:** %s.\n\n", inline(PolicySentence(r.PolicyFromBase), maxLine))
	}
	if r.Reused {
		b.WriteString("The verdict was reused from an earlier review of the same base, head, rubric and panel: no model was called.\n\n")
	}
	if task := firstLine(r.Task); task != "" {
		fmt.Fprintf(&b, "**Task:** %s\n\n", inline(task, maxCell))
	}
	if len(r.Judges) > 0 {
		b.WriteString("| Judge | Model | Score | Result |\n| --- | --- | --- | --- |\n")
		for _, j := range r.Judges {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", inline(j.Type, maxCell), judgeModel(j), score(j.Score), judgeResult(j))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Threshold %.2f", r.Threshold)
	if r.RubricID != "" {
		fmt.Fprintf(&b, " · rubric %s", codeSpan(r.RubricID, maxCell))
	}
	b.WriteString("\n\n")
	return b.String()
}

// outcomeSentence says what the review decided. A review whose judges all
// failed says plainly that it judged nothing.
func outcomeSentence(r Review) string {
	reason := ""
	if s := inline(r.Reason, maxCell); s != "" {
		reason = " " + s
	}
	switch r.Outcome {
	case OutcomeAccepted:
		return "✅ **Accepted.**" + reason
	case OutcomeRejected:
		return "❌ **Rejected.**" + reason
	case OutcomeNoVerdict:
		return "⚠️ **No verdict.** Every judge failed, so this review says nothing about the code." + reason
	}
	return "**" + inline(r.Outcome, 40) + ".**" + reason
}

func judgeModel(j Judge) string {
	m := inline(j.Model, maxCell)
	if j.Family != "" {
		m += " (" + inline(j.Family, 40) + ")"
	}
	return m
}

func score(s *float64) string {
	if s == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f", *s)
}

func judgeResult(j Judge) string {
	switch {
	case j.Failure != "":
		return "⚠️ failed: " + inline(j.Failure, maxCell)
	case j.Passed:
		return "✅ passed"
	}
	return "❌ not passed"
}

// findingList is the findings grouped by rung, worst first, one line each,
// within budget bytes; it returns how many it listed.
func findingList(fs []Finding, r Review, o MarkdownOptions, budget int) (string, int) {
	if len(fs) == 0 {
		if r.Outcome == OutcomeNoVerdict {
			return "", 0
		}
		return "No findings.\n\n", 0
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### Findings (%d)\n", len(fs))
	group := severity.None
	for i, f := range fs {
		var line strings.Builder
		if l := rung(f); l != group {
			group = l
			fmt.Fprintf(&line, "\n**%s** (%d)\n\n", strings.ToUpper(l.String()[:1])+l.String()[1:], countRung(fs, l))
		}
		fmt.Fprintf(&line, "- %s — %s%s\n", location(f, r, o), inline(firstLine(f.Message), maxSummary), attribution(f))
		if b.Len()+line.Len() > budget {
			b.WriteString("\n")
			return b.String(), i
		}
		b.WriteString(line.String())
	}
	b.WriteString("\n")
	return b.String(), len(fs)
}

func countRung(fs []Finding, l severity.Level) int {
	n := 0
	for _, f := range fs {
		if rung(f) == l {
			n++
		}
	}
	return n
}

// location is a finding's file:line, a link when o allows one; an
// unverified location is never linked, and says so.
func location(f Finding, r Review, o MarkdownOptions) string {
	if f.File == "" {
		return "(whole change)"
	}
	at := f.File
	if f.Line > 0 {
		at += ":" + itoa(f.Line)
	}
	span := codeSpan(at, maxPath)
	if f.Unverified {
		return span + " (unverified location)"
	}
	head := o.Head
	if head == "" {
		head = r.Head
	}
	if u := blobURL(o, head, f.File, f.Line); u != "" {
		return "[" + span + "](" + u + ")"
	}
	return span
}

func attribution(f Finding) string {
	parts := []string{}
	for i, s := range []string{f.Judge, f.Criterion} {
		if s != "" && (i == 0 || s != f.Judge) {
			parts = append(parts, inline(s, 60))
		}
	}
	if f.Refuted {
		// A refuted finding is shown for the record; it did not block.
		parts = append(parts, "refuted by verification, not counted")
	}
	if len(parts) == 0 {
		return ""
	}
	return " _(" + strings.Join(parts, " · ") + ")_"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}
