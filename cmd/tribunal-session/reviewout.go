package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/review"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/session"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/version"
)

// cachedReview is what the verdict cache keeps: the finished review as
// the renderers take it and the artifact directory of the review that
// made it.
type cachedReview struct {
	Review      reviewfmt.Review `json:"review"`
	ArtifactDir string           `json:"artifact_dir,omitempty"`
}

// fromResult turns a recorded review into the renderers' form.
func fromResult(res *session.ReviewResult, rv *session.Reviewer, task string) cachedReview {
	rec := res.Record
	out := reviewfmt.Review{ID: rec.ReviewID, Outcome: rec.Outcome, Reason: rec.Reason, Task: task,
		RubricID: rv.RubricID(), Threshold: rv.Threshold(), CostUSD: res.Report.CostUSD,
		Omitted: rec.Omitted, Dismissed: rec.Dismissed, Findings: []reviewfmt.Finding{}, PolicyFromBase: rec.PolicyFromBase}
	if rec.Change == review.KindRange {
		out.Base, out.Head = rec.Base, rec.Head
	}
	// A heuristic seat is labelled in the table and on its findings
	// (spec §4.9): "standard (heuristic)".
	labels := map[string]string{}
	if n := len(res.Report.Iterations); n > 0 {
		for _, j := range res.Report.Iterations[n-1].Judges {
			labels[j.Type] = judging.SeatLabel(j.Type, j.Provider)
			jf := reviewfmt.Judge{Type: labels[j.Type], Model: j.Model, Family: j.Family, Score: j.Score, Passed: j.Passed}
			if j.Score == nil {
				jf.Failure = firstNonEmpty(j.Error, "no usable score")
			}
			out.Judges = append(out.Judges, jf)
		}
		for _, cmd := range res.Report.Iterations[n-1].Commands {
			jf := reviewfmt.Judge{Type: cmd.Label(), Passed: cmd.Passed}
			if cmd.Failed {
				jf.Failure = firstNonEmpty(cmd.Error, "failed")
			}
			out.Judges = append(out.Judges, jf)
		}
	}
	for _, f := range rec.Findings {
		judge := f.Judge
		if l, ok := labels[judge]; ok {
			judge = l
		}
		out.Findings = append(out.Findings, reviewfmt.Finding{Judge: judge, Criterion: f.Criterion, Severity: f.Severity,
			File: f.File, Line: f.Line, Message: f.Message, Unverified: f.Unverified, Refuted: f.Verification == severity.Refuted, Fingerprint: f.Fingerprint,
			Suggestion: toSuggestion(f.Suggestion)})
	}
	return cachedReview{Review: out, ArtifactDir: res.Report.ArtifactDir}
}

// refilter drops from a reused verdict the findings dismissed since it was
// stored: by the --dismissed file, or the shared file the review reads
// (the base's for a change someone else wrote, else the work tree's:
// session.Reviewer.SharedDismissals), and the person's own list (a
// dismissal committed to the branch changes the head tree, and with it
// the cache key; a personal one does not).
func (c *cli) refilter(e cachedReview, shared, projectDir string) cachedReview {
	dismissed, err := dismiss.Load(dismiss.Sources{Shared: shared, Personal: filepath.Join(projectDir, records.DismissalsFile)})
	if err != nil {
		c.warning(err.Error())
	}
	kept := e.Review.Findings[:0:0]
	var log []dismiss.Suppression
	for _, fd := range e.Review.Findings {
		if dismissed.Has(fd.Fingerprint) {
			e.Review.Dismissed++
			log = append(log, dismiss.Suppression{Fingerprint: fd.Fingerprint, At: time.Now().UTC().Format(time.RFC3339), Where: "review", ID: e.Review.ID})
			continue
		}
		kept = append(kept, fd)
	}
	if err := dismiss.LogSuppressions(filepath.Join(projectDir, records.SuppressionsFile), log); err != nil {
		c.warning(err.Error())
	}
	e.Review.Findings = kept
	return e
}

// finishReview writes the outputs and decides the exit code.
func (c *cli) finishReview(f reviewFlags, e cachedReview, runErr error) int {
	r := e.Review
	g := review.Gating{Gate: f.gate, CI: ciSet(c.getenv("CI")), FailOn: f.failAt}
	worst, any := worstRaised(r.Findings)
	code := g.Exit(r.Outcome, worst, any)
	if runErr != nil {
		code = exitAborted
		if g.Advisory() {
			code = exitAccepted
		}
	}
	for _, o := range f.outputs {
		if err := c.writeOutput(o, e, f, code); err != nil {
			c.errorf("review: %v", err)
			code = exitAborted
		}
	}
	if err := c.render(c.stdout, f.format, e, f, code); err != nil {
		c.errorf("review: %v", err)
		return exitAborted
	}
	switch {
	case runErr != nil:
		c.errorf("review %s stopped: %v", r.ID, runErr)
		c.hint("this is not a judgement of the change; fix the cause above and review again")
	case r.Outcome == reviewfmt.OutcomeNoVerdict:
		c.errorf("review %s: every judge failed — this is NOT a judgement of the code", r.ID)
		c.hint("check the judges' errors above (claude installed and logged in, provider settings), then review again")
	}
	if g.Advisory() && code == exitAccepted && r.Outcome != reviewfmt.OutcomeAccepted {
		c.progress("review: advisory (CI is set and --gate was not given): exit 0 with the verdict written")
	}
	return code
}

