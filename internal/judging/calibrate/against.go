package calibrate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Against is --against REPORT: this run's headline figures compared with
// an earlier run's (another configuration, as `calibrate --json` saved
// it), each ranked only when the two 95% intervals do not overlap.
type Against struct {
	File  string `json:"file"`
	Judge string `json:"judge"`
	// SameCases is false when the two runs judged different case ids:
	// then a difference may come from the cases, not the configuration.
	SameCases   bool         `json:"same_cases"`
	Comparisons []Comparison `json:"comparisons"`
	// Noise is --repeat's gate over the two runs' rollouts (spec §14.1).
	Noise *NoiseGate `json:"noise_gate,omitempty"`
}

// readPrior reads an earlier calibrate --json report, before anything is
// judged.
func readPrior(path string) (*Report, error) {
	data, err := records.ReadText(path, records.MaxArtifact)
	if err != nil {
		return nil, &InputError{fmt.Errorf("cannot read the report to compare against: %w", err)}
	}
	var prior Report
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&prior); err != nil || prior.Mode == "" || prior.N == 0 {
		return nil, &InputError{fmt.Errorf("%s is not a report of calibrate --json with judged cases", path)}
	}
	return &prior, nil
}

// against compares rep (this run, A) with prior (B).
func against(path string, prior, rep *Report) *Against {
	ids := func(r *Report) []string {
		var out []string
		for _, c := range r.Results {
			out = append(out, c.ID)
		}
		slices.Sort(out)
		return out
	}
	a := &Against{File: path, Judge: prior.Judge, SameCases: slices.Equal(ids(prior), ids(rep))}
	const this, that = "this run", "the earlier run"
	n := min(rep.Decided, prior.Decided)
	a.Comparisons = []Comparison{
		compare("agreement", this, that, rep.Agreement, prior.Agreement, rep.AgreementCI, prior.AgreementCI, n),
		compare("κ", this, that, rep.Kappa, prior.Kappa, rep.KappaCI, prior.KappaCI, n),
		compare("catch rate", this, that, rep.CatchRate, prior.CatchRate, rep.CatchRateCI, prior.CatchRateCI, n),
		// Fewer false interventions is better: rank the complements.
		compare("false-intervention rate (lower is better)", this, that, complement(rep.FalseInterventionRate), complement(prior.FalseInterventionRate),
			complementCI(rep.FalseInterventionRateCI), complementCI(prior.FalseInterventionRateCI), n),
	}
	return a
}

func (r *Report) writeAgainst(b *strings.Builder) {
	a := r.Against
	if a == nil {
		return
	}
	fmt.Fprintf(b, "\nAgainst %s (judge then: %s):\n", a.File, a.Judge)
	if !a.SameCases {
		b.WriteString("**The two runs judged different cases:** a difference may come from the cases, not the configuration.\n")
	}
	writeComparisons(b, a.Comparisons)
	a.Noise.write(b)
}

func complement(p *float64) *float64 {
	if p == nil {
		return nil
	}
	c := 1 - *p
	return &c
}
