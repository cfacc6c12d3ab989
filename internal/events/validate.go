package events

import (
	"fmt"
	"math"
	"slices"

	"github.com/tribunal-cc/tribunal/internal/rules"
)

// The enums below are transcribed from tribunal-payloads.json (the gate's
// words from internal/rules, which must list the same ones); Validate
// checks against them so a payload the schema would reject is refused
// before it reaches the shared log.
var (
	judgeTypes         = []string{"standard", "security", "maintainability", "adversarial", "domain", "meta"}
	gatePolicies       = names(rules.Policies)
	outcomes           = []string{"accepted", "rejected", "exhausted_iterations", "aborted"}
	triggers           = []string{"initial", "gate_blocked", "appeal"}
	artifactKinds      = []string{"file", "patch", "message", "command"}
	verdictQualities   = []string{"sound", "questionable", "biased"}
	overrides          = []string{"accept", "reject", "re-evaluate"}
	biasTypes          = []string{"position", "verbosity", "self_enhancement", "sycophancy", "refusal", "length"}
	aggregationMethods = names(rules.Methods)
	blockReasons       = names(rules.Reasons)
)

// names turns a list of the gate vocabulary's words into strings; the
// schema's enums and internal/rules list the same words (a test checks).
func names[T ~string](words []T) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = string(w)
	}
	return out
}

// checker accumulates the first violation so each Validate reads as a flat
// list of rules instead of a ladder of if-err-return blocks.
type checker struct {
	event string
	err   error
}

func newChecker(event string) *checker { return &checker{event: event} }

func (c *checker) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("invalid %s payload: "+format, append([]any{c.event}, args...)...)
	}
}

func (c *checker) required(field, v string) {
	if v == "" {
		c.fail("%s is required", field)
	}
}

func (c *checker) enum(field, v string, allowed []string) {
	if !slices.Contains(allowed, v) {
		c.fail("%s %q is not one of %q", field, v, allowed)
	}
}

// optEnum checks an optional enum string; empty means omitted.
func (c *checker) optEnum(field, v string, allowed []string) {
	if v != "" {
		c.enum(field, v, allowed)
	}
}

func (c *checker) enumEach(field string, vs []string, allowed []string) {
	for i, v := range vs {
		c.enum(fmt.Sprintf("%s[%d]", field, i), v, allowed)
	}
}

// unit checks a score-like number; the negated comparison also rejects NaN.
func (c *checker) unit(field string, v float64) {
	if !(v >= 0 && v <= 1) {
		c.fail("%s %v is outside [0,1]", field, v)
	}
}

func (c *checker) optUnit(field string, v *float64) {
	if v != nil {
		c.unit(field, *v)
	}
}

func (c *checker) optNonNegFloat(field string, v *float64) {
	if v != nil && !(*v >= 0 && !math.IsInf(*v, 1)) {
		c.fail("%s %v must be a finite number >= 0", field, *v)
	}
}

func (c *checker) min(field string, v, lo int) {
	if v < lo {
		c.fail("%s %d is below the minimum %d", field, v, lo)
	}
}

func (c *checker) optMin(field string, v *int, lo int) {
	if v != nil {
		c.min(field, *v, lo)
	}
}

// sortedKeys makes map validation report the same first error every run.
func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
