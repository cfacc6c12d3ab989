// Package reviewfmt renders a finished review for PR comments (Markdown),
// code scanning (SARIF 2.1.0) and GitLab (Code Quality).
package reviewfmt

import "strings"

// Format names accepted by `--format` and `--output FORMAT=FILE`.
const (
	FormatText        = "text"
	FormatJSON        = "json"
	FormatMarkdown    = "md"
	FormatSARIF       = "sarif"
	FormatCodeQuality = "codequality"
)

// Formats lists every format name, in the order help texts show them.
func Formats() []string {
	return []string{FormatText, FormatJSON, FormatMarkdown, FormatSARIF, FormatCodeQuality}
}

// Outcomes of a review.
const (
	OutcomeAccepted  = "accepted"
	OutcomeRejected  = "rejected"
	OutcomeNoVerdict = "no-verdict" // every judge failed: no judgement of the code
)

// Review is a finished review, as the review command hands it to the
// renderers: plain data, no store or model types, so this package stays a
// format and not a flow.
type Review struct {
	ID         string // the review's record id (ULID)
	Outcome    string // OutcomeAccepted, OutcomeRejected or OutcomeNoVerdict
	Reason     string // the gate's one-line reason
	Task       string // what the change was meant to do (may be "")
	Base, Head string // commit ids; "" when judging --staged or --diff
	RubricID   string
	Threshold  float64
	Judges     []Judge
	Findings   []Finding
	CostUSD    *float64
	Omitted    []string // files or hunks cut from what the judges saw, in words
	Reused     bool     // verdict reused from the cache, no model call
	Dismissed  int      // findings suppressed by earlier dismissals
	// PolicyFromBase are the tribunal policy files the change edits
	// (review.PolicyPaths): it was judged under the base's copies, and
	// every format says so (PolicySentence).
	PolicyFromBase []string
}

// PolicySentence is what every output of a review says when the change
// edits tribunal's policy: its own rubric, settings or dismissals were
// not used.
func PolicySentence(paths []string) string {
	return "this change edits tribunal's policy (" + strings.Join(paths, ", ") + "): judged under the base's"
}

// Judge is one seat of the panel and how it judged.
type Judge struct {
	Type, Model, Family string
	Score               *float64 // nil when the judge failed or gave no score
	Passed              bool
	Failure             string // why the judge failed; "" when it judged
}

// Finding is one problem a judge reported, located when File is set.
type Finding struct {
	Judge, Criterion, Severity, File string
	Line                             int // 1-based; 0: no line
	Message                          string
	Unverified                       bool   // the cited file or line does not exist in the change
	Refuted                          bool   // the verification step refuted it (spec §6.8): shown, never blocking
	Fingerprint                      string // stable across pushes; computed by the review command
	// Suggestion is the judge's replacement for lines of the cited file,
	// nil when it gave none; a review thread offers it as a one-click
	// change only when it replaces exactly the cited line.
	Suggestion *Suggestion
}

// Suggestion is replacement text a judge proposed for lines StartLine to
// EndLine (1-based, inclusive) of the cited file.
type Suggestion struct {
	StartLine int      `json:"startLine"`
	EndLine   int      `json:"endLine"`
	Lines     []string `json:"lines"`
}

// MarkdownOptions says where file:line links point. With ServerURL,
// Repository and Head all set, a finding's location links to
// ServerURL/Repository/blob/Head/File#LLine; otherwise it is plain text.
type MarkdownOptions struct {
	ServerURL  string // e.g. "https://github.com"
	Repository string // "owner/name"
	Head       string // the commit the links point at; Review.Head when ""
	// DismissedFile is the file (relative to the repository root) where a
	// finding's fingerprint is added to dismiss it, named in the comment's
	// line on dismissing; the review command owns the name.
	DismissedFile string
}
