package stophook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/proc/procid"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// spendWait bounds the wait for another judge's update of the day's spend.
const spendWait = 2 * time.Second

// errBudget is wrapped by judge's error when the daily budget allows no
// judge: no verdict, and no failure to record either.
var errBudget = errors.New("no advisory verdict")

// paused says whether the Stop judge's daily budget
// (tribunal.stop_hook.daily_budget_usd) is spent in j's project, or its
// spend file is damaged: then no judge starts. The first time in a day,
// the session's next prompt is told why (a pending pause notice, shown as
// its systemMessage), unless a verdict is waiting there already: the next
// Stop tries again. It reads one small file, and only when a budget is set
// and a judge would run. The budget is enforced by the reservation each
// judge takes (reserve); this early look keeps the hook from starting a
// judge that could only be refused, and tells the user.
func (h *hook) paused(j job) bool {
	budget := h.stop.DailyBudgetUSD
	if budget <= 0 {
		return false
	}
	now := h.Now()
	s, err := records.ReadStopSpend(j.ProjectDir, now)
	if err != nil {
		h.warn("no advisory verdict: %s", damagedWhy(err))
		return true
	}
	if s.USD < budget {
		return false
	}
	h.warn("no advisory verdict: the Stop judge spent $%.2f today, its daily budget is $%.2f (tribunal.stop_hook.daily_budget_usd); paused until tomorrow", s.USD, budget)
	if s.Noticed || j.SessionID == "" {
		return true
	}
	if _, err := os.Lstat(records.PendingPath(j.OnlookerDir, j.SessionID)); !errors.Is(err, fs.ErrNotExist) {
		return true
	}
	p := records.Pending{ProjectDir: j.ProjectDir, Paused: &s, BudgetUSD: budget}
	if err := records.WritePending(j.OnlookerDir, j.SessionID, p, now); err != nil {
		h.warn("cannot leave the pause notice for the next prompt: %v", err)
		return true
	}
	if _, err := records.NoticeStopSpend(j.ProjectDir, now, spendWait); err != nil {
		h.warn("%v", err)
	}
	return true
}

// damagedWhy says why no judge runs when the spend file cannot be read:
// the budget cannot be checked, so the judge does not run (fail closed).
func damagedWhy(err error) string {
	if errors.Is(err, records.ErrSpendDamaged) {
		return fmt.Sprintf("%v; the daily budget cannot be checked, so the Stop judge does not run: delete the file to start today's count again", err)
	}
	return fmt.Sprintf("the daily budget cannot be checked: %v", err)
}

// reserve takes the judge's place in the daily budget before it starts:
// under the spend file's lock it checks what is spent and reserved today
// against the budget and reserves the call's estimated cost, so that Stop
// hooks of many sessions at once cannot all pass the check. The returned
// settle replaces the estimate with the call's cost (it records the cost
// with no budget set too). An error wraps errBudget.
func reserve(d Deps, j job) (settle func(claude.Result), err error) {
	id := fmt.Sprintf("%s/%d/%d", j.SessionID, procid.Self().PID, d.Now().UnixNano())
	if budget := j.Settings.DailyBudgetUSD; budget > 0 {
		until := j.Deadline
		if until.IsZero() || until.Before(d.Now()) {
			until = d.Now().Add(j.Settings.Timeout + recordReserve)
		}
		s, ok, err := records.ReserveStopSpend(j.ProjectDir, d.Now(), budget, id, until, spendWait)
		if err != nil {
			return nil, fmt.Errorf("%w: %s", errBudget, damagedWhy(err))
		}
		if !ok {
			return nil, fmt.Errorf("%w: the Stop judge's daily budget is taken: $%.4f spent and $%.4f reserved by running judges today, of $%.2f (tribunal.stop_hook.daily_budget_usd)",
				errBudget, s.USD, s.Committed()-s.USD, budget)
		}
	}
	return func(res claude.Result) {
		cost := 0.0
		if res.CostUSD != nil && *res.CostUSD > 0 {
			cost = *res.CostUSD
		}
		if _, err := records.SettleStopSpend(j.ProjectDir, d.Now(), id, cost, spendWait); err != nil && d.Warnf != nil {
			d.Warnf("%v", err)
		}
	}, nil
}
