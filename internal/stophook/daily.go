package stophook

import (
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/tribunal-cc/tribunal/internal/claude"
	"github.com/tribunal-cc/tribunal/internal/records"
)

// spendWait bounds the wait for another judge's update of the day's spend.
const spendWait = 2 * time.Second

// paused says whether the Stop judge's daily budget
// (tribunal.stop_hook.daily_budget_usd) is spent in j's project: then no
// judge starts. The first time in a day, the session's next prompt is
// told why (a pending pause notice, shown as its systemMessage), unless a
// verdict is waiting there already: the next Stop tries again. It reads
// one small file, and only when a budget is set and a judge would run.
func (h *hook) paused(j job) bool {
	budget := h.stop.DailyBudgetUSD
	if budget <= 0 {
		return false
	}
	now := h.Now()
	s := records.ReadStopSpend(j.ProjectDir, now)
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
	if _, err := records.UpdateStopSpend(j.ProjectDir, now, 0, true, spendWait); err != nil {
		h.warn("%v", err)
	}
	return true
}

// spend adds a judge call's cost to the project's spend of the day, which
// the daily budget is checked against; a failure is a warning.
func spend(d Deps, j job, res claude.Result) {
	if res.CostUSD == nil || *res.CostUSD <= 0 {
		return
	}
	if _, err := records.UpdateStopSpend(j.ProjectDir, d.Now(), *res.CostUSD, false, spendWait); err != nil && d.Warnf != nil {
		d.Warnf("%v", err)
	}
}