// worstRaised is the worst finding still raised that counts: at a real
// location and not refuted by the verification step.
func worstRaised(fs []reviewfmt.Finding) (severity.Level, bool) {
	var levels []severity.Level
	for _, f := range fs {
		if l, ok := severity.Parse(f.Severity); ok && !f.Unverified && !f.Refuted {
			levels = append(levels, l)
		}
	}
	return severity.Worst(levels...)
}

// ciSet reads the CI variable as CI services set it.
func ciSet(v string) bool { return claude.CIValue(v) }

func (c *cli) writeOutput(o outputSpec, e cachedReview, f reviewFlags, code int) error {
	var b strings.Builder
	if err := c.render(&b, o.format, e, f, code); err != nil {
		return err
	}
	if err := store.WriteFileAtomic(o.path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write --output %s=%s: %w", o.format, o.path, err)
	}
	return nil
}

// render writes e in one format.
func (c *cli) render(w io.Writer, format string, e cachedReview, f reviewFlags, code int) error {
	r := e.Review
	switch format {
	case reviewfmt.FormatJSON:
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(toJSON(e, code))
	case reviewfmt.FormatMarkdown:
		_, err := io.WriteString(w, reviewfmt.Markdown(r, c.markdownOptions(f)))
		return err
	case reviewfmt.FormatSARIF:
		return writeBytes(w)(reviewfmt.SARIF(r, version.Version))
	case reviewfmt.FormatCodeQuality:
		return writeBytes(w)(reviewfmt.CodeQuality(r))
	}
	_, err := io.WriteString(w, reviewText(e))
	return err
}

