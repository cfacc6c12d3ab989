package calibrate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

// --repeat K and the noise gate of --against (spec §14.1, seed 002's
// measurement gate): a figure measured once cannot tell a change of
// configuration from run-to-run noise. With K rollouts of every case on
// each side, the agreement is a mean with a 95% interval, its noise a
// coefficient of variation, and a difference is called only when the
// evidence is paired (at least MinPaired rollouts in which every common
// case was decided on both sides), the noise does not exceed the
// difference asked for, and the difference's interval excludes zero.

// DefaultMinDifference is the difference in agreement --against asks for
// when --min-difference is not given: 5 points.
const DefaultMinDifference = 0.05

// MaxRepeat bounds --repeat: K rollouts cost K runs.
const MaxRepeat = 100

// MinPaired is the paired-evidence floor: below it the comparison is
// invalid, not a number.
const MinPaired = 3

// The noise gate's verdicts.
const (
	VerdictInvalid       = "invalid"
	VerdictTooNoisy      = "too_noisy"
	VerdictThisBetter    = "this_run_better"
	VerdictEarlierBetter = "earlier_run_better"
	VerdictNoDifference  = "no_difference"
)

func (o Options) minDifference() float64 {
	if o.MinDifference > 0 {
		return o.MinDifference
	}
	return DefaultMinDifference
}

// Rollout is one rollout of every case: which decided case agreed with
// its label. A case absent from Correct was not decided (its judging
// failed) in this rollout.
type Rollout struct {
	Agreement *float64        `json:"agreement"`
	Correct   map[string]bool `json:"correct"`
	Failed    int             `json:"failed"`
}

// Spread is a figure over rollouts: its mean, 95% interval (Student's t)
// and coefficient of variation; nil parts are undefined (below two
// rollouts, a mean of zero).
type Spread struct {
	N    int      `json:"n"`
	Mean *float64 `json:"mean"`
	Lo   *float64 `json:"ci95_lo"`
	Hi   *float64 `json:"ci95_hi"`
	CV   *float64 `json:"cv"`
}

// Repeat is --repeat's section of a report: the rollouts (the first is
// the report's own results) and the agreement over them.
type Repeat struct {
	K         int       `json:"k"`
	Agreement Spread    `json:"agreement"`
	Rollouts  []Rollout `json:"rollouts"`
}

// NoiseGate is --against with --repeat: the two runs' agreement over
// their paired rollouts, its difference, and the verdict with its reason.
type NoiseGate struct {
	MinDifference float64 `json:"min_difference"`
	Paired        int     `json:"paired"`
	This          Spread  `json:"this_run"`
	Earlier       Spread  `json:"earlier_run"`
	Difference    Spread  `json:"difference"`
	Verdict       string  `json:"verdict"`
	Why           string  `json:"why"`
}

// rolloutJobs are the judgings of rollouts 1..K-1 (the originals of the
// cases, never a mutant or a swap).
func (c *calibration) rolloutJobs() []job {
	if c.opts.Repeat < 2 {
		return nil
	}
	c.repeats = make([][]outcome, c.opts.Repeat-1)
	var jobs []job
	for k := 1; k < c.opts.Repeat; k++ {
		c.repeats[k-1] = make([]outcome, len(c.cases))
		for i := range c.cases {
			if !c.mut.mutant(i) {
				jobs = append(jobs, job{i: i, rollout: k})
			}
		}
	}
	return jobs
}

// rolloutKey is the cache key of rollout k of a judging keyed key: each
// rollout is a judging of its own (else every rollout would be the cached
// first one), and a rerun still pays for none it has.
func rolloutKey(key string, k int) string {
	sum := sha256.Sum256([]byte(key + "/rollout/" + strconv.Itoa(k)))
	return hex.EncodeToString(sum[:])
}

