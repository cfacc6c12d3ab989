package prompts

import (
	"github.com/tribunal-cc/tribunal/internal/rules"
	"sort"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// DigestBudget is the size cap, in bytes, of a retry digest (spec §7.7, spec Appendix B
// item 6). Only the judges' feedback is cut to meet it: the gate reason, the
// criteria table, the Meta-Judge line and one line per judge are always
// kept whole, because each carries a fact the Actor needs. The feedback gets
// whatever the fixed parts leave, shared fairly: short feedback is kept
// whole and the rest is split evenly among the longer ones, so a verbose
// judge cannot crowd out a terse one and no judge is dropped. Only a rubric
// or panel too large for the fixed parts alone can push a digest past the cap.
const DigestBudget = 8000

// truncationMark ends feedback that was cut to fit the budget.
const truncationMark = " […]"

// DigestCriterion is one rubric criterion with its statistics over the
// previous iteration's usable verdicts.
type DigestCriterion struct {
	Name    string
	Weight  float64
	MinPass float64
	Mean    *float64 // nil when no judge scored the criterion
	Min     *float64 // nil when no judge scored the criterion
}

// DigestJudge is one seat of the previous iteration's jury.
type DigestJudge struct {
	Type     string
	Score    *float64 // nil when the verdict had no usable score
	Passed   bool
	Failed   bool // the judge crashed or its output did not parse
	Feedback string
}

// DigestMeta is the Meta-Judge's normalised review. An empty Quality means
// no review is available.
type DigestMeta struct {
	Quality   string
	Bias      bool
	BiasTypes []string
	Override  string // "" when unset
}

// DigestInput is the previous iteration's outcome as the digest reports it.
type DigestInput struct {
	Reason          rules.Reason // the gate's block reason, e.g. "criterion_floor"
	FailedCriterion string       // the gate's failed_criterion; "" when none
	FailedLowest    *float64     // that criterion's lowest readable score; nil if only unreadable values were reported
	FailedFloor     *float64     // that criterion's min_pass
	Aggregate       float64
	// Threshold is the score threshold; optional, it lets a low_score
	// block name the bar that was missed.
	Threshold *float64
	Criteria  []DigestCriterion
	Judges    []DigestJudge
	Meta      DigestMeta
	Dissent   *float64 // the disagreement score, set only when dissent was recorded
}

// Digest renders the retry digest of spec §7.7: the gate reason and failed
// criterion with its lowest score and floor; every criterion's mean and
// minimum with weight and min_pass, lowest mean first; every judge's type,
// score, vote and feedback, passing judges included; the Meta-Judge's
// findings; and the dissent score when dissent was recorded. The result is
// capped at DigestBudget bytes as described there.
func Digest(in DigestInput) string {
	feedback := make([]string, len(in.Judges))
	for i, j := range in.Judges {
		feedback[i] = oneLine(j.Feedback)
	}
	fixed := len(renderDigest(in, make([]string, len(in.Judges)), feedback))
	caps := fairShares(feedback, DigestBudget-fixed)
	shown := make([]string, len(feedback))
	for i, fb := range feedback {
		shown[i] = truncateBytes(fb, caps[i])
	}
	return renderDigest(in, shown, feedback)
}

// renderDigest lays the digest out with the given feedback texts; original
// decides which judges have a feedback line at all, so that the fixed size
// can be measured with every text empty.
func renderDigest(in DigestInput, shown, original []string) string {
	var b strings.Builder
	b.WriteString("**Previous iteration: blocked")
	if in.Reason != "" {
		b.WriteString(" (" + oneLine(string(in.Reason)) + ")")
	}
	b.WriteString("**\n\n" + reasonSentence(in) + "\n")

	b.WriteString("\n### Criteria, lowest mean first\n\n")
	b.WriteString("| criterion | weight | min_pass | mean | min |\n|---|---|---|---|---|\n")
	for _, c := range sortedDigestCriteria(in.Criteria) {
		mean, low := "not scored", "not scored"
		if c.Mean != nil {
			mean = fmtScore(*c.Mean)
		}
		if c.Min != nil {
			low = fmtScore(*c.Min)
			if *c.Min < c.MinPass {
				low += " (below floor)"
			}
		}
		b.WriteString("| " + cell(c.Name) + " | " + fmtConfigured(c.Weight) + " | " + fmtConfigured(c.MinPass) + " | " + mean + " | " + low + " |\n")
	}

	b.WriteString("\n### Judges\n\n")
	if len(in.Judges) == 0 {
		b.WriteString("No verdicts.\n")
	}
	for i, j := range in.Judges {
		b.WriteString("- " + oneLine(j.Type) + ": ")
		switch {
		case j.Failed:
			b.WriteString("failed, no verdict")
		case j.Score == nil:
			b.WriteString("no usable score")
		default:
			b.WriteString(fmtScore(*j.Score))
		}
		switch {
		case j.Passed && (j.Failed || j.Score == nil):
			b.WriteString(", said passed, but a vote without a usable score does not count\n")
		case j.Passed:
			b.WriteString(", passed\n")
		default:
			b.WriteString(", did not pass\n")
		}
		if original[i] != "" {
			b.WriteString("  feedback: " + shown[i] + "\n")
		}
	}

	b.WriteString("\n### Meta-Judge\n\n")
	b.WriteString(metaLine(in.Meta) + "\n")

	if in.Dissent != nil {
		b.WriteString("\n### Dissent\n\n")
		b.WriteString("The judges' scores spread by " + fmtScore(*in.Dissent) + " (highest minus lowest), more than the dissent threshold allows.\n")
	}
	return b.String()
}

// reasonSentence states the block concretely (spec §7.9): for a floor block it
// names the criterion, its lowest score, its floor and the overall score
// that cleared the threshold.
func reasonSentence(in DigestInput) string {
	overall := fmtScore(in.Aggregate)
	var s string
	switch in.Reason {
	case rules.ReasonCriterionFloor:
		s = "Blocked on " + floorPhrase(in) + " despite an overall " + overall + "."
	case rules.ReasonLowScore:
		s = "Blocked: the overall score " + overall + " is below the threshold"
		if in.Threshold != nil {
			s += " " + fmtConfigured(*in.Threshold)
		}
		s += "."
	case rules.ReasonDissentUnresolved:
		if in.Dissent != nil {
			s = "Blocked: the judges disagreed by " + fmtScore(*in.Dissent) + ", too much to settle the verdict (overall " + overall + ")."
		} else {
			s = "Blocked: too few judges voted to pass the work under the gate policy (overall " + overall + ")."
		}
	case rules.ReasonMetaOverride:
		s = "Blocked: the Meta-Judge recommended reject (overall " + overall + ")."
	case rules.ReasonBiasDetected:
		s = "Blocked: the Meta-Judge found bias in the jury and recommended reject (overall " + overall + ")."
	case "":
		s = "Blocked (overall " + overall + ")."
	default:
		s = "Blocked: " + oneLine(string(in.Reason)) + " (overall " + overall + ")."
	}
	if in.FailedCriterion != "" && in.Reason != rules.ReasonCriterionFloor {
		s += " Criterion " + floorPhrase(in) + " is also below its floor, which would block the work on its own."
	}
	return s
}

// floorPhrase reads like "`safety` (0.30 < 0.80)".
func floorPhrase(in DigestInput) string {
	name := codeSpan(in.FailedCriterion)
	floor := "its floor"
	if in.FailedFloor != nil {
		floor = fmtScore(*in.FailedFloor)
	}
	if in.FailedLowest == nil {
		return name + " (a judge reported an unreadable score; floor " + floor + ")"
	}
	return name + " (" + fmtScore(*in.FailedLowest) + " < " + floor + ")"
}

func metaLine(m DigestMeta) string {
	if m.Quality == "" {
		return "No review available."
	}
	types := "none"
	if len(m.BiasTypes) > 0 {
		types = oneLine(strings.Join(m.BiasTypes, ", "))
	}
	override := "none"
	if m.Override != "" {
		override = oneLine(m.Override)
	}
	bias := "false"
	if m.Bias {
		bias = "true"
	}
	return "verdict_quality " + oneLine(m.Quality) + "; bias_detected " + bias + "; bias_types " + types + "; override_recommendation " + override + "."
}

// sortedDigestCriteria orders criteria by mean, lowest first, with unscored
// criteria last; ties keep rubric order.
func sortedDigestCriteria(criteria []DigestCriterion) []DigestCriterion {
	out := append([]DigestCriterion(nil), criteria...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Mean, out[j].Mean
		switch {
		case a == nil:
			return false
		case b == nil:
			return true
		}
		return *a < *b
	})
	return out
}

