// Package heuristic is the offline judge: deterministic checks over a
// change's files that score a rubric's criteria and cite findings by
// file:line, with no model and the same answer on every run.
//
// It is the judge a team declares with provider "heuristic" (spec §4.9):
// never a default, never chosen by a repository's settings, and labelled
// as heuristic wherever its verdicts appear. It does not read the task:
// a rule cannot tell whether a change does what was asked, so its verdict
// is on the change's hygiene (tests, leftovers, secrets, size), and says so.
package heuristic

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
)

// Version names the rule set; it is the judge's model id
// ("heuristic/<Version>") so that a change to the rules is a change of
// judge in every record.
const Version = "rules-v1"

// Confidence is what every heuristic verdict claims: a rule is never sure.
const Confidence = 0.5

// Areas a rule bears on; a rubric criterion is mapped to one by its name
// (areaOf), and AreaAll bears on every criterion.
const (
	AreaAll             = "all"
	AreaSecurity        = "security"
	AreaTesting         = "testing"
	AreaMaintainability = "maintainability"
)

// Rule is one check: its id, the severity of its findings, the area it
// bears on and the score it takes off when it fires (once per rule,
// however many findings it has).
type Rule struct {
	ID       string
	Severity string
	Area     string
	Penalty  float64
}

// Rules are the checks in the order they run and are listed (spec §7.15).
var Rules = []Rule{
	{"empty-change", "major", AreaAll, 1.0},
	{"secret", "critical", AreaSecurity, 0.5},
	{"removed-tests", "major", AreaTesting, 0.3},
	{"untested-code", "minor", AreaTesting, 0.2},
	{"debug-print", "minor", AreaMaintainability, 0.1},
	{"todo", "minor", AreaMaintainability, 0.1},
	{"huge-change", "minor", AreaMaintainability, 0.1},
}

// Huge is the size past which a change is too large to review well:
// more changed lines or more files than this.
const (
	HugeLines = 1000
	HugeFiles = 50
)

// maxPerRule bounds the findings one rule reports.
const maxPerRule = 10

// Finding is one rule's finding; File and Line are 0/"" when it is about
// the change as a whole.
type Finding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
}

// Input is what the heuristic judge reads: the change's files (unbounded,
// as internal/git/unidiff parsed them), the rubric's criterion names and the
// gate's threshold.
type Input struct {
	Files     []unidiff.File
	Criteria  []string
	Threshold float64
}

// Result is the heuristic verdict.
type Result struct {
	Score           float64
	Passed          bool
	CriterionScores map[string]float64
	Findings        []Finding
	Feedback        string
}

// Judge runs every rule over in and scores the change: 1 minus the
// penalties of the rules that fired (at least 0), per criterion only
// those of its area and of AreaAll. It passes when the score reaches the
// threshold and no critical finding fired.
func Judge(in Input) Result {
	fired := map[string][]Finding{}
	for _, f := range check(in.Files) {
		if len(fired[f.Rule]) < maxPerRule {
			fired[f.Rule] = append(fired[f.Rule], f)
		}
	}
	res := Result{CriterionScores: map[string]float64{}, Score: score(fired, "")}
	for _, c := range in.Criteria {
		if c != "" {
			res.CriterionScores[c] = score(fired, areaOf(c))
		}
	}
	critical := false
	for _, r := range Rules {
		res.Findings = append(res.Findings, fired[r.ID]...)
		critical = critical || len(fired[r.ID]) > 0 && r.Severity == "critical"
	}
	res.Passed = res.Score >= in.Threshold && !critical
	res.Feedback = feedback(res.Findings, in.Files)
	return res
}

// score is 1 minus the penalties of the fired rules bearing on area
// ("" means the overall score: every rule), rounded to 2 places.
func score(fired map[string][]Finding, area string) float64 {
	s := 1.0
	for _, r := range Rules {
		if len(fired[r.ID]) > 0 && (area == "" || r.Area == area || r.Area == AreaAll) {
			s -= r.Penalty
		}
	}
	return math.Round(max(s, 0)*100) / 100
}

// areaWords map a criterion's name to the area it is scored on; a name
// matching none is scored on every rule (the overall score).
var areaWords = []struct {
	area  string
	words []string
}{
	{AreaSecurity, []string{"secur", "safe", "secret", "priva"}},
	{AreaTesting, []string{"test", "coverage", "verif"}},
	{AreaMaintainability, []string{"maint", "quality", "clean", "style", "readab", "clar", "simpl"}},
}

func areaOf(criterion string) string {
	c := strings.ToLower(criterion)
	for _, a := range areaWords {
		for _, w := range a.words {
			if strings.Contains(c, w) {
				return a.area
			}
		}
	}
	return ""
}

// feedback is the verdict's summary: labelled, the first findings with
// their places, or what was checked when nothing fired.
func feedback(findings []Finding, files []unidiff.File) string {
	if len(findings) == 0 {
		add, del := totals(files)
		return fmt.Sprintf("heuristic judge (no model): no rule fired on %d file(s), +%d -%d; it checks hygiene, not whether the change does what was asked.", len(files), add, del)
	}
	var parts []string
	for i, f := range findings {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(findings)-3))
			break
		}
		parts = append(parts, f.Message+place(f))
	}
	return "heuristic judge (no model): " + strings.Join(parts, "; ")
}

func place(f Finding) string {
	switch {
	case f.File != "" && f.Line > 0:
		return fmt.Sprintf(" (%s:%d)", f.File, f.Line)
	case f.File != "":
		return " (" + f.File + ")"
	}
	return ""
}

func totals(files []unidiff.File) (add, del int) {
	for _, f := range files {
		add += f.Added
		del += f.Deleted
	}
	return add, del
}

// JSON is the verdict as a judge's structured output (the verdict schema
// of internal/llm/prompts, findings included), which the engine normalises
// like any judge's answer.
func (r Result) JSON() []byte {
	findings := make([]map[string]any, 0, len(r.Findings))
	for _, f := range r.Findings {
		m := map[string]any{"severity": f.Severity, "message": "[" + f.Rule + "] " + f.Message}
		if f.File != "" {
			m["file"] = f.File
		}
		if f.Line > 0 {
			m["line"] = f.Line
		}
		findings = append(findings, m)
	}
	evaluated := RuleIDs()
	sort.Strings(evaluated)
	out, _ := json.Marshal(map[string]any{
		"score": r.Score, "passed": r.Passed, "criterion_scores": r.CriterionScores,
		"confidence": Confidence, "feedback_summary": r.Feedback, "findings": findings,
		"criteria_evaluated": evaluated, "weaknesses_count": len(r.Findings),
	})
	return out
}

// RuleIDs lists the rules' ids in order.
func RuleIDs() []string {
	out := make([]string, len(Rules))
	for i, r := range Rules {
		out[i] = r.ID
	}
	return out
}
