package session

import (
	"errors"
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// ErrBudget marks a run stopped by tribunal.session.budget_usd.
var ErrBudget = errors.New("budget exhausted")

func isBudget(err error) bool { return errors.Is(err, ErrBudget) }

// addCost adds one call's reported cost to the task total. Calls that
// report no cost (a plain-text CLI, a killed child) add nothing; the total
// is then a lower bound, and the report says "unknown" when nothing at all
// was reported.
func (r *runner) addCost(role string, res claude.Result) {
	if res.CostUSD == nil {
		return
	}
	r.costMu.Lock()
	defer r.costMu.Unlock()
	r.costSeen = true
	r.cost += *res.CostUSD
	if *res.CostUSD > r.maxCost[role] {
		r.maxCost[role] = *res.CostUSD
	}
}

// budgetAllows refuses calls that would take the task past its budget. The
// cost of a call is only known afterwards, so the estimate for the next
// calls of a role is the most expensive call of that role so far (zero
// before the first): the run stops before a call that, priced like the
// dearest one of its kind, would exceed the cap.
func (r *runner) budgetAllows(role string, calls int) error {
	if r.params.BudgetUSD == nil {
		return nil
	}
	r.costMu.Lock()
	defer r.costMu.Unlock()
	budget := *r.params.BudgetUSD
	next := r.maxCost[role] * float64(calls)
	if r.cost+next > budget || (r.cost >= budget && r.costSeen) {
		return fmt.Errorf("%w: spent $%.4f of $%.4f, and the next %s call(s) would cost about $%.4f",
			ErrBudget, r.cost, budget, role, next)
	}
	return nil
}
