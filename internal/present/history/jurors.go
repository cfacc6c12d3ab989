package history

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Jurors is how many independent jurors a task's panel is worth, estimated
// from every iteration this project has recorded: judges whose scores rise
// and fall together add less than their number suggests.
type Jurors struct {
	judgestats.Jurors
	// Iterations is how many recorded iterations had scores from at least
	// two of the panel's seats.
	Iterations int `json:"iterations"`
	// Warning is set when a panel of three or more is worth fewer than
	// 1.5 jurors.
	Warning string `json:"warning,omitempty"`
}

// seatKeys names an iteration's seats by judge type, "#2", "#3" … for
// repeated types, so that seats line up across iterations and tasks.
func seatKeys(judges []JudgeView) []string {
	seen := map[string]int{}
	keys := make([]string, len(judges))
	for i, j := range judges {
		seen[j.Type]++
		keys[i] = j.Type
		if n := seen[j.Type]; n > 1 {
			keys[i] = fmt.Sprintf("%s#%d", j.Type, n)
		}
	}
	return keys
}

// ProjectJurors estimates the effective jurors of v's panel (its first
// iteration's seats) from the scores of every iteration recorded in the
// project: ρ̄ is the mean pairwise Pearson correlation of the seats'
// usable scores across iterations, n_eff = n / (1 + (n − 1)·ρ̄). nil when
// the task has no panel on record.
func ProjectJurors(projectDir string, v *TaskView) *Jurors {
	var panel []string
	for _, it := range v.Iterations {
		if len(it.Judges) > 0 {
			panel = seatKeys(it.Judges)
			break
		}
	}
	if len(panel) == 0 {
		return nil
	}
	index := map[string]int{}
	for i, k := range panel {
		index[k] = i
	}
	scores := make([][]float64, len(panel))
	ids, _ := records.TaskIDs(projectDir)
	iterations := 0
	for _, id := range ids {
		dirs, err := records.IterationDirs(filepath.Join(projectDir, id))
		if err != nil {
			continue
		}
		for _, d := range dirs {
			seats, vs, _, _ := readPanel(d)
			judges := make([]JudgeView, len(seats))
			for i := range seats {
				judges[i] = judgeView(seats[i], vs[i])
			}
			col := make([]float64, len(panel))
			for i := range col {
				col[i] = math.NaN()
			}
			have := 0
			for i, k := range seatKeys(judges) {
				if p, ok := index[k]; ok && judges[i].Score != nil {
					col[p] = *judges[i].Score
					have++
				}
			}
			if have < 2 {
				continue
			}
			iterations++
			for p := range panel {
				scores[p] = append(scores[p], col[p])
			}
		}
	}
	j := &Jurors{Jurors: judgestats.EffectiveJurors(scores), Iterations: iterations}
	j.Warning = judgestats.JurorsWarning(j.Jurors)
	return j
}
