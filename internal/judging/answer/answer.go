// Package answer is what `tribunal-session judge` judges beside the jury:
// one answer to a question and the deterministic checks of it — the
// expected answer by exact, case-insensitive or normalised match, the
// rubric's must_include and must_avoid, a JSON answer's syntax and
// schema, and the latency and cost budgets of the model that answered.
package answer

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/judging/evaluator"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/severity"
)

// The match modes of an expected answer (spec §7.20).
const (
	MatchExact      = "exact"
	MatchIgnoreCase = "icase"
	MatchNormalised = "normalised"
	MatchSemantic   = "semantic"
)

// Matches lists the modes in the order messages name them.
var Matches = []string{MatchExact, MatchIgnoreCase, MatchNormalised, MatchSemantic}

// The answer formats.
const (
	FormatText = "text"
	FormatJSON = "json"
)

// Case is one answer to judge and what it is held to.
type Case struct {
	ID       string
	Question string
	Answer   string
	// Expected is the reference answer; HasExpected tells an empty one
	// from none. Match is one of Matches ("" reads as MatchSemantic).
	Expected    string
	HasExpected bool
	Match       string
	Context     []prompts.Source
	// Criteria are the caller's requirements beside the rubric: the
	// judges weigh them (no deterministic check reads them).
	Criteria []string
	Format   string
	// Schema, with FormatJSON, is what the answer must satisfy.
	Schema *evaluator.Schema
	// LatencyMS and CostUSD are what the caller reports of the model that
	// answered; the Max fields are their budgets (nil: none).
	LatencyMS, CostUSD       *float64
	MaxLatencyMS, MaxCostUSD *float64
}

// Prompt is the case as the judges' prompt carries it.
func (c Case) Prompt() *prompts.AnswerCase {
	return &prompts.AnswerCase{Question: c.Question, Expected: c.Expected, Semantic: c.HasExpected && c.mode() == MatchSemantic,
		Context: c.Context, Format: c.Format, Criteria: c.Criteria}
}

func (c Case) mode() string {
	if c.Match == "" {
		return MatchSemantic
	}
	return c.Match
}

// Equal compares an answer with the expected answer under mode (not
// semantic, which a judge decides). Every mode ignores the line ends a
// file ends with; icase folds case; normalised also makes every run of
// white space one space and trims both ends.
func Equal(mode, got, want string) bool {
	got, want = strings.TrimRight(got, "\r\n"), strings.TrimRight(want, "\r\n")
	switch mode {
	case MatchIgnoreCase:
		return strings.EqualFold(got, want)
	case MatchNormalised:
		return strings.EqualFold(normalise(got), normalise(want))
	}
	return got == want
}

func normalise(s string) string { return strings.Join(strings.Fields(s), " ") }

// Checks runs every deterministic check of c against rub's criteria, in
// a fixed order: expected answer, format and schema, must_include and
// must_avoid per criterion, budgets. Each failing check blocks the gate
// (required), as a failing required evaluator does. Only a Schema runs
// the helper, once.
func Checks(ctx context.Context, c Case, rub *rubric.Rubric) []evaluator.Result {
	var out []evaluator.Result
	if c.HasExpected && c.mode() != MatchSemantic {
		ok := Equal(c.mode(), c.Answer, c.Expected)
		out = append(out, result("expected", severity.Major, ok, "", map[bool]string{
			true:  "the answer equals the expected answer (" + c.mode() + ")",
			false: "the answer differs from the expected answer (" + c.mode() + ")"}[ok]))
	}
	if c.Format == FormatJSON {
		out = append(out, jsonCheck(ctx, c))
	}
	if rub != nil {
		for _, cr := range rub.Criteria {
			out = append(out, mustChecks(cr, c.Answer)...)
		}
	}
	out = append(out, budget("latency", "ms", c.LatencyMS, c.MaxLatencyMS)...)
	out = append(out, budget("cost", "USD", c.CostUSD, c.MaxCostUSD)...)
	return out
}

// jsonCheck is a JSON answer's syntax and, with a schema, its schema.
func jsonCheck(ctx context.Context, c Case) evaluator.Result {
	check := evaluator.CheckJSON
	if c.Schema != nil {
		check = func(data []byte) error { return c.Schema.Check(ctx, data) }
	}
	if err := check([]byte(c.Answer)); err != nil {
		return result("format", severity.Major, false, "", "the JSON answer "+err.Error())
	}
	if c.Schema != nil {
		return result("format", severity.Major, true, "", "the JSON answer satisfies the schema")
	}
	return result("format", severity.Major, true, "", "the answer is valid JSON")
}

// mustChecks are one criterion's must_include and must_avoid: a finding
// names every pattern that failed, on that criterion.
func mustChecks(cr rubric.Criterion, text string) []evaluator.Result {
	var out []evaluator.Result
	if len(cr.MustInclude) > 0 {
		var missing []string
		for _, p := range cr.MustInclude {
			if !p.Match(text) {
				missing = append(missing, p.String())
			}
		}
		out = append(out, result("must_include."+cr.Name, severity.Major, len(missing) == 0, cr.Name,
			listed("includes every required pattern", "does not include ", missing)))
	}
	if len(cr.MustAvoid) > 0 {
		var found []string
		for _, p := range cr.MustAvoid {
			if p.Match(text) {
				found = append(found, p.String())
			}
		}
		out = append(out, result("must_avoid."+cr.Name, severity.Major, len(found) == 0, cr.Name,
			listed("contains no avoided pattern", "contains ", found)))
	}
	return out
}

func listed(ok, bad string, items []string) string {
	if len(items) == 0 {
		return "the answer " + ok
	}
	return "the answer " + bad + strings.Join(items, ", ")
}

// budget checks a reported figure against its budget; a figure without
// a budget, or a budget without a figure, decides nothing.
func budget(name, unit string, got, max *float64) []evaluator.Result {
	if got == nil || max == nil {
		return nil
	}
	n := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	ok := *got <= *max
	why := fmt.Sprintf("%s %s %s is within the budget of %s", name, n(*got), unit, n(*max))
	if !ok {
		why = fmt.Sprintf("%s %s %s is over the budget of %s", name, n(*got), unit, n(*max))
	}
	return []evaluator.Result{result("budget."+name, severity.Moderate, ok, "", why)}
}

// result is one check as the engine records an evaluator's: a failure
// carries one finding at its severity.
func result(name string, sev severity.Level, passed bool, criterion, summary string) evaluator.Result {
	r := evaluator.Result{Name: name, Kind: "answer", Severity: sev, Required: true, Passed: passed, Summary: summary}
	if !passed {
		if criterion == "" {
			criterion = "evaluator:" + name
		}
		r.Findings = []severity.Finding{{Severity: sev.String(), Message: safetext.OneLine(summary, severity.MaxMessageBytes),
			Criterion: criterion, Judge: "evaluator:" + name}}
	}
	return r
}
