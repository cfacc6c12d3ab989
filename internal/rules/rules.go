// Package rules is the gate's vocabulary, each word defined once: gate
// policies, block reasons, the checks that can block after the gate,
// aggregation methods, the built-in thresholds and the comparison
// tolerance.
package rules

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Policy is a gate policy: how many approving judges the gate needs
// (spec §6.3).
type Policy string

// The gate policies, in the order every message lists them.
const (
	Strict       Policy = "strict"
	Majority     Policy = "majority"
	Unanimous    Policy = "unanimous"
	MetaOverride Policy = "meta_override"
)

// Policies lists the gate policies of the onlooker event schema, the only
// values an event's gate_policy may carry.
var Policies = []Policy{Strict, Majority, Unanimous, MetaOverride}

// Quorums beyond the schema's four: Any needs one approving judge;
// Quorum(n), spelt "at_least_<n>", needs n.
const Any Policy = "any"

const (
	atLeastPrefix = "at_least_"
	// MaxAtLeast bounds n in at_least_<n>: no panel is larger.
	MaxAtLeast = 64
)

// PolicyNames is how messages list every accepted policy.
const PolicyNames = "strict, majority, unanimous, meta_override, any or at_least_<n>"

// Quorum is the policy that needs n approving judges.
func Quorum(n int) Policy { return Policy(atLeastPrefix + strconv.Itoa(n)) }

// AtLeastN returns n for an at_least_<n> policy (1 ≤ n ≤ MaxAtLeast,
// written without a sign or leading zeros).
func (p Policy) AtLeastN() (int, bool) {
	digits, ok := strings.CutPrefix(string(p), atLeastPrefix)
	if !ok || digits == "" || digits[0] == '0' {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || n > MaxAtLeast || strconv.Itoa(n) != digits {
		return 0, false
	}
	return n, true
}

// Canonical reports whether p is one of the event schema's policies.
func (p Policy) Canonical() bool { return slices.Contains(Policies, p) }

// ParsePolicy returns the policy named s, exactly spelt: one of Policies,
// Any, or at_least_<n>.
func ParsePolicy(s string) (Policy, bool) {
	p := Policy(s)
	if _, ok := p.AtLeastN(); ok || p == Any {
		return p, true
	}
	return p, p.Canonical()
}

// Reason is why the gate blocked (spec §6.1); a pass has none.
type Reason string

// The block reasons: the only values a gate event or gate.json carries.
const (
	ReasonLowScore          Reason = "low_score"
	ReasonMetaOverride      Reason = "meta_override"
	ReasonBiasDetected      Reason = "bias_detected"
	ReasonDissentUnresolved Reason = "dissent_unresolved"
	ReasonCriterionFloor    Reason = "criterion_floor"
)

// Reasons lists every block reason.
var Reasons = []Reason{ReasonLowScore, ReasonMetaOverride, ReasonBiasDetected, ReasonDissentUnresolved, ReasonCriterionFloor}

// Meaning is the one clause every report uses for the reason; an unknown
// reason (a record written by another version) reads as itself.
func (r Reason) Meaning() string {
	switch r {
	case ReasonLowScore:
		return "the aggregate is below the score threshold"
	case ReasonMetaOverride:
		return "the meta-judge recommended reject"
	case ReasonBiasDetected:
		return "the meta-judge found bias in the jury and recommended reject"
	case ReasonDissentUnresolved:
		return "the judges disagreed, or too few voted to pass"
	case ReasonCriterionFloor:
		return "a criterion scored below its floor"
	}
	return string(r)
}

// Check names one of tribunal's checks that run after the gate passed
// (spec §6.5) and can still block.
type Check string

// The additional checks, in the order they run.
const (
	ByCommand  Check = "command"
	BySeverity Check = "severity"
	ByTrust    Check = "trust"
)

// Method is an aggregation method (spec §5.2).
type Method string

// The aggregation methods.
const (
	Mean         Method = "mean"
	Median       Method = "median"
	Min          Method = "min"
	WeightedMean Method = "weighted_mean"
)

// Methods lists every aggregation method.
var Methods = []Method{Mean, Median, Min, WeightedMean}

// ParseMethod returns the method named s, exactly spelt.
func ParseMethod(s string) (Method, bool) {
	m := Method(s)
	return m, slices.Contains(Methods, m)
}

// The built-in values a rubric and the configuration fall back to
// (spec §2.4). The shipped config.json carries the same values; a
// test in internal/config keeps them equal.
const (
	DefaultPolicy               = Majority
	DefaultMethod               = WeightedMean
	DefaultScoreThreshold       = 0.75
	DefaultDissentThreshold     = 0.25
	DefaultMinCriterionCoverage = 0.6
	DefaultMaxIterations        = 3
)

// Tolerance absorbs binary floating-point artefacts wherever a computed
// score meets a configured bound: 0.68 − 0.43 is 0.25000000000000006, and
// a dissent "equal" to its threshold must not block. Every such
// comparison in tribunal uses this one value (spec §6.3).
const Tolerance = 1e-9

// AtLeast reports a ≥ b within Tolerance.
func AtLeast(a, b float64) bool { return a >= b-Tolerance }

// Above reports a > b by more than Tolerance.
func Above(a, b float64) bool { return a-b > Tolerance }

// Round rounds a computed score (an aggregate, a disagreement, α, a
// spread) to Tolerance's step before it is recorded or compared: the sums
// and products behind it leave binary noise (0.9000000000000002) far below
// any meaningful digit, which would otherwise reach every record, report
// and JSON output. It divides by the exact integer 1e9, so the result is
// the float nearest the rounded decimal (0.3, not 0.30000000000000004).
func Round(f float64) float64 { return math.Round(f*1e9) / 1e9 }
