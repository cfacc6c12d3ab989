package calibrate

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

// MinHeldOutPerLabel is the fewest scored held-out cases of each label
// for the held-out figures to support a pick: below it a single case moves
// a rate by 20 points or more and the Wilson interval of a rate spans
// more than half the scale.
const MinHeldOutPerLabel = 5

// heldOut says whether the case with this id falls in the held-out part
// of a split with this fraction: the first 8 bytes of the SHA-256 of the
// id, read as a big-endian fraction of 2⁶⁴, below the fraction. The split
// depends on the id alone, so adding or removing other cases, reordering
// the file or rerunning never moves a case between the parts.
func heldOut(id string, fraction float64) bool {
	sum := sha256.Sum256([]byte(id))
	u := binary.BigEndian.Uint64(sum[:8])
	return float64(u)/math.Exp2(64) < fraction
}

// checkHoldout refuses, before anything is judged, a split that leaves
// either part without a case.
func checkHoldout(cases []Case, fraction float64) error {
	if fraction == 0 {
		return nil
	}
	n := 0
	for _, c := range cases {
		if heldOut(c.ID, fraction) {
			n++
		}
	}
	if n == 0 || n == len(cases) {
		return &InputError{fmt.Errorf("--holdout %s puts %d of the %d case(s) in the held-out part: both parts need cases (the split is by a hash of each case's id)",
			fmtFraction(fraction), n, len(cases))}
	}
	return nil
}

func fmtFraction(f float64) string { return fmt.Sprintf("%g", f) }

// Holdout is the threshold picked on one part of the cases and measured on
// the other, which played no part in the pick.
type Holdout struct {
	Fraction float64 `json:"fraction"`
	// TuneCases and HeldOutCases are the scored cases of each part.
	TuneCases    int      `json:"tune_cases"`
	HeldOutCases int      `json:"held_out_cases"`
	HeldOutIDs   []string `json:"held_out_ids"`
	// InSample is the picked threshold's figures on the tuning part (the
	// κ-maximising point there); nil when no threshold could be picked.
	InSample *judgestats.SweepPoint `json:"in_sample"`
	// HeldOut is the same threshold on the held-out part; Configured the
	// configured threshold there.
	HeldOut    *judgestats.SweepPoint `json:"held_out"`
	Configured *judgestats.SweepPoint `json:"held_out_configured"`
	// Versus ranks the pick against the configured threshold by held-out κ.
	Versus *judgestats.Ranking `json:"held_out_versus_configured,omitempty"`
	// TooSmall says why the held-out part cannot support the pick; "" when
	// it can.
	TooSmall string `json:"too_small,omitempty"`
}

// splitSweep picks the κ-maximising threshold on the cases outside the
// held-out part and measures it on the held-out part. ids[i] names outs[i].
func splitSweep(outs []judgestats.Outcome, ids []string, fraction, configured float64) *Holdout {
	h := &Holdout{Fraction: fraction}
	var tune, held []judgestats.Outcome
	labels := map[string]int{}
	for i, o := range outs {
		if !heldOut(ids[i], fraction) {
			tune = append(tune, o)
			continue
		}
		h.HeldOutIDs = append(h.HeldOutIDs, ids[i])
		held = append(held, o)
		if o.Score != nil {
			labels[o.Label]++
		}
	}
	sweep := judgestats.SweepThresholds(tune, 0.05, configured)
	h.TuneCases = sweep.Scored
	h.InSample = sweep.Best
	conf := judgestats.AtThreshold(held, configured)
	h.Configured = &conf
	for _, n := range labels {
		h.HeldOutCases += n
	}
	if h.InSample != nil {
		p := judgestats.AtThreshold(held, h.InSample.Threshold)
		h.HeldOut = &p
		r := judgestats.Rank(p.Kappa, conf.Kappa, p.KappaCI, conf.KappaCI, h.HeldOutCases)
		h.Versus = &r
	}
	switch {
	case h.InSample == nil:
		h.TooSmall = "no threshold could be picked on the tuning part (it needs scored cases of both labels)"
	case labels[judgestats.Accept] < MinHeldOutPerLabel || labels[judgestats.Reject] < MinHeldOutPerLabel:
		h.TooSmall = fmt.Sprintf("the held-out part has %d scored accept and %d scored reject case(s); at least %d of each are needed",
			labels[judgestats.Accept], labels[judgestats.Reject], MinHeldOutPerLabel)
	case h.HeldOut.Kappa == nil:
		h.TooSmall = "κ is n/a on the held-out part at the picked threshold (one side never varies)"
	}
	return h
}

// HeldOut is heldOut for tune's split (internal/judging/tune): one rule
// for which part a case is in, wherever cases are split.
func HeldOut(id string, fraction float64) bool { return heldOut(id, fraction) }
