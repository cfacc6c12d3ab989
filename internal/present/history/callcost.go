package history

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// CallKind names a kind of model call for the cost estimate: its role
// (actor, judge, meta) and its model.
type CallKind struct {
	Role  string `json:"role"`
	Model string `json:"model"`
}

// CallCost is what the recorded calls of one kind cost: how many recorded
// a cost, and their mean.
type CallCost struct {
	Calls   int     `json:"calls"`
	MeanUSD float64 `json:"mean_usd"`
}

// MaxCostTasks bounds how many of the newest tasks CallCosts reads.
const MaxCostTasks = 50

// CallCosts reads the call records (calls/*.json) of the project's newest
// tasks (at most maxTasks) and returns the mean cost per role and model
// of the calls that recorded one: the history `run --dry-run` estimates
// a task from. Unreadable records are skipped.
func CallCosts(projectDir string, maxTasks int) map[CallKind]CallCost {
	ids, _ := records.TaskIDs(projectDir)
	if len(ids) > maxTasks {
		ids = ids[:maxTasks]
	}
	sums := map[CallKind]float64{}
	out := map[CallKind]CallCost{}
	for _, id := range ids {
		its, _ := filepath.Glob(filepath.Join(projectDir, id, records.IterationPrefix+"*", records.CallsDir, "*"+records.JSONExt))
		for _, path := range its {
			data, err := records.ReadRaw(path)
			if err != nil {
				continue
			}
			var c struct {
				Role    string   `json:"role"`
				Model   string   `json:"model"`
				CostUSD *float64 `json:"cost_usd"`
			}
			if json.Unmarshal(data, &c) != nil || c.CostUSD == nil || *c.CostUSD < 0 {
				continue
			}
			k := CallKind{Role: c.Role, Model: strings.TrimSpace(c.Model)}
			sums[k] += *c.CostUSD
			cc := out[k]
			cc.Calls++
			cc.MeanUSD = sums[k] / float64(cc.Calls)
			out[k] = cc
		}
	}
	return out
}
