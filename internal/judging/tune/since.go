package tune

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/tribunal-cc/tribunal/internal/judging/calibrate"
	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Since compares a calibrate run with the tune run whose applied rubric
// is the one in use: the candidate's agreement on its held-out pairs, and
// the agreement now on the cases that run never saw.
type Since struct {
	ID        string `json:"tune_id"`
	AppliedAt string `json:"applied_at"`
	// Tuned is the shipped rubric's held-out agreement over TunedN pairs.
	Tuned  float64 `json:"tuned_agreement"`
	TunedN int     `json:"tuned_pairs"`
	// New counts the decided cases the tune run had in neither part;
	// Agreement and its interval are over them (nil with none).
	New       int                  `json:"new_cases"`
	Agreement *float64             `json:"agreement_since"`
	CI        *judgestats.Interval `json:"agreement_since_ci"`
	// Regressed is an interval wholly below the tuned agreement.
	Regressed bool `json:"regressed"`
}

// SinceApplied finds the newest applied tune run whose shipped rubric is
// rubric and measures rep's new cases against it; ok is false when the
// rubric in use was not put in place by tune.
func SinceApplied(projectDir string, rubric json.RawMessage, rep *calibrate.Report) (Since, bool) {
	ids := records.ListTunes(projectDir)
	slices.Reverse(ids)
	want := Surface{Raw: rubric}.Pretty()
	for _, id := range ids {
		applied, err := os.ReadFile(filepath.Join(records.TunePath(projectDir, id), records.TuneAppliedFile))
		if err != nil {
			continue
		}
		rec, err := ReadRecord(projectDir, id)
		if err != nil || rec.Shipped == nil || rec.Result == nil || rec.Decision == nil || (Surface{Raw: rec.Shipped}).Pretty() != want {
			continue
		}
		var a Applied
		_ = json.Unmarshal(applied, &a)
		return since(rec, a.Time, rep), true
	}
	return Since{}, false
}

func since(rec Record, at string, rep *calibrate.Report) Since {
	s := Since{ID: rec.ID, AppliedAt: at}
	hits := 0
	for _, p := range rec.Decision.Pairs {
		if !p.Dropped {
			s.TunedN++
			hits += int(p.After.agrees(p.Label))
		}
	}
	if s.TunedN > 0 {
		s.Tuned = float64(hits) / float64(s.TunedN)
	}
	seen := map[string]bool{}
	for _, id := range append(slices.Clone(rec.TrainIDs), rec.HeldOutIDs...) {
		seen[id] = true
	}
	k := 0
	for _, r := range rep.Results {
		c := Cell{Decision: r.Decision}
		if seen[r.ID] || !c.decided() {
			continue
		}
		s.New++
		k += int(c.agrees(r.Label))
	}
	if s.New > 0 {
		a := float64(k) / float64(s.New)
		s.Agreement, s.CI = &a, judgestats.Wilson(k, s.New)
		s.Regressed = s.CI != nil && s.CI.High < s.Tuned
	}
	return s
}

// Text is the line calibrate prints: "tuned on …; agreement since …".
func (s Since) Text() string {
	line := fmt.Sprintf("the rubric was tuned by tune run %s (applied %s; held-out agreement %.3f over %d pair(s))", s.ID, s.AppliedAt, s.Tuned, s.TunedN)
	if s.Agreement == nil {
		return line + "; no case here is new since, so nothing says whether it holds"
	}
	line += fmt.Sprintf("; agreement since on %d new case(s): %.3f", s.New, *s.Agreement)
	if s.CI != nil {
		line += fmt.Sprintf(" [%.3f, %.3f]", s.CI.Low, s.CI.High)
	}
	if s.Regressed {
		return line + ": REGRESSED — its interval lies below the tuned agreement; run tune again on these cases"
	}
	return line + ": holding (not significantly below)"
}
