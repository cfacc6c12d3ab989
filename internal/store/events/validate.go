package events

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

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
	// The tune additions (payloads_tune.go).
	tuneOutcomes = []string{"ship", "hold", "need-more-data", "invalid", "aborted"}
	tuneGates    = []string{"delta", "pareto"}
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

// enums names the lists a `check:"enum=NAME"` tag refers to.
var enums = map[string][]string{
	"judge_type":         judgeTypes,
	"gate_policy":        gatePolicies,
	"outcome":            outcomes,
	"trigger":            triggers,
	"artifact_kind":      artifactKinds,
	"verdict_quality":    verdictQualities,
	"override":           overrides,
	"bias_type":          biasTypes,
	"aggregation_method": aggregationMethods,
	"reason":             blockReasons,
	"tune_outcome":       tuneOutcomes,
	"tune_gate":          tuneGates,
}

// Validate reports the first way p would fail tribunal-payloads.json, so
// Emit can refuse an event instead of writing a line that every Onlooker
// consumer rejects. The rules are the payload structs' `check` tags, read
// in field order (the first violation is the first field's):
//
//	id        a required id: a non-empty string (the schema only asks for
//	          a string; an empty id would name nothing)
//	enum=L    one of the words of enums[L]; an omitempty field may be
//	          empty (omitted), a list checks each element
//	unit      a number in [0,1]; a map checks each value, in key order
//	min=N     an integer >= N
//	nonneg    a finite number >= 0
//	each      a list of structs, each checked by its own tags
//
// A pointer field that is nil is omitted and passes.
func Validate(p Payload) error {
	if p == nil {
		return errors.New("invalid payload: nil")
	}
	c := &checker{event: p.EventType()}
	v := reflect.Indirect(reflect.ValueOf(p))
	if v.Kind() != reflect.Struct {
		c.fail("%T is not a payload struct", p)
		return c.err
	}
	c.fields("", v)
	return c.err
}

// checker accumulates the first violation.
type checker struct {
	event string
	err   error
}

func (c *checker) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("invalid %s payload: "+format, append([]any{c.event}, args...)...)
	}
}

// fields checks each tagged field of the struct v; prefix names its
// position inside the payload ("judges[1].").
func (c *checker) fields(prefix string, v reflect.Value) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		rule, ok := f.Tag.Lookup("check")
		if !ok {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		c.field(prefix+name, rule, strings.Contains(opts, "omitempty"), v.Field(i))
	}
}

// field applies one rule (see Validate) to the value of the field name.
func (c *checker) field(name, rule string, omitempty bool, v reflect.Value) {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	kind, arg, _ := strings.Cut(rule, "=")
	switch {
	case kind == "id" && v.Kind() == reflect.String:
		if v.String() == "" {
			c.fail("%s is required", name)
		}
	case kind == "enum" && enums[arg] != nil && v.Kind() == reflect.String:
		if !omitempty || v.String() != "" {
			c.enum(name, v.String(), enums[arg])
		}
	case kind == "enum" && enums[arg] != nil && v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.String:
		for i := range v.Len() {
			c.enum(fmt.Sprintf("%s[%d]", name, i), v.Index(i).String(), enums[arg])
		}
	case kind == "unit" && v.Kind() == reflect.Float64:
		c.unit(name, v.Float())
	case kind == "unit" && v.Kind() == reflect.Map && v.Type().Elem().Kind() == reflect.Float64:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			c.unit(fmt.Sprintf("%s[%q]", name, k.String()), v.MapIndex(k).Float())
		}
	case kind == "min" && v.Kind() == reflect.Int:
		if lo, err := strconv.Atoi(arg); err != nil {
			c.fail("%s has a malformed check %q", name, rule)
		} else if v.Int() < int64(lo) {
			c.fail("%s %d is below the minimum %d", name, v.Int(), lo)
		}
	case kind == "nonneg" && v.Kind() == reflect.Float64:
		if f := v.Float(); !(f >= 0 && !math.IsInf(f, 1)) {
			c.fail("%s %v must be a finite number >= 0", name, f)
		}
	case kind == "each" && v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Struct:
		for i := range v.Len() {
			c.fields(fmt.Sprintf("%s[%d].", name, i), v.Index(i))
		}
	default:
		// A tag this function does not understand would let anything
		// through; refusing the event makes the mistake loud.
		c.fail("%s has check %q, which does not fit its %s type", name, rule, v.Type())
	}
}

func (c *checker) enum(field, v string, allowed []string) {
	if !slices.Contains(allowed, v) {
		c.fail("%s %q is not one of %q", field, v, allowed)
	}
}

// unit checks a score-like number; the negated comparison also rejects NaN.
func (c *checker) unit(field string, v float64) {
	if !(v >= 0 && v <= 1) {
		c.fail("%s %v is outside [0,1]", field, v)
	}
}
