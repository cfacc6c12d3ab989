package gate

import (
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// floors holds the spec §6.2 floor computation for one panel.
type floors struct {
	// failed is F, the first violated floored criterion in rubric order, or
	// "" when no floor failed.
	failed string
	// unreported lists the floored criteria that no verdict reported at
	// all, in rubric order, for the floor-gap warning.
	unreported []string
	// anyReports is true when at least one verdict carries a non-empty
	// criterion_scores object.
	anyReports bool
}

// computeFloors examines every floored criterion against all verdicts,
// unusable ones included: a judge whose overall score is garbage can still
// have seen a real safety problem. Values are compared exactly.
func computeFloors(vs []verdict.Verdict, r *rubric.Rubric) floors {
	var out floors
	for _, v := range vs {
		if cs, ok := v.Reports(); ok && len(cs) > 0 {
			out.anyReports = true
			break
		}
	}
	if r == nil {
		return out
	}
	for _, c := range r.Criteria {
		if c.Name == "" || c.MinPass == nil {
			continue
		}
		reported, violated := examine(vs, c.Name, *c.MinPass)
		if reported == 0 {
			out.unreported = append(out.unreported, c.Name)
		}
		if violated && out.failed == "" {
			out.failed = c.Name
		}
	}
	return out
}

// examine counts the verdicts reporting name and says whether the floor is
// violated: any present but unreadable report violates (a readable report
// from another judge cannot dilute it), and so does a readable minimum
// below minPass.
func examine(vs []verdict.Verdict, name string, minPass float64) (reported int, violated bool) {
	for _, v := range vs {
		cs, ok := v.Reports()
		if !ok {
			continue
		}
		raw, present := cs[name]
		if !present {
			continue
		}
		reported++
		s, readable := verdict.Usable(raw)
		if !readable || s < minPass {
			violated = true
		}
	}
	return reported, violated
}