// repeatReport builds the Repeat section from the results and the other
// rollouts; nil without --repeat.
func (c *calibration) repeatReport(rep *Report) *Repeat {
	if c.opts.Repeat < 1 {
		return nil
	}
	labels := map[string]string{}
	first := Rollout{Correct: map[string]bool{}}
	for _, r := range rep.Results {
		labels[r.ID] = r.Label
		first.add(r.ID, r.Label, r.Judgement)
	}
	rp := &Repeat{K: c.opts.Repeat, Rollouts: []Rollout{first}}
	for _, outs := range c.repeats {
		ro := Rollout{Correct: map[string]bool{}}
		for i, o := range outs {
			id := c.cases[i].ID
			if _, ok := labels[id]; !ok {
				continue
			}
			if !o.done {
				rep.Complete = false // interrupted: resumed from the cache
				continue
			}
			ro.add(id, labels[id], o.Judgement)
		}
		rp.Rollouts = append(rp.Rollouts, ro)
	}
	var xs []float64
	for i := range rp.Rollouts {
		ro := &rp.Rollouts[i]
		if a, ok := agreementOver(ro.Correct, nil); ok {
			ro.Agreement = &a
			xs = append(xs, a)
		}
	}
	rp.Agreement = spread(xs)
	return rp
}

// add records one judging of case id in the rollout.
func (ro *Rollout) add(id, label string, j Judgement) {
	switch j.Decision {
	case "pass", "fail":
		ro.Correct[id] = (j.Decision == "pass") == (label == "accept")
	default:
		ro.Failed++
	}
}

// agreementOver is the share of the cases in ids (every decided case
// when ids is nil) that agreed with their label; ok is false when any of
// ids was not decided, or none was.
func agreementOver(correct map[string]bool, ids []string) (float64, bool) {
	if ids == nil {
		for id := range correct {
			ids = append(ids, id)
		}
	}
	agree := 0
	for _, id := range ids {
		ok, decided := correct[id]
		if !decided {
			return 0, false
		}
		if ok {
			agree++
		}
	}
	if len(ids) == 0 {
		return 0, false
	}
	return float64(agree) / float64(len(ids)), true
}

// spread is xs's mean, interval and noise through judgestats.
func spread(xs []float64) Spread {
	s := Spread{N: len(xs)}
	if len(xs) == 0 {
		return s
	}
	m, lo, hi, ok := judgestats.MeanCI95(xs)
	s.Mean = &m
	if ok {
		s.Lo, s.Hi = &lo, &hi
	}
	if cv, ok := judgestats.CV(xs); ok {
		s.CV = &cv
	}
	return s
}

// noise is the run-to-run noise of xs for the gate: its CV, 0 when every
// value is the same (even zero), and +Inf when the values vary around a
// mean of zero.
func noise(xs []float64) float64 {
	if cv, ok := judgestats.CV(xs); ok {
		return cv
	}
	if len(xs) > 1 && slices.Min(xs) != slices.Max(xs) {
		return math.Inf(1)
	}
	return 0
}

// rollouts returns a report's rollouts: its Repeat section's, else the
// one its results make.
func rollouts(r *Report) []Rollout {
	if r.Repeat != nil && len(r.Repeat.Rollouts) > 0 {
		return r.Repeat.Rollouts
	}
	ro := Rollout{Correct: map[string]bool{}}
	for _, c := range r.Results {
		ro.add(c.ID, c.Label, c.Judgement)
	}
	return []Rollout{ro}
}

// noiseGate compares this run's rollouts with the earlier run's over the
// cases both judged. A rollout pair counts only when every such case was
// decided on both sides: a difference over survivors compares unlike
// cells.
func noiseGate(rep, prior *Report, minDiff float64) *NoiseGate {
	g := &NoiseGate{MinDifference: minDiff}
	common := commonIDs(rep, prior)
	a, b := rollouts(rep), rollouts(prior)
	var xs, ys, ds []float64
	for k := 0; k < min(len(a), len(b)); k++ {
		x, okA := agreementOver(a[k].Correct, common)
		y, okB := agreementOver(b[k].Correct, common)
		if okA && okB {
			xs, ys, ds = append(xs, x), append(ys, y), append(ds, x-y)
		}
	}
	g.Paired = len(ds)
	g.This, g.Earlier, g.Difference = spread(xs), spread(ys), spread(ds)
	g.Verdict, g.Why = decideNoise(g, noise(xs), noise(ys), len(a), len(b), len(common))
	return g
}