func writeBytes(w io.Writer) func([]byte, error) error {
	return func(b []byte, err error) error {
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
}

// markdownOptions are the links of the PR comment: --repo-url, else the
// GitHub Actions variables.
func (c *cli) markdownOptions(f reviewFlags) reviewfmt.MarkdownOptions {
	o := reviewfmt.MarkdownOptions{DismissedFile: dismiss.SharedFile}
	if f.dismissed != "" && !filepath.IsAbs(f.dismissed) {
		o.DismissedFile = filepath.ToSlash(f.dismissed)
	}
	if f.repo == "" {
		o.ServerURL, o.Repository = c.getenv("GITHUB_SERVER_URL"), c.getenv("GITHUB_REPOSITORY")
		return o
	}
	u := strings.TrimSuffix(f.repo, "/")
	if i := strings.Index(u, "://"); i >= 0 {
		if j := strings.Index(u[i+3:], "/"); j >= 0 {
			o.ServerURL, o.Repository = u[:i+3+j], u[i+3+j+1:]
		}
	}
	return o
}

// reviewJSON is `review --json`: the review as the renderers take it,
// in snake_case, with where it is recorded and the exit code.
type reviewJSON struct {
	ID        string        `json:"review_id"`
	Outcome   string        `json:"outcome"`
	Reason    string        `json:"reason"`
	Task      string        `json:"task,omitempty"`
	Base      string        `json:"base,omitempty"`
	Head      string        `json:"head,omitempty"`
	RubricID  string        `json:"rubric_id"`
	Threshold float64       `json:"score_threshold"`
	Judges    []judgeJSON   `json:"judges"`
	Findings  []findingJSON `json:"findings"`
	CostUSD   *float64      `json:"cost_usd,omitempty"`
	Omitted   []string      `json:"omitted,omitempty"`
	Reused    bool          `json:"reused"`
	Dismissed int           `json:"dismissed"`
	// PolicyFromBase and PolicyNote say the change edits tribunal's
	// policy and was judged under the base's.
	PolicyFromBase []string `json:"policy_from_base,omitempty"`
	PolicyNote     string   `json:"policy_note,omitempty"`
	ArtifactDir    string   `json:"artifact_dir,omitempty"`
	ExitCode       int      `json:"exit_code"`
}

type judgeJSON struct {
	Type    string   `json:"type"`
	Model   string   `json:"model,omitempty"`
	Family  string   `json:"family,omitempty"`
	Score   *float64 `json:"score,omitempty"`
	Passed  bool     `json:"passed"`
	Failure string   `json:"failure,omitempty"`
}

type findingJSON struct {
	Judge       string `json:"judge,omitempty"`
	Criterion   string `json:"criterion,omitempty"`
	Severity    string `json:"severity"`
	File        string `json:"file,omitempty"`
	Line        int    `json:"line,omitempty"`
	Message     string `json:"message"`
	Unverified  bool   `json:"unverified,omitempty"`
	Refuted     bool   `json:"refuted,omitempty"`
	Fingerprint string `json:"fingerprint"`
	// Suggestion is the judge's replacement lines, when it gave some.
	Suggestion *reviewfmt.Suggestion `json:"suggestion,omitempty"`
}

func toJSON(e cachedReview, code int) reviewJSON {
	r := e.Review
	out := reviewJSON{ID: r.ID, Outcome: r.Outcome, Reason: r.Reason, Task: r.Task, Base: r.Base, Head: r.Head,
		RubricID: r.RubricID, Threshold: r.Threshold, CostUSD: r.CostUSD, Omitted: r.Omitted, Reused: r.Reused,
		Dismissed: r.Dismissed, ArtifactDir: e.ArtifactDir, ExitCode: code, Judges: []judgeJSON{}, Findings: []findingJSON{}}
	if len(r.PolicyFromBase) > 0 {
		out.PolicyFromBase, out.PolicyNote = r.PolicyFromBase, reviewfmt.PolicySentence(r.PolicyFromBase)
	}
	for _, j := range r.Judges {
		out.Judges = append(out.Judges, judgeJSON(j))
	}
	// One problem raised by two judges is one finding here as in every
	// other format, and so in the MCP judge tool's result (spec §7.15).
	for _, f := range reviewfmt.Ordered(r.Findings) {
		out.Findings = append(out.Findings, findingJSON(f))
	}
	return out
}

// reviewText is the terminal summary.
func reviewText(e cachedReview) string {
	r := e.Review
	var b strings.Builder
	fmt.Fprintf(&b, "tribunal review %s: %s %s — %s\n", r.ID, rules.Glyph(outcomeGlyph(r.Outcome)), r.Outcome, r.Reason)
	if r.Reused {
		b.WriteString("verdict reused from the cache: same base, head, rubric and panel; no model was called\n")
	}
	if len(r.PolicyFromBase) > 0 {
		fmt.Fprintf(&b, "note: %s\n", oneLine(reviewfmt.PolicySentence(r.PolicyFromBase), 600))
	}
	for _, j := range r.Judges {
		switch {
		case j.Score != nil:
			fmt.Fprintf(&b, "  judge %s: %.2f %s\n", j.Type, *j.Score, passMark(j.Passed))
		case j.Failure != "":
			fmt.Fprintf(&b, "  judge %s: failed (%s)\n", j.Type, oneLine(j.Failure, 200))
		default:
			fmt.Fprintf(&b, "  judge %s: %s\n", j.Type, passMark(j.Passed))
		}
	}
	// The same problem raised by two judges is one finding, as in every
	// other format (reviewfmt.Ordered).
	findings := reviewfmt.Ordered(r.Findings)
	if len(findings) > 0 || r.Dismissed > 0 {
		fmt.Fprintf(&b, "findings: %d", len(findings))
		if r.Dismissed > 0 {
			fmt.Fprintf(&b, " (%d dismissed earlier, not raised again)", r.Dismissed)
		}
		b.WriteString("\n")
	}
	for _, f := range findings {
		loc := f.File
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		extra := ""
		if f.Unverified {
			extra = " (unverified: no such file or line)"
		}
		if f.Refuted {
			extra += " (refuted by verification: not counted)"
		}
		fmt.Fprintf(&b, "  %s %s %s%s [%s]\n", f.Severity, oneLine(loc, 300), oneLine(f.Message, 500), extra, f.Fingerprint)
	}
	for _, o := range r.Omitted {
		fmt.Fprintf(&b, "not shown to the judges: %s\n", oneLine(o, 300))
	}
	if r.CostUSD != nil {
		fmt.Fprintf(&b, "cost: $%.4f\n", *r.CostUSD)
	}
	if len(r.Findings) > 0 {
		fmt.Fprintf(&b, "to dismiss a finding: tribunal-session dismiss %s <fingerprint> --reason \"…\" (--shared: in %s, for the team)\n", r.ID, dismiss.SharedFile)
	}
	if e.ArtifactDir != "" {
		fmt.Fprintf(&b, "recorded: tribunal-session show %s\n", r.ID)
	}
	return b.String()
}

func outcomeGlyph(o string) string {
	if o == reviewfmt.OutcomeNoVerdict {
		return session.Aborted
	}
	return o
}

func passMark(p bool) string {
	if p {
		return "✓"
	}
	return "✗"
}

func oneLine(s string, n int) string { return safetext.OneLine(s, n) }