// fairShares splits budget bytes among texts by water-filling: texts that
// fit in an even share keep their full length, and what they leave unused
// is shared among the rest. The shares never sum to more than budget.
func fairShares(texts []string, budget int) []int {
	caps := make([]int, len(texts))
	if budget < 0 {
		budget = 0
	}
	order := make([]int, 0, len(texts))
	for i, t := range texts {
		if t != "" {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return len(texts[order[a]]) < len(texts[order[b]]) })
	left := budget
	for k, idx := range order {
		share := left / (len(order) - k)
		if n := len(texts[idx]); n <= share {
			caps[idx] = n
			left -= n
			continue
		}
		for _, rest := range order[k:] {
			caps[rest] = share
		}
		break
	}
	return caps
}

// truncateBytes cuts s to at most limit bytes on a rune boundary, ending
// with truncationMark. When even the mark does not fit, the mark alone is
// returned so the reader still sees that feedback existed.
func truncateBytes(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	keep := limit - len(truncationMark)
	if keep <= 0 {
		return strings.TrimSpace(truncationMark)
	}
	return strings.TrimRight(safetext.Head(s, keep), " ") + truncationMark
}

func codeSpan(s string) string {
	s = oneLine(s)
	if strings.Contains(s, "`") {
		return jsonString(s)
	}
	return "`" + s + "`"
}
