package report

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/worktree"
	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/trust"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

type fact struct{ Label, Value string }

type taskPage struct {
	Page         head
	IndexHref    string
	TaskID       string
	Summary      string
	Outcome      string
	OutcomeClass string
	Glyph        string
	Sentence     string
	Stopped      string
	// GitTampered is worktree.TamperLine of the task's changes to the
	// repository's git files; Refused what its last commit left out.
	GitTampered string
	// PolicyNote says a review's change edits tribunal's policy and was
	// judged under the base's (reviewfmt.PolicySentence).
	PolicyNote string
	Refused    []records.Refusal
	Facts      []fact
	// Directives are the instructions the task's rubric gave every
	// judge's prompt (spec §2.6): a score reads differently under them.
	Directives []string
	// Candidates is the comparison of a best-of-N task or an answer set.
	Candidates *candidatesPage
	Damaged    []string
	Chart      *chart
	Iterations []iterPage
	Ledger     *ledgerPage
}

type iterPage struct {
	Number     int // 1-based
	ID         string
	GateClass  string
	GateText   string
	Aggregate  string
	Method     string
	Dissent    string
	Columns    []column
	Rows       []gridRow
	Judges     []judgePage
	Meta       *metaPage
	Trust      *trustPage
	Findings   []findingRow
	Worst      string
	Commands   []records.Command
	Actor      string
	DiffFiles  []diffFile
	Message    []diffLine
	DiffSource string
	Calls      []callPage
	Ended      bool
	Open       bool
}

type column struct{ JudgeID, Label string }

type gridRow struct {
	Criterion string
	MinPass   string
	Failing   bool
	Cells     []gridCell
}

type gridCell struct {
	JudgeID string
	// Value is the recorded number as the file has it (for machines);
	// Text is what a person reads.
	Value string
	Text  string
	Class string
	Floor bool
	Title string
}

type judgePage struct {
	Label, JudgeID, Model, Score, ScoreClass, Verdict, Confidence, Feedback, Error string
	Findings                                                                       []findingRow
}

type findingRow struct{ Severity, Class, Message, Where string }

type metaPage struct {
	Quality, Bias, Override, Confidence, Model, Error, SkipReason string
	BiasDetected, Failed, Skipped                                 bool
	Probes                                                        []string
}

type trustPage struct {
	Trustworthy bool
	Alpha       string
	Reasons     []string
	Notes       []string
	Items       []trustItem
}

type trustItem struct{ Item, Survivors, Spread string }

type callPage struct{ Title, Prompt, Output string }

func buildTask(in TaskInput) taskPage {
	v := in.View
	p := taskPage{IndexHref: in.IndexHref, TaskID: v.TaskID, Outcome: history.OutcomeIncomplete}
	if m := v.Manifest; m != nil {
		p.Summary = history.Title(v.Dir, m)
		if len(m.PolicyFromBase) > 0 {
			p.PolicyNote = reviewfmt.PolicySentence(m.PolicyFromBase)
		}
	}
	if c := v.Complete; c != nil {
		p.Outcome, p.Stopped = c.Outcome, c.Error
	}
	if iso := v.Isolation; iso != nil {
		p.GitTampered, p.Refused = worktree.TamperLine(iso.GitTampered), iso.Refused
	}
	p.Glyph, p.OutcomeClass = rules.Glyph(p.Outcome), outcomeClass(p.Outcome)
	title := "tribunal task " + v.TaskID
	if p.Summary != "" {
		title = "tribunal: " + oneLine(p.Summary, 80)
	}
	p.Page = newHead(title, in.Now)
	p.Sentence = sentence(v)
	p.Facts = taskFacts(v)
	for _, pr := range v.Problems {
		p.Damaged = append(p.Damaged, pr.Error())
	}
	var threshold *float64
	if v.Params != nil {
		threshold = v.Params.ScoreThreshold
	}
	p.Chart = buildChart(v.Iterations, threshold)
	p.Candidates = buildCandidates(v.BestOfN)
	rub := taskRubric(v)
	if rub != nil {
		p.Directives = rub.Directives
	}
	for _, it := range v.Iterations {
		ip := buildIteration(it, rub)
		if rf := v.ReviewFindings; rf != nil && it.Gate != nil && len(v.Iterations) == 1 {
			ip.Findings = reviewFindings(rf)
		}
		// Every iteration starts open: the grids side by side are the
		// story. Diffs and model output start collapsed.
		ip.Open = true
		p.Iterations = append(p.Iterations, ip)
	}
	p.Ledger = buildLedger(in.Ledger, v)
	return p
}

