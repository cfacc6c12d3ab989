package calibrate

import (
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/judging/calibrate/mutate"
	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

// report compares every judged mutant with its original.
func (m *mutation) report(c *calibration) *MutationReport {
	r := &MutationReport{Accepted: m.origs, Skipped: m.skips}
	byKind := map[string]*KindFigures{}
	for _, k := range mutate.Kinds {
		r.Kinds = append(r.Kinds, KindFigures{Kind: string(k)})
	}
	for i := range r.Kinds {
		byKind[r.Kinds[i].Kind] = &r.Kinds[i]
	}
	for _, s := range m.skips {
		byKind[s.Kind].Skipped++
	}
	for k, of := range m.of {
		mo, orig := c.results[m.origs+k], c.results[of.orig]
		if !mo.done || !orig.done {
			continue
		}
		o := MutantOutcome{ID: c.cases[m.origs+k].ID, Of: c.cases[of.orig].ID, Kind: string(of.kind), Change: of.change,
			OriginalScore: orig.Score, MutantScore: mo.Score, Decision: mo.Decision}
		f := byKind[o.Kind]
		f.Made++
		switch {
		case mo.Note != "":
			o.NotCompared = "the mutated diff does not apply to the case's files"
		case orig.Score == nil || (orig.Decision != "pass" && orig.Decision != "fail"):
			o.NotCompared = "the original got no score"
		case mo.Score == nil || (mo.Decision != "pass" && mo.Decision != "fail"):
			o.NotCompared = "the mutant got no score"
		default:
			f.Compared++
			o.Caught = *mo.Score < *orig.Score
			if o.Caught {
				f.Caught++
			}
			if mo.Decision == "fail" {
				f.GateFailed++
			}
		}
		r.Mutants = append(r.Mutants, o)
	}
	r.All.Kind = "all"
	for i := range r.Kinds {
		f := &r.Kinds[i]
		f.Share, f.ShareCI = share(f.Caught, f.Compared), judgestats.Wilson(f.Caught, f.Compared)
		r.All.Made += f.Made
		r.All.Compared += f.Compared
		r.All.Caught += f.Caught
		r.All.GateFailed += f.GateFailed
		r.All.Skipped += f.Skipped
	}
	r.All.Share, r.All.ShareCI = share(r.All.Caught, r.All.Compared), judgestats.Wilson(r.All.Caught, r.All.Compared)
	return r
}

func share(n, of int) *float64 {
	if of == 0 {
		return nil
	}
	s := float64(n) / float64(of)
	return &s
}

// writeMutation writes --mutate's section: the share caught per kind, the
// mutations skipped (grouped by reason) and the mutants not caught.
func (r *Report) writeMutation(b *strings.Builder) {
	m := r.Mutation
	if m == nil {
		return
	}
	fmt.Fprintf(b, "\nMutation check: %d mutant(s) of %d accepted case(s); a mutant is caught when its score is below its original's\n\n", m.All.Made, m.Accepted)
	b.WriteString("| kind | made | compared | caught | share caught | gate failed | skipped |\n|---|---|---|---|---|---|---|\n")
	for _, f := range append(append([]KindFigures(nil), m.Kinds...), m.All) {
		fmt.Fprintf(b, "| %s | %d | %d | %d | %s | %d | %d |\n", f.Kind, f.Made, f.Compared, f.Caught, pctCI(f.Share, f.ShareCI), f.GateFailed, f.Skipped)
	}
	if len(m.Skipped) > 0 {
		b.WriteString("\nSkipped mutations (nothing to break):\n")
		type group struct {
			key   string
			cases []string
		}
		var groups []*group
		idx := map[string]*group{}
		for _, s := range m.Skipped {
			key := s.Kind + ": " + s.Reason
			if idx[key] == nil {
				idx[key] = &group{key: key}
				groups = append(groups, idx[key])
			}
			idx[key].cases = append(idx[key].cases, s.Case)
		}
		for _, g := range groups {
			fmt.Fprintf(b, "- %s — %d case(s): %s\n", g.key, len(g.cases), strings.Join(g.cases, ", "))
		}
	}
	var missed []string
	for _, o := range m.Mutants {
		switch {
		case o.NotCompared != "":
			missed = append(missed, fmt.Sprintf("- %s: not compared — %s", o.ID, o.NotCompared))
		case !o.Caught:
			missed = append(missed, fmt.Sprintf("- %s: score %.2f, original %.2f — %s", o.ID, *o.MutantScore, *o.OriginalScore, o.Change))
		}
	}
	if len(missed) > 0 {
		b.WriteString("\nMutants not caught:\n" + strings.Join(missed, "\n") + "\n")
	}
}
