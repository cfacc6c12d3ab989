package report

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
)

// diffOf is what the actor changed. Until an iteration records its diff
// the actor's own message stands in for it.
func diffOf(it history.IterationView) ([]diffFile, []diffLine, string) {
	if d := it.OwnDiff(); d != "" {
		return diffFiles(d), nil, "this iteration's own change, from its isolated worktree"
	}
	if it.ActorText == "" {
		return nil, nil, ""
	}
	return nil, plainLines(it.ActorText), "the actor's message (actor.md)"
}

// callsOf lists the iteration's recorded model outputs, collapsed on the
// page.
func callsOf(it history.IterationView) []callPage {
	if calls, _ := it.Calls(); len(calls) > 0 {
		var out []callPage
		for _, c := range calls {
			title := c.Role
			if c.JudgeType != "" {
				title += " " + c.JudgeType
			}
			if c.Model != "" {
				title += " (" + c.Model + ")"
			}
			out = append(out, callPage{Title: title + " — " + c.Name, Prompt: c.Prompt, Output: c.RawOutput + c.Error})
		}
		return out
	}
	var out []callPage
	for _, r := range it.Recorded() {
		out = append(out, callPage{Title: r.Name + " — " + filepath.Base(r.Path), Output: rawJSON(r.Raw)})
	}
	return out
}

type ledgerPage struct {
	Path  string
	Note  string
	OK    bool
	Rows  []ledgerRow
	Total int
}

type ledgerRow struct {
	Seq       int64
	Time      string
	Kind      string
	Iteration string
	Decision  string
	Holds     bool
	Hash      string
}

// buildLedger lists the task's ledger entries and whether verification
// holds for each.
func buildLedger(a *ledger.Audit, v *history.TaskView) *ledgerPage {
	if a == nil {
		return nil
	}
	p := &ledgerPage{Path: a.Path, Total: len(a.Entries), OK: a.Err == nil}
	iterNo := map[string]int{}
	for _, it := range v.Iterations {
		iterNo[it.ID] = it.Number + 1
	}
	for _, e := range a.Entries {
		if e.TaskID != v.TaskID {
			continue
		}
		r := ledgerRow{Seq: e.Seq, Time: e.Time, Kind: e.Kind, Holds: a.HoldsAt(e.Seq), Hash: shortHash(e.Hash)}
		if n, ok := iterNo[e.IterationID]; ok {
			r.Iteration = fmt.Sprintf("%d", n)
		} else {
			r.Iteration = e.IterationID
		}
		r.Decision = decisionOf(e)
		p.Rows = append(p.Rows, r)
	}
	switch {
	case a.Err != nil:
		p.Note = fmt.Sprintf("verify fails: %v — entries from %d on do not hold", a.Err, a.Holds)
	default:
		p.Note = fmt.Sprintf("verify holds for all %d entries of the ledger", len(a.Entries))
	}
	return p
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// decisionOf summarises an entry's record: passed or blocked, the reason
// and the aggregate, as far as the record says.
func decisionOf(e ledger.Entry) string {
	var rec struct {
		Passed    *bool    `json:"passed"`
		Reason    string   `json:"reason"`
		Aggregate *float64 `json:"aggregated_score"`
		Score     *float64 `json:"score"`
		Outcome   string   `json:"outcome"`
	}
	if err := json.Unmarshal(e.Record, &rec); err != nil {
		return "unreadable record"
	}
	var parts []string
	if rec.Passed != nil {
		parts = append(parts, map[bool]string{true: "passed", false: "blocked"}[*rec.Passed])
	}
	if rec.Outcome != "" {
		parts = append(parts, rec.Outcome)
	}
	if rec.Reason != "" {
		parts = append(parts, rec.Reason)
	}
	if rec.Aggregate != nil {
		parts = append(parts, fmt.Sprintf("aggregate %.2f", *rec.Aggregate))
	}
	if rec.Score != nil {
		parts = append(parts, fmt.Sprintf("score %.2f", *rec.Score))
	}
	return strings.Join(parts, " · ")
}
