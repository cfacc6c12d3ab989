package calibrate

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/judging/calibrate/mutate"
	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

// mutation is --mutate's plan: the accepted cases (the first origs of the
// run's cases) and, after them, one mutant case per mutation that applies
// (spec §14.5).
type mutation struct {
	origs int
	// of[k] describes cases[origs+k].
	of    []mutantOf
	skips []MutantSkip
}

type mutantOf struct {
	orig   int
	kind   mutate.Kind
	change string
}

// ErrNothingToMutate marks --mutate's *InputError: no accepted case, or
// no mutation applies to any.
var ErrNothingToMutate = errors.New("nothing to mutate")

// withMutants keeps the accepted cases and appends their mutants. No
// accepted case, or no mutant at all, is an *InputError: there would be
// nothing to compare.
func withMutants(cases []Case, casesPath string) ([]Case, *mutation, error) {
	var origs []Case
	for _, c := range cases {
		if c.Label == judgestats.Accept {
			origs = append(origs, c)
		}
	}
	if len(origs) == 0 {
		return nil, nil, &InputError{fmt.Errorf("%w: %s has no accepted case; --mutate breaks the changes labelled accept", ErrNothingToMutate, casesPath)}
	}
	m := &mutation{origs: len(origs)}
	all := append([]Case(nil), origs...)
	for i, c := range origs {
		files, err := caseFiles(c.Diff, false)
		for _, k := range mutate.Kinds {
			var mu mutate.Mutant
			if err == nil {
				mu, err = mutate.Apply(k, files)
			}
			var na *mutate.NotApplicable
			switch {
			case errors.As(err, &na):
				m.skips = append(m.skips, MutantSkip{Case: c.ID, Kind: string(k), Reason: na.Reason})
				err = nil
				continue
			case err != nil:
				m.skips = append(m.skips, MutantSkip{Case: c.ID, Kind: string(k), Reason: err.Error()})
				continue
			}
			all = append(all, Case{ID: c.ID + "~" + string(k), Task: c.Task, Diff: mu.Diff, Label: judgestats.Reject, Files: c.Files, Line: c.Line})
			m.of = append(m.of, mutantOf{orig: i, kind: k, change: mu.Change})
		}
	}
	if len(m.of) == 0 {
		reasons := map[string]bool{}
		for _, s := range m.skips {
			reasons[s.Kind+": "+s.Reason] = true
		}
		keys := make([]string, 0, len(reasons))
		for r := range reasons {
			keys = append(keys, r)
		}
		sort.Strings(keys)
		return nil, nil, &InputError{fmt.Errorf("%w: no mutation applies to any accepted case of %s (%s)", ErrNothingToMutate, casesPath, strings.Join(keys, "; "))}
	}
	return all, m, nil
}

// mutant reports whether case i is a mutant (not an original).
func (m *mutation) mutant(i int) bool { return m != nil && i >= m.origs }

// MutationReport is --mutate's result: per mutation kind, how many of
// the mutants the judge scored lower than their original.
type MutationReport struct {
	// Accepted is how many accepted cases were mutated.
	Accepted int             `json:"accepted_cases"`
	Kinds    []KindFigures   `json:"kinds"`
	All      KindFigures     `json:"all"`
	Skipped  []MutantSkip    `json:"skipped"`
	Mutants  []MutantOutcome `json:"mutants"`
}

// KindFigures are one mutation kind's counts. Compared are the mutants
// whose original and mutant both got a score (and whose diff applied);
// Caught those scored strictly lower than their original; GateFailed
// those the verdict failed.
type KindFigures struct {
	Kind       string   `json:"kind"`
	Made       int      `json:"made"`
	Compared   int      `json:"compared"`
	Caught     int      `json:"caught"`
	GateFailed int      `json:"gate_failed"`
	Skipped    int      `json:"skipped"`
	Share      *float64 `json:"share_caught"`
	// ShareCI is the share's 95% Wilson interval.
	ShareCI *judgestats.Interval `json:"share_caught_ci"`
}

// MutantSkip is a mutation that did not apply to a case, and why.
type MutantSkip struct {
	Case   string `json:"case"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

// MutantOutcome is one mutant's comparison with its original.
type MutantOutcome struct {
	ID            string   `json:"id"`
	Of            string   `json:"of"`
	Kind          string   `json:"kind"`
	Change        string   `json:"change"`
	OriginalScore *float64 `json:"original_score"`
	MutantScore   *float64 `json:"mutant_score"`
	Decision      string   `json:"decision"`
	Caught        bool     `json:"caught"`
	// NotCompared says why the mutant counts neither way ("" when compared).
	NotCompared string `json:"not_compared,omitempty"`
}
