package history

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// writePanelTasks records tasks whose iterations carry one score per seat
// (t0, t1, t2): series[s][k] is seat s's score in the k-th iteration
// overall, spread over tasks of perTask iterations.
func writePanelTasks(t *testing.T, projectDir string, series [][]float64, perTask int) []string {
	var ids []string
	n := len(series[0])
	for task := 0; task*perTask < n; task++ {
		var its []iter
		for k := task * perTask; k < n && k < (task+1)*perTask; k++ {
			var vs []string
			for s := range series {
				vs = append(vs, fmt.Sprintf(`{"score":%v,"passed":%v}`, series[s][k], series[s][k] >= 0.5))
			}
			its = append(its, iter{verdicts: vs})
		}
		id := id("01HZ0", 10*(task+1))
		writeTask(t, projectDir, id, manifest(id, "t", params("majority", 0.5)), "", its)
		ids = append(ids, id)
	}
	return ids
}

func TestProjectJurorsKnownAnswers(t *testing.T) {
	tests := []struct {
		name     string
		series   [][]float64
		rho, eff float64
		warn     bool
	}{
		{
			// Three judges that always agree are worth one.
			name:   "lockstep",
			series: [][]float64{{.1, .2, .3, .4, .5}, {.1, .2, .3, .4, .5}, {.1, .2, .3, .4, .5}},
			rho:    1, eff: 1, warn: true,
		},
		{
			// r(0,1) = .8, r(0,2) = −1, r(1,2) = −.8 (worked in
			// judgestats' tests): ρ̄ = −1/3, counted as 0, so n_eff = 3.
			name:   "independent",
			series: [][]float64{{.1, .2, .3, .4}, {.1, .3, .2, .4}, {.4, .3, .2, .1}},
			rho:    -1.0 / 3, eff: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ids := writePanelTasks(t, dir, tc.series, 2)
			v := ShowTask(dir, "", ids[0])
			j := ProjectJurors(dir, v)
			if j == nil || j.Panel != 3 || j.Iterations != len(tc.series[0]) {
				t.Fatalf("jurors = %+v", j)
			}
			if j.MeanCorrelation == nil || math.Abs(*j.MeanCorrelation-tc.rho) > 1e-9 || math.Abs(*j.Effective-tc.eff) > 1e-9 {
				t.Fatalf("ρ̄ %v, n_eff %v; want %v, %v", *j.MeanCorrelation, *j.Effective, tc.rho, tc.eff)
			}
			if (j.Warning != "") != tc.warn {
				t.Fatalf("warning %q, want one: %v", j.Warning, tc.warn)
			}
			v.Jurors = j
			out := RenderTask(v)
			if !strings.Contains(out, fmt.Sprintf("effective jurors: %.2f of 3", tc.eff)) {
				t.Errorf("show does not print the effective jurors:\n%s", out)
			}
			if tc.warn && !strings.Contains(out, "**Warning:** the 3 judges are worth 1.00 independent juror(s)") {
				t.Errorf("show does not warn:\n%s", out)
			}
		})
	}
}

func TestProjectJurorsTooLittleRecord(t *testing.T) {
	dir := t.TempDir()
	ids := writePanelTasks(t, dir, [][]float64{{.1, .2}, {.3, .4}}, 2)
	v := ShowTask(dir, "", ids[0])
	j := ProjectJurors(dir, v)
	if j == nil || j.Effective != nil || j.Iterations != 2 || j.Warning != "" {
		t.Fatalf("jurors = %+v", j)
	}
	v.Jurors = j
	if out := RenderTask(v); !strings.Contains(out, "effective jurors: not yet measurable (2 recorded iteration(s)") {
		t.Errorf("render:\n%s", out)
	}
}