func taskRubric(v *history.TaskView) *rubric.Rubric {
	if v.Manifest == nil || len(v.Manifest.Rubric) == 0 || string(v.Manifest.Rubric) == "null" {
		return nil
	}
	r, err := rubric.Parse(v.Manifest.Rubric)
	if err != nil {
		return nil
	}
	return &r
}

// sentence is the gate's decision and its reason in one sentence.
func sentence(v *history.TaskView) string {
	var last *history.IterationView
	for i := len(v.Iterations) - 1; i >= 0; i-- {
		if v.Iterations[i].Gate != nil {
			last = &v.Iterations[i]
			break
		}
	}
	n := len(v.Iterations)
	outcome := history.OutcomeIncomplete
	if v.Complete != nil {
		outcome = v.Complete.Outcome
	}
	var s string
	switch outcome {
	case "accepted":
		s = fmt.Sprintf("Accepted after %s", plural(n, "iteration"))
	case "exhausted_iterations":
		s = fmt.Sprintf("Not accepted: the gate never passed in %s", plural(n, "iteration"))
	case "aborted":
		s = fmt.Sprintf("Aborted after %s", plural(n, "iteration"))
	case history.OutcomeIncomplete:
		s = fmt.Sprintf("No completion record (still running, or stopped before it could finish) after %s", plural(n, "iteration"))
	default:
		s = fmt.Sprintf("%s after %s", outcome, plural(n, "iteration"))
	}
	if last != nil {
		s += "; the last gate " + history.GateWords(*last)
		if v.Params != nil && v.Params.ScoreThreshold != nil {
			s += fmt.Sprintf(" (threshold %s, policy %s)", rules.Num(*v.Params.ScoreThreshold), v.Params.GatePolicy)
		}
	}
	return s + "."
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func taskFacts(v *history.TaskView) []fact {
	var out []fact
	add := func(l, val string) {
		if val != "" {
			out = append(out, fact{l, val})
		}
	}
	add("started", v.Started.Format("2006-01-02 15:04Z"))
	if c := v.Complete; c != nil {
		if c.FinalScore != nil {
			add("final score", fmt.Sprintf("%.2f", *c.FinalScore))
		}
		if c.TotalCostUSD != nil {
			add("cost", fmt.Sprintf("$%.4f", *c.TotalCostUSD))
		}
		if c.TotalDurationMS != nil {
			add("duration", duration(*c.TotalDurationMS))
		}
		if v.CompleteSource == "events log" {
			add("outcome from", "the events log (session-complete.json is missing)")
		}
	}
	maxIter := "?"
	if v.Params != nil && v.Params.MaxIterations > 0 {
		maxIter = strconv.Itoa(v.Params.MaxIterations)
	}
	add("iterations", fmt.Sprintf("%d of %s", len(v.Iterations), maxIter))
	if m := v.Manifest; m != nil {
		add("rubric", m.RubricID)
		add("session", m.SessionID)
		add("actor", m.Effective.ActorModel)
		add("judges", strings.Join(m.Effective.JudgeModels, ", "))
		add("meta-judge", m.Effective.MetaModel)
	}
	if p := v.Params; p != nil {
		add("policy", string(p.GatePolicy))
		add("threshold", rules.Num(*p.ScoreThreshold))
		if p.DissentThreshold != nil {
			add("dissent threshold", rules.Num(*p.DissentThreshold))
		}
		add("aggregation", string(p.AggregationMethod))
	}
	add("artifacts", v.Dir)
	return out
}

func duration(ms int) string {
	s := float64(ms) / 1000
	if s < 60 {
		return fmt.Sprintf("%.1f s", s)
	}
	return fmt.Sprintf("%dm%02ds", int(s)/60, int(s)%60)
}

func buildIteration(it history.IterationView, rub *rubric.Rubric) iterPage {
	p := iterPage{Number: it.Number + 1, ID: it.ID, Ended: it.Ended, Actor: it.ActorText}
	switch {
	case it.Gate != nil && it.Gate.Passed:
		p.GateClass, p.GateText = "pass", history.GateWords(it)
	case it.Gate != nil:
		p.GateClass, p.GateText = "fail", history.GateWords(it)
	case it.Ended:
		p.GateClass, p.GateText = "none", "no gate: the iteration ended before it"
	default:
		p.GateClass, p.GateText = "none", "no gate recorded"
	}
	if c := it.Consensus; c != nil {
		p.Aggregate, p.Method = fmt.Sprintf("%.2f", c.AggregatedScore), string(c.AggregationMethod)
	}
	if d := it.Dissent; d != nil {
		p.Dissent = fmt.Sprintf("%.2f", d.DisagreementScore)
	}
	labels := judgeLabels(it.Judges)
	for i, j := range it.Judges {
		p.Columns = append(p.Columns, column{JudgeID: j.JudgeID, Label: labels[i]})
		p.Judges = append(p.Judges, buildJudge(j, labels[i]))
	}
	p.Rows = buildGrid(it, rub)
	if m := it.Meta; m != nil {
		p.Meta = buildMeta(m)
	}
	if g := it.Gate; g != nil {
		p.Commands, p.Worst = g.Commands, g.WorstSeverity
		for _, f := range g.Findings {
			row := findingOf(f.Severity, f.Message, f.File, f.Line)
			if f.Verification == severity.Refuted {
				// Kept for the record; it did not block (spec §6.8).
				row.Message += " — refuted by verification, not counted"
			}
			p.Findings = append(p.Findings, row)
		}
		if t := g.Trust; t != nil {
			p.Trust = buildTrust(t)
		}
	}
	p.DiffFiles, p.Message, p.DiffSource = diffOf(it)
	p.Calls = callsOf(it)
	return p
}

// judgeLabels names each seat by its type, numbered when a type sits
// twice; the same label is the judge's series in the chart.
func judgeLabels(js []history.JudgeView) []string {
	seen := map[string]int{}
	out := make([]string, len(js))
	for i, j := range js {
		t := j.Type
		if t == "" {
			t = "judge"
		}
		seen[t]++
		out[i] = t
		if seen[t] > 1 {
			out[i] = fmt.Sprintf("%s #%d", t, seen[t])
		}
	}
	return out
}

func buildJudge(j history.JudgeView, label string) judgePage {
	p := judgePage{Label: label, JudgeID: j.JudgeID, Model: j.Model, Feedback: strings.TrimSpace(j.Feedback), Error: j.Error}
	if j.Heuristic {
		// The offline judge is labelled wherever its verdict appears (spec §4.9).
		p.Label += " (heuristic, no model)"
	}
	switch {
	case j.Missing:
		p.Verdict, p.ScoreClass, p.Score = "verdict file missing or unreadable", "none", "—"
	case j.Suspect:
		p.Verdict, p.ScoreClass, p.Score = "SUSPECT: no usage reported, kept out of the gate", "fail", "—"
	case j.Failed:
		p.Verdict, p.ScoreClass, p.Score = "failed", "fail", "—"
	case j.Score != nil:
		p.Score = fmt.Sprintf("%.2f", *j.Score)
		p.Verdict, p.ScoreClass = "fail", "fail"
		if j.Passed {
			p.Verdict, p.ScoreClass = "pass", "pass"
		}
	case j.RawScore != nil:
		p.Verdict, p.ScoreClass, p.Score = "unusable score "+oneLine(string(j.RawScore), 40), "none", "—"
	default:
		p.Verdict, p.ScoreClass, p.Score = "no score", "none", "—"
	}
	if j.Confidence != nil {
		p.Confidence = fmt.Sprintf("%.2f", *j.Confidence)
	}
	for _, f := range j.Findings {
		p.Findings = append(p.Findings, findingOf(f.Severity, f.Message, f.File, f.Line))
	}
	return p
}

// reviewFindings are a review's findings as review.json has them, with
// their fingerprints, listed once each by the formats' rule
// (reviewfmt.Ordered): two judges raising one problem are one row.
func reviewFindings(rf []records.ReviewFinding) []findingRow {
	fs := make([]reviewfmt.Finding, len(rf))
	for i, f := range rf {
		fs[i] = reviewfmt.Finding{Judge: f.Judge, Criterion: f.Criterion, Severity: f.Severity, File: f.File, Line: f.Line,
			Message: f.Message, Unverified: f.Unverified, Refuted: f.Verification == severity.Refuted, Fingerprint: f.Fingerprint}
	}
	var rows []findingRow
	for _, f := range reviewfmt.Ordered(fs) {
		row := findingOf(f.Severity, f.Message, f.File, f.Line)
		if f.Judge != "" {
			row.Message += " (" + f.Judge + ")"
		}
		if f.Refuted {
			row.Message += " — refuted by verification, not counted"
		}
		rows = append(rows, row)
	}
	return rows
}

func findingOf(sev, msg, file string, line int) findingRow {
	f := findingRow{Severity: sev, Message: msg, Where: file, Class: "sev-" + severityClass(sev)}
	if file != "" && line > 0 {
		f.Where = fmt.Sprintf("%s:%d", file, line)
	}
	return f
}

// severityClass is the finding's rung name, for its colour; an unknown
// severity shows as info.
func severityClass(s string) string {
	if l, ok := severity.Parse(s); ok {
		return l.String()
	}
	return "info"
}

// buildGrid makes the criteria × judges table: the rubric's criteria in
// its order, then any other criterion a judge reported, by name.
func buildGrid(it history.IterationView, rub *rubric.Rubric) []gridRow {
	var names []string
	floors := map[string]*float64{}
	seen := map[string]bool{}
	if rub != nil {
		for _, c := range rub.Criteria {
			names = append(names, c.Name)
			floors[c.Name] = c.MinPass
			seen[c.Name] = true
		}
	}
	var extra []string
	for _, j := range it.Judges {
		for n := range j.CriterionScores {
			if !seen[n] {
				seen[n] = true
				extra = append(extra, n)
			}
		}
	}
	sort.Strings(extra)
	names = append(names, extra...)
	failed := ""
	if it.Gate != nil && it.Gate.BlockedBy == "" {
		failed = it.Gate.FailedCriterion
	}
	var rows []gridRow
	for _, n := range names {
		r := gridRow{Criterion: n, Failing: n == failed, MinPass: "—"}
		floor := floors[n]
		if floor != nil {
			r.MinPass = rules.Num(*floor)
		}
		for _, j := range it.Judges {
			r.Cells = append(r.Cells, gridCellOf(j, n, floor, r.Failing))
		}
		rows = append(rows, r)
	}
	return rows
}

func gridCellOf(j history.JudgeView, name string, floor *float64, failing bool) gridCell {
	c := gridCell{JudgeID: j.JudgeID, Text: "—", Class: "none", Title: "not scored"}
	raw, ok := j.CriterionScores[name]
	if !ok {
		return c
	}
	s, usable := verdict.Usable(raw)
	if !usable {
		c.Text, c.Class, c.Title = "?", "none", "unreadable: "+oneLine(string(raw), 40)
		return c
	}
	c.Value = strconv.FormatFloat(s, 'g', -1, 64)
	c.Text = fmt.Sprintf("%.2f", s)
	c.Class, c.Title = distanceClass(s, floor)
	c.Floor = failing && floor != nil && s < *floor
	if c.Floor {
		c.Title += "; this is the failing floor"
	}
	return c
}

// distanceClass colours a criterion score by its distance to min_pass:
// below it, within 0.1 above it, or clear of it.
func distanceClass(s float64, floor *float64) (string, string) {
	if floor == nil {
		return "nofloor", "no min_pass"
	}
	d := s - *floor
	switch {
	case d < 0:
		return "below", fmt.Sprintf("%.2f below min_pass %s", -d, rules.Num(*floor))
	case d < 0.1:
		return "near", fmt.Sprintf("%.2f above min_pass %s", d, rules.Num(*floor))
	}
	return "clear", fmt.Sprintf("%.2f above min_pass %s", d, rules.Num(*floor))
}

func buildMeta(m *records.Meta) *metaPage {
	p := &metaPage{Quality: m.VerdictQuality, BiasDetected: m.BiasDetected, Override: m.OverrideRecommendation,
		Model: m.MetaModelID, Failed: m.Failed, Error: m.Error, Probes: m.Probes, Skipped: m.Skipped, SkipReason: m.SkipReason}
	if m.BiasDetected {
		p.Bias = strings.Join(m.BiasTypes, ", ")
	}
	if m.Confidence != nil {
		p.Confidence = fmt.Sprintf("%.2f", *m.Confidence)
	}
	return p
}

func buildTrust(t *trust.Result) *trustPage {
	p := &trustPage{Trustworthy: t.Trustworthy, Reasons: t.Reasons, Notes: t.Notes, Alpha: "not measured"}
	if t.AlphaMeasured {
		p.Alpha = fmt.Sprintf("%.2f", t.Alpha)
	}
	var items []string
	for k := range t.Survivors {
		items = append(items, k)
	}
	for k := range t.Spread {
		if _, ok := t.Survivors[k]; !ok {
			items = append(items, k)
		}
	}
	sort.Strings(items)
	for _, k := range items {
		ti := trustItem{Item: k, Survivors: "—", Spread: "—"}
		if n, ok := t.Survivors[k]; ok {
			ti.Survivors = strconv.Itoa(n)
		}
		if s, ok := t.Spread[k]; ok {
			ti.Spread = fmt.Sprintf("%.2f", s)
		}
		p.Items = append(p.Items, ti)
	}
	return p
}

// oneLine shortens s to one line of at most n characters for labels.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// rawJSON pretty-prints a recorded JSON value for a collapsed block.
func rawJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return string(raw)
	}
	return string(b)
}