// commonIDs are the case ids both reports judged, sorted.
func commonIDs(rep, prior *Report) []string {
	seen := map[string]bool{}
	for _, c := range prior.Results {
		seen[c.ID] = true
	}
	out := []string{}
	for _, c := range rep.Results {
		if seen[c.ID] {
			out = append(out, c.ID)
		}
	}
	slices.Sort(out)
	return out
}

// decideNoise is the gate's verdict, in order: too little paired
// evidence, noise above the difference asked for, then the difference
// itself — called only when its 95% interval excludes zero and its size
// reaches the difference asked for.
func decideNoise(g *NoiseGate, noiseA, noiseB float64, ka, kb, common int) (string, string) {
	if g.Paired < MinPaired {
		return VerdictInvalid, fmt.Sprintf("%d paired rollout(s) over %d common case(s) (this run %d rollout(s), the earlier %d; a rollout pairs only when every common case was decided on both sides); at least %d are needed: run both sides with --repeat %d or more",
			g.Paired, common, ka, kb, MinPaired, MinPaired)
	}
	if worst := max(noiseA, noiseB); worst > g.MinDifference {
		return VerdictTooNoisy, fmt.Sprintf("the run-to-run noise (CV %s) exceeds the difference asked for (%s): no difference can be called; raise --repeat, or make the measurement steadier",
			fmtNum(worst), fmtNum(g.MinDifference))
	}
	d := g.Difference
	lo, hi := *d.Mean, *d.Mean
	if d.Lo != nil {
		lo, hi = *d.Lo, *d.Hi
	}
	switch {
	case lo > 0 && *d.Mean >= g.MinDifference:
		return VerdictThisBetter, fmt.Sprintf("this run agrees with the labels more, by %s (95%% CI %s to %s) over %d paired rollouts", fmtNum(*d.Mean), fmtNum(lo), fmtNum(hi), g.Paired)
	case hi < 0 && -*d.Mean >= g.MinDifference:
		return VerdictEarlierBetter, fmt.Sprintf("the earlier run agrees with the labels more, by %s (95%% CI %s to %s) over %d paired rollouts", fmtNum(-*d.Mean), fmtNum(-hi), fmtNum(-lo), g.Paired)
	}
	return VerdictNoDifference, fmt.Sprintf("no difference of at least %s shown: this run minus the earlier %s (95%% CI %s to %s) over %d paired rollouts", fmtNum(g.MinDifference), fmtNum(*d.Mean), fmtNum(lo), fmtNum(hi), g.Paired)
}

func fmtNum(f float64) string {
	if math.IsInf(f, 1) {
		return "∞"
	}
	return strconv.FormatFloat(f, 'f', 3, 64)
}

// spreadText is "0.800 (95% CI 0.700–0.900, CV 0.050, K 3)".
func (s Spread) text() string {
	if s.Mean == nil {
		return "n/a"
	}
	var parts []string
	if s.Lo != nil {
		parts = append(parts, fmt.Sprintf("95%% CI %s to %s", fmtNum(*s.Lo), fmtNum(*s.Hi)))
	}
	if s.CV != nil {
		parts = append(parts, "CV "+fmtNum(*s.CV))
	}
	parts = append(parts, fmt.Sprintf("%d rollout(s)", s.N))
	return fmt.Sprintf("%s (%s)", fmtNum(*s.Mean), strings.Join(parts, ", "))
}

func (r *Report) writeRepeat(b *strings.Builder) {
	if r.Repeat == nil {
		return
	}
	fmt.Fprintf(b, "\nRepeat: every case judged %d time(s); agreement over the rollouts: %s\n", r.Repeat.K, r.Repeat.Agreement.text())
}

func (g *NoiseGate) write(b *strings.Builder) {
	if g == nil {
		return
	}
	fmt.Fprintf(b, "Noise gate (--repeat): agreement this run %s; earlier run %s; difference %s\n", g.This.text(), g.Earlier.text(), g.Difference.text())
	fmt.Fprintf(b, "**Verdict: %s** — %s\n", g.Verdict, g.Why)
}
