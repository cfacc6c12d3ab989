package history

import (
	"cmp"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/git/worktree"
	"github.com/tribunal-cc/tribunal/internal/judging/gate"
	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// timeLayout is how history prints times: UTC to the minute, unambiguous
// wherever the reader is.
const timeLayout = "2006-01-02 15:04Z"

// maxSummaryCell bounds the summary column of the log table.
const maxSummaryCell = 72

func cell(s string, max int) string {
	return strings.ReplaceAll(safetext.Inline(s, max), "|", `\|`)
}

func score(f *float64) string {
	if f == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f", *f)
}

func cost(f *float64) string {
	if f == nil {
		return "—"
	}
	return fmt.Sprintf("$%.4f", *f)
}

// RenderLog renders the log as a Markdown table, newest first.
func RenderLog(r LogResult) string {
	if len(r.Entries) == 0 {
		return "No tribunal tasks or advisory verdicts are recorded for this project yet.\n"
	}
	var b strings.Builder
	b.WriteString("| when (UTC) | kind | outcome | score | iterations | cost | id | summary |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, e := range r.Entries {
		iters := "—"
		if e.Iterations != nil {
			iters = fmt.Sprint(*e.Iterations)
		}
		outcome := rules.Glyph(e.Outcome) + " " + rules.OutcomeWords(e.Outcome)
		if e.Source != "" {
			outcome += " (" + e.Source + ")"
		}
		id := e.ID
		if e.Kind == KindAdvisory && e.ID != e.TaskID {
			id = "session " + e.ID
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n",
			e.Time.UTC().Format(timeLayout), e.Kind, outcome, score(e.FinalScore), iters,
			cost(e.CostUSD), cell(id, 200), cell(e.Summary, maxSummaryCell))
	}
	if r.Total > len(r.Entries) {
		fmt.Fprintf(&b, "\n%d of %d records; `tribunal-session log --limit 0` lists them all.\n", len(r.Entries), r.Total)
	}
	b.WriteString("\nDetails: `tribunal-session show <id>`; recheck a task's gates: `tribunal-session replay <task-id>`.\n")
	if len(r.Kept) > 0 {
		b.WriteString("\n" + keptLine(r.Kept, "`") + "\n")
	}
	return b.String()
}

// keptLine is the footer naming the kept changes, in both forms of the
// log; quote marks the commands (a backtick in Markdown, nothing on a
// terminal).
func keptLine(kept []string, quote string) string {
	return fmt.Sprintf("Kept changes, not in your working tree (ref refs/tribunal/tasks/<id>): %s — %stribunal-session apply <id>%s or %sdiscard <id>%s.",
		strings.Join(kept, ", "), quote, quote, quote, quote)
}

// RenderTask renders a task as Markdown: the header facts, then each
// iteration's judges, consensus, dissent, meta-judge and gate.
func RenderTask(v *TaskView) string {
	var b strings.Builder
	outcome, final := OutcomeIncomplete, (*float64)(nil)
	if v.Complete != nil {
		outcome, final = v.Complete.Outcome, v.Complete.FinalScore
	}
	if iso := v.Isolation; iso != nil && len(iso.GitTampered) > 0 {
		fmt.Fprintf(&b, "**WARNING: %s.**\n\n", safetext.Inline(worktree.TamperLine(iso.GitTampered), 2000))
	}
	fmt.Fprintf(&b, "## tribunal %s %s — %s %s, score %s\n\n", v.Kind(), v.TaskID, rules.Glyph(outcome), rules.OutcomeWords(outcome), score(final))
	if m := v.Manifest; m != nil && v.Kind() == KindReview {
		fmt.Fprintf(&b, "**Review of:** %s\n\n", safetext.Inline(Title(v.Dir, m), 500))
	} else if m != nil && v.Kind() == KindAnswer {
		fmt.Fprintf(&b, "**Question:** %s\n\n", safetext.Inline(m.TaskSummary, 500))
		if a := v.Answer; a != nil {
			fmt.Fprintf(&b, "**Answer:** %s\n\n", safetext.Inline(a.Answer, 1000))
			for _, c := range a.Checks {
				fmt.Fprintf(&b, "- check %s: %s — %s\n", c.Name, map[bool]string{true: "passed", false: "FAILED"}[c.Passed], safetext.Inline(c.Feedback, 300))
			}
			if len(a.Checks) > 0 {
				b.WriteString("\n")
			}
		}
	} else if m != nil {
		fmt.Fprintf(&b, "**Task:** %s\n\n", strings.TrimSpace(m.TaskSummary))
	}
	b.WriteString(candidateLine(v.Manifest))
	b.WriteString(strings.Join(taskFacts(v), " · ") + "\n\n")
	b.WriteString(strings.Join(taskTotals(v), " · ") + "\n\n")
	if c := v.Complete; c != nil && c.Error != "" {
		fmt.Fprintf(&b, "**Stopped:** %s\n\n", safetext.Inline(c.Error, 1000))
	}
	if m := v.Manifest; m != nil && (m.Effective.ActorModel != "" || m.Effective.MetaModel != "") {
		actor := "actor " + dash(m.Effective.ActorModel) + " · "
		if v.Kind() != KindTask {
			actor = "" // a review or an answer has no actor
		}
		fmt.Fprintf(&b, "models: %sjudges %s · meta-judge %s\n\n", actor,
			dash(strings.Join(m.Effective.JudgeModels, ", ")), dash(m.Effective.MetaModel))
	}
	renderJurors(&b, v.Jurors)
	if iso := v.Isolation; iso != nil {
		if line := leftOutLine(iso); line != "" {
			b.WriteString(line + "\n")
		}
		b.WriteString(isolationLine(iso, v.TaskID) + "\n\n")
		for _, f := range iso.Refused {
			fmt.Fprintf(&b, "**Not recorded:** `%s` %s\n\n", safetext.Inline(f.Path, 300), safetext.Inline(f.Reason, 300))
		}
	}
	fmt.Fprintf(&b, "Artifacts: %s/\n", v.Dir)
	if v.BestOfN != nil {
		renderBestOfN(&b, v.BestOfN)
	}
	for _, it := range v.Iterations {
		renderIteration(&b, it, v.TaskID)
	}
	return b.String()
}

// taskFacts are the task header's facts: when, which session and rubric,
// and the gate's parameters.
func taskFacts(v *TaskView) []string {
	var facts []string
	facts = append(facts, "started "+v.Started.Format(timeLayout))
	if m := v.Manifest; m != nil {
		if m.SessionID != "" {
			facts = append(facts, "session "+safetext.Inline(m.SessionID, 200))
		}
		if m.RubricID != "" {
			facts = append(facts, "rubric "+m.RubricID+directiveNote(m.Rubric))
		}
	}
	if p := v.Params; p != nil {
		facts = append(facts, "policy "+string(p.GatePolicy))
		facts = append(facts, "threshold "+num(*p.ScoreThreshold))
		if p.DissentThreshold != nil {
			facts = append(facts, "dissent threshold "+num(*p.DissentThreshold))
		}
		if p.AggregationMethod != "" {
			facts = append(facts, "aggregation "+string(p.AggregationMethod))
		}
	}
	return facts
}

// taskTotals are the task's totals: iterations, cost, time, and where the
// outcome came from.
func taskTotals(v *TaskView) []string {
	var totals []string
	maxIter := "?"
	if v.Params != nil && v.Params.MaxIterations > 0 {
		maxIter = fmt.Sprint(v.Params.MaxIterations)
	}
	totals = append(totals, fmt.Sprintf("iterations %d of %s", len(v.Iterations), maxIter))
	if c := v.Complete; c != nil {
		totals = append(totals, "cost "+cost(c.TotalCostUSD))
		if c.TotalDurationMS != nil {
			totals = append(totals, fmt.Sprintf("%.1f s", float64(*c.TotalDurationMS)/1000))
		}
		if v.CompleteSource == "events log" {
			totals = append(totals, "outcome from the events log (session-complete.json is missing)")
		}
	} else {
		totals = append(totals, "no completion record: still running, or stopped before it could finish")
	}
	return totals
}

// renderJurors writes the effective-jurors line of a panel of two or more.
func renderJurors(b *strings.Builder, j *Jurors) {
	if j == nil || j.Panel <= 1 {
		return
	}
	if j.Effective != nil {
		fmt.Fprintf(b, "effective jurors: %.2f of %d (mean pairwise score correlation ρ̄ %.2f over %d recorded iteration(s) of this project)\n\n",
			*j.Effective, j.Panel, *j.MeanCorrelation, j.Iterations)
	} else {
		fmt.Fprintf(b, "effective jurors: not yet measurable (%d recorded iteration(s) of this project with two or more of these judges' scores; at least %d with some spread are needed)\n\n",
			j.Iterations, judgestats.MinCommon)
	}
	if j.Warning != "" {
		fmt.Fprintf(b, "**Warning:** %s\n\n", j.Warning)
	}
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// maxFilesShown bounds an iteration's file list in show's text output.
const maxFilesShown = 30

// maxActorLines bounds the actor's message in show; actor.md has it all.
const maxActorLines = 12

// maxFeedbackShown bounds each judge's quoted feedback in show; --json
// has all of it.
const maxFeedbackShown = 4000

// quoted is model text in show's Markdown: a quoted block (safetext.Quote),
// read by the model when /tribunal:tribunal-log relays it, so none of its lines can
// pass for show's own.
func quoted(s string, max int, see string) string { return safetext.Quote(s, max, see) }

func renderIteration(b *strings.Builder, it IterationView, taskID string) {
	fmt.Fprintf(b, "\n### Iteration %d (%s)\n\n", it.Number+1, it.ID)
	if it.ActorText != "" {
		lines := strings.Split(it.ActorText, "\n")
		more := ""
		if len(lines) > maxActorLines {
			more = fmt.Sprintf("… (%d more lines in actor.md)\n", len(lines)-maxActorLines)
			lines = lines[:maxActorLines]
		}
		if q := quoted(strings.Join(lines, "\n"), 0, ""); q != "" || more != "" {
			b.WriteString("**Actor** (its words, quoted):\n\n" + q + "\n" + more + "\n")
		}
	}
	if len(it.Files) > 0 {
		b.WriteString("**Files changed** (since the task's starting snapshot):\n\n")
		for i, f := range it.Files {
			if i == maxFilesShown {
				fmt.Fprintf(b, "- … and %d more\n", len(it.Files)-maxFilesShown)
				break
			}
			name := safetext.Inline(f.Path, 300)
			if f.OldPath != "" {
				name = safetext.Inline(f.OldPath, 300) + " → " + name
			}
			counts := fmt.Sprintf("+%d −%d", f.Added, f.Deleted)
			if f.Binary {
				counts = "binary"
			}
			if n := f.Notes(); n != "" {
				counts += ", " + safetext.Inline(n, 300)
			}
			fmt.Fprintf(b, "- %s %s (%s)\n", name, f.Status, counts)
		}
		b.WriteString("\n")
	}
	if it.HasDiff {
		fmt.Fprintf(b, "Diff: `tribunal-session show %s --diff --iteration %d` (add --previous for this iteration's own change)\n\n", taskID, it.Number+1)
	}
	if len(it.Judges) > 0 {
		b.WriteString("**Judges:**\n\n")
	}
	for _, j := range it.Judges {
		renderJudge(b, j, "tribunal-session show --json "+taskID)
	}
	var facts []string
	if c := it.Consensus; c != nil {
		facts = append(facts, fmt.Sprintf("**Consensus:** aggregate %.2f (%s)", c.AggregatedScore, c.AggregationMethod))
	}
	if d := it.Dissent; d != nil {
		facts = append(facts, fmt.Sprintf("**Dissent:** recorded, disagreement %.2f", d.DisagreementScore))
	} else if it.Consensus != nil {
		facts = append(facts, "**Dissent:** none recorded")
	}
	if m := it.Meta; m != nil {
		facts = append(facts, "**Meta-judge:** "+metaWords(m))
	}
	if g := it.Gate; g != nil {
		facts = append(facts, checkFacts(g)...)
	}
	switch {
	case it.Gate != nil:
		facts = append(facts, "**Gate:** "+GateWords(it))
	case it.Ended:
		facts = append(facts, "**Gate:** none (the iteration ended before the gate)")
	}
	if len(facts) > 0 {
		b.WriteString("\n- " + strings.Join(facts, "\n- ") + "\n")
	}
}

func renderJudge(b *strings.Builder, j JudgeView, see string) {
	head := fmt.Sprintf("- %s", dash(j.Type))
	if j.Heuristic {
		head += " (heuristic, no model)"
	}
	switch {
	case j.Missing:
		head += " — verdict file missing or unreadable"
	case j.Suspect:
		head += " — SUSPECT, kept out of the gate: " + safetext.Inline(j.Error, 200)
	case j.Failed:
		head += " — failed: " + safetext.Inline(j.Error, 200)
	case j.Score != nil:
		head += fmt.Sprintf(" %.2f %s", *j.Score, map[bool]string{true: "✓ pass", false: "✗ fail"}[j.Passed])
	case j.RawScore != nil:
		head += fmt.Sprintf(" unusable score %s", safetext.Inline(string(j.RawScore), 40))
	default:
		head += " no score"
	}
	var tail []string
	if j.Model != "" {
		tail = append(tail, j.Model)
	}
	if j.Confidence != nil {
		tail = append(tail, fmt.Sprintf("confidence %.2f", *j.Confidence))
	}
	tail = append(tail, "judge "+j.JudgeID)
	b.WriteString(head + " (" + strings.Join(tail, ", ") + ")\n")
	if len(j.CriterionScores) > 0 {
		names := make([]string, 0, len(j.CriterionScores))
		for n := range j.CriterionScores {
			names = append(names, n)
		}
		sort.Strings(names)
		parts := make([]string, len(names))
		for i, n := range names {
			if v, ok := verdict.Usable(j.CriterionScores[n]); ok {
				parts[i] = n + " " + num(v)
			} else {
				parts[i] = n + " " + safetext.Inline(string(j.CriterionScores[n]), 20)
			}
		}
		b.WriteString("  criteria: " + strings.Join(parts, ", ") + "\n")
	}
	if q := quoted(j.Feedback, maxFeedbackShown, see); q != "" {
		b.WriteString("  feedback, quoted:\n" + q + "\n")
	}
}

func metaWords(m *records.Meta) string {
	if m.Skipped {
		// Never "sound": nobody reviewed the jury (spec §4.6 Skipping).
		return "skipped (" + safetext.Inline(m.SkipReason, 200) + "); no bias, no override"
	}
	if m.Failed {
		return "failed (" + safetext.Inline(m.Error, 200) + "); treated as questionable with no bias"
	}
	var parts []string
	if m.Judge.Provider == records.HeuristicProvider {
		parts = append(parts, "heuristic, no model")
	}
	parts = append(parts, "jury "+dash(m.VerdictQuality))
	if m.BiasDetected {
		parts = append(parts, "bias detected: "+dash(strings.Join(m.BiasTypes, ", ")))
	} else {
		parts = append(parts, "no bias")
	}
	if m.OverrideRecommendation != "" {
		parts = append(parts, "recommended "+m.OverrideRecommendation)
	}
	if m.Confidence != nil {
		parts = append(parts, fmt.Sprintf("confidence %.2f", *m.Confidence))
	}
	for _, p := range m.Probes {
		parts = append(parts, "probe: "+safetext.Inline(p, 200))
	}
	return strings.Join(parts, "; ")
}

// checkFacts renders tribunal's additional checks recorded in gate.json:
// command judges, findings and the trust gate.
func checkFacts(g *records.Gate) []string {
	var out []string
	for _, c := range g.Commands {
		state := "passed"
		switch {
		case c.Failed:
			state = "could not run: " + safetext.Inline(c.Error, 200)
		case !c.Passed:
			state = "failed"
		}
		if !c.Required {
			state += " (not required)"
		}
		line := fmt.Sprintf("**Command judge %s:** %s", c.Name, state)
		if c.Kind == records.KindEvaluator {
			line = fmt.Sprintf("**Evaluator %s** (%s): %s", c.Name, c.Severity, state)
		}
		if c.Feedback != "" && (!c.Passed || c.Kind == records.KindEvaluator) {
			line += " — " + safetext.Inline(c.Feedback, 300)
		}
		out = append(out, line)
	}
	if len(g.Findings) > 0 {
		parts := make([]string, len(g.Findings))
		for i, f := range g.Findings {
			// The number is what `tribunal-session dismiss TASK N` takes.
			parts[i] = fmt.Sprintf("[%d] %s: %s", i+1, f.Severity, safetext.Inline(f.Message, 200))
			if f.File != "" {
				loc := f.File
				if f.Line > 0 {
					loc = fmt.Sprintf("%s:%d", f.File, f.Line)
				}
				if f.Unverified {
					loc += ", unverified: no such file or line"
				}
				parts[i] += " (" + safetext.Inline(loc, 400) + ")"
			}
			switch f.Verification {
			case severity.Refuted:
				parts[i] += " [refuted by verification, not counted: " + safetext.Inline(f.VerificationNote, 200) + "]"
			case severity.Confirmed:
				parts[i] += " [confirmed by verification]"
			case severity.VerifyFailed:
				parts[i] += " [verification failed, counted: " + safetext.Inline(f.VerificationNote, 200) + "]"
			}
		}
		out = append(out, fmt.Sprintf("**Findings** (worst %s): %s", dash(g.WorstSeverity), strings.Join(parts, "; ")))
	}
	if t := g.Trust; t != nil && (!t.Trustworthy || t.AlphaMeasured) {
		s := "trustworthy"
		if !t.Trustworthy {
			s = "untrustworthy: " + strings.Join(t.Reasons, "; ")
		}
		if t.AlphaMeasured {
			s += fmt.Sprintf(" (alpha %.2f)", t.Alpha)
		}
		out = append(out, "**Trust:** "+s)
	}
	return out
}

// GateWords says what an iteration's gate decided, in gate.Sentence's
// words.
func GateWords(it IterationView) string {
	g := it.Gate
	f := gate.Facts{Aggregate: g.FinalScore}
	if it.Consensus != nil {
		f.Aggregate = &it.Consensus.AggregatedScore
	}
	if fl := it.Floor; fl != nil {
		f.FloorScore, f.Floor = fl.Lowest, fl.Floor
	}
	if g.Trust != nil {
		f.TrustReasons = g.Trust.Reasons
	}
	s := gate.Sentence(gate.Result{Passed: g.Passed, Reason: rules.Reason(g.Reason),
		FailedCriterion: g.FailedCriterion, BlockedBy: rules.Check(g.BlockedBy)}, f)
	if !g.Passed && g.WillRetry != nil && *g.WillRetry {
		s += "; retried"
	}
	return s
}

// RenderAdvisory renders one advisory verdict as Markdown.
func RenderAdvisory(v *AdvisoryView, now time.Time) string {
	var b strings.Builder
	failed := v.Outcome == records.OutcomeFailed || v.Outcome == records.OutcomeCancelled
	if failed {
		fmt.Fprintf(&b, "## tribunal advisory judgement — %s %s, no verdict\n\n", rules.Glyph(v.Outcome), rules.OutcomeWords(v.Outcome))
	} else {
		fmt.Fprintf(&b, "## tribunal advisory verdict — %s %s, score %.2f\n\n", rules.Glyph(v.Outcome), rules.OutcomeWords(v.Outcome), v.Score)
	}
	sid := safetext.Inline(v.SessionID, 200)
	if sid == "" {
		sid = "(none recorded)"
	}
	fmt.Fprintf(&b, "Session: %s\n\n", sid)
	written := v.WrittenAt.UTC().Format(timeLayout)
	if v.TimeFromMtime {
		written += " (file time; written_at missing)"
	}
	facts := []string{"written " + written + " (" + safetext.Age(now.Sub(v.WrittenAt)) + ")"}
	judge := "judge " + dash(v.JudgeType)
	if v.Model != "" {
		judge += " (" + v.Model + ")"
	}
	facts = append(facts, judge)
	if v.Confidence != nil {
		facts = append(facts, fmt.Sprintf("confidence %.2f", *v.Confidence))
	}
	facts = append(facts, "cost "+cost(v.CostUSD))
	if v.DurationMS != nil {
		facts = append(facts, fmt.Sprintf("%.1f s", float64(*v.DurationMS)/1000))
	}
	if v.TokenCount != nil {
		facts = append(facts, fmt.Sprintf("%d tokens", *v.TokenCount))
	}
	b.WriteString(strings.Join(facts, " · ") + "\n")
	q := quoted(v.Feedback, maxFeedbackShown, "tribunal-session show --json "+v.TaskID)
	switch {
	case failed:
		fmt.Fprintf(&b, "\n**Reason:** %s\n\n", safetext.Inline(v.Error, 2000))
	case q != "":
		fmt.Fprintf(&b, "\n**Feedback** (the judge's words, quoted):\n\n%s\n\n", q)
	default:
		b.WriteString("\n**Feedback:** (none)\n\n")
	}
	if v.Rewake {
		b.WriteString("Handed back to the model in its session (fix mode).\n\n")
	}
	if line := secretfiles.Describe(v.LeftOut); line != "" {
		b.WriteString("**Untracked secrets:** the judge's diff " + line + ".\n\n")
	}
	if v.Diff != "" {
		id := v.SessionName()
		if records.IsJudgementPath(v.Path) {
			id = v.TaskID
		}
		fmt.Fprintf(&b, "Diff: `tribunal-session show %s --diff` (what the judge was shown)\n\n", id)
	}
	b.WriteString(upperFirst(v.Shown()) + ".\n\n")
	fmt.Fprintf(&b, "Task id %s · fingerprint %s\n\nFile: %s\n", v.TaskID, dash(v.Fingerprint), v.Path)
	return b.String()
}

// RenderReplay renders a replay, one line per iteration.
func RenderReplay(r *ReplayResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "replay of %s %s", cmp.Or(r.Kind, KindTask), r.TaskID)
	if p := r.Params; p != nil {
		fmt.Fprintf(&b, " (policy %s, threshold %s", p.GatePolicy, num(*p.ScoreThreshold))
		if p.DissentThreshold != nil {
			fmt.Fprintf(&b, ", dissent threshold %s", num(*p.DissentThreshold))
		}
		if p.AggregationMethod != "" {
			fmt.Fprintf(&b, ", %s", p.AggregationMethod)
		}
		b.WriteString(")")
	}
	b.WriteString(" with the current rules\n")
	differ, replayed, skipped := 0, 0, 0
	for _, it := range r.Iterations {
		prefix := fmt.Sprintf("iteration %d (%s): ", it.Number+1, it.ID)
		switch it.Status {
		case StatusSame:
			replayed++
			fmt.Fprintf(&b, "%ssame — %s at %s\n", prefix, DecisionWords(it.Recorded), num(*it.Replayed.Aggregate))
		case StatusDiffers:
			replayed++
			differ++
			fmt.Fprintf(&b, "%sdiffers — %s\n", prefix, strings.Join(it.Differences, "; "))
		case StatusNoGate:
			fmt.Fprintf(&b, "%sno gate to compare (the iteration ended before the gate)\n", prefix)
		default:
			skipped++
			fmt.Fprintf(&b, "%snot replayed — %s\n", prefix, it.Why)
		}
	}
	var result string
	switch {
	case len(r.Iterations) == 0:
		result = "no iterations recorded"
	case differ > 0:
		result = fmt.Sprintf("%d of %d replayed iteration(s) differ", differ, replayed)
	default:
		result = fmt.Sprintf("all %d replayed iteration(s) are the same", replayed)
	}
	if skipped > 0 {
		result += fmt.Sprintf("; %d could not be replayed", skipped)
	}
	b.WriteString("result: " + result + "\n")
	return b.String()
}

// upperFirst capitalises a phrase's first letter to start a sentence.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
