package history

import "fmt"

// CostPerRound prices one jury round from the project's recorded tasks
// and reviews (tune's dry-run estimate, spec §14.7): their cost over their
// iterations, each iteration one round. A task's cost includes its actor,
// so the estimate errs high. 0 when nothing recorded has both.
func CostPerRound(projectDir string) (perJudging float64, from string) {
	log := Log(projectDir, "", LogOptions{})
	var cost float64
	rounds, n := 0, 0
	for _, e := range log.Entries {
		if e.CostUSD == nil || e.Iterations == nil || *e.Iterations < 1 || *e.CostUSD <= 0 {
			continue
		}
		cost += *e.CostUSD
		rounds += *e.Iterations
		n++
	}
	if rounds == 0 {
		return 0, ""
	}
	return cost / float64(rounds), fmt.Sprintf("the mean over %d recorded task(s) and review(s), %d jury round(s)", n, rounds)
}
