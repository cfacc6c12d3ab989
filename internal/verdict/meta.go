package verdict

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Override recommendations a meta-judge may make (spec §4.6). The empty string
// means unset.
const (
	OverrideAccept     = "accept"
	OverrideReject     = "reject"
	OverrideReEvaluate = "re-evaluate"
)

// Verdict qualities a meta-judge may report.
const (
	QualitySound        = "sound"
	QualityQuestionable = "questionable"
	QualityBiased       = "biased"
)

// BiasTypes is the spec §4.6 bias taxonomy, in the spec's order.
var BiasTypes = []string{"position", "verbosity", "self_enhancement", "sycophancy", "refusal", "length"}

var qualities = []string{QualitySound, QualityQuestionable, QualityBiased}

// Meta is the normalised meta-judge verdict. The gate reads only
// BiasDetected and Override; the rest feeds the retry digest and summary.
// The zero value is "no meta verdict": no bias, no override.
type Meta struct {
	VerdictQuality string
	BiasDetected   bool
	// BiasTypes holds only taxonomy values; nil means the field is omitted.
	BiasTypes []string
	// Confidence is kept only when it is a number in [0,1].
	Confidence *float64
	// Override is "", OverrideAccept, OverrideReject or OverrideReEvaluate.
	Override string

	// Failed marks the meta failure default (spec §4.6 step 1), with the reason.
	Failed bool
	Error  string

	// Skipped marks a round that went without the meta-judge (spec §4.6
	// Skipping), SkipDetail saying why. A skipped Meta has no quality —
	// never "sound" — and, like the zero value, no bias and no override.
	Skipped    bool
	SkipDetail string
}

// SkipUnanimous is the reason a meta-judge is skipped: the jury agreed
// and every judge was confident (spec §4.6 Skipping).
const SkipUnanimous = "unanimous_confident"

// SkippedMeta is the Meta of a round whose meta-judge was not called.
func SkippedMeta(detail string) Meta {
	return Meta{Skipped: true, SkipDetail: detail}
}

// FailedMeta returns the meta failure default {questionable, no bias, no
// override}, which makes the gate fall back to score-based logic.
func FailedMeta(reason string) Meta {
	return Meta{VerdictQuality: QualityQuestionable, Failed: true, Error: reason}
}

// NormaliseMeta converts a meta-judge's raw final message into a Meta
// (spec §4.6). Unparseable output, a verdict_quality outside its enum or a
// bias_detected that is not a JSON boolean give the failure default; the
// string "true" in particular is not bias. Warnings are for the caller.
func NormaliseMeta(text string) (Meta, []string) {
	obj, err := ParseOutput(text)
	if err != nil {
		return FailedMeta("meta-judge " + err.Error()), nil
	}
	return normaliseMeta(obj, "meta-judge", true)
}

// normaliseMeta is spec §4.6 on a meta verdict's members, the one copy of it
// that the loop (through NormaliseMeta) and decide (through MetaFromJSON)
// share, so that the same verdict can never gate differently in run,
// decide and replay. who names the verdict's origin in failure reasons.
//
// The loop holds the meta-judge to its schema (strict): verdict_quality and
// bias_detected must both be there. decide's input need not carry what the
// gate does not read (spec §6.7): there an absent or null verdict_quality is
// unknown and an absent or null bias_detected is false. A value that is
// present but wrong fails the same way in both.
func normaliseMeta(obj map[string]json.RawMessage, who string, strict bool) (Meta, []string) {
	unset := func(key string) bool { raw, ok := obj[key]; return !strict && (!ok || isNull(raw)) }
	quality, _ := asString(obj["verdict_quality"])
	if !slices.Contains(qualities, quality) && !unset("verdict_quality") {
		return FailedMeta(fmt.Sprintf("%s verdict_quality is %s, not sound, questionable or biased",
			who, describe(obj["verdict_quality"]))), nil
	}
	if !isBool(obj["bias_detected"]) && !unset("bias_detected") {
		return FailedMeta(fmt.Sprintf("%s bias_detected is %s, not a JSON boolean",
			who, describe(obj["bias_detected"]))), nil
	}
	m := Meta{VerdictQuality: quality, BiasDetected: isTrue(obj["bias_detected"])}
	warnings := m.readOptional(obj)
	return m, warnings
}

// MetaFromJSON reads a meta verdict given as JSON: the decide command's
// "meta" input, or a meta.json file replayed through decide. Absent, null
// or {} mean no meta verdict. Any other object is normalised as the loop
// normalises the meta-judge's output (spec §4.6), the failure default
// included, except that it may leave out the fields the gate does not
// need, as the reference's own gate inputs do: without verdict_quality
// the quality is unknown (""), without bias_detected there is no bias, and
// a valid override applies either way. A failure default comes with a
// warning saying why. A value that is not an object is an error.
func MetaFromJSON(obj json.RawMessage) (Meta, []string, error) {
	if len(obj) == 0 || isNull(obj) {
		return Meta{}, nil, nil
	}
	if !json.Valid(obj) {
		return Meta{}, nil, errors.New("meta is not valid JSON")
	}
	m, ok := asObject(obj)
	if !ok {
		return Meta{}, nil, fmt.Errorf("meta is a JSON %s, not an object", Kind(obj))
	}
	if len(m) == 0 {
		return Meta{}, nil, nil
	}
	if isTrue(m["skipped"]) {
		// A round that went without the meta-judge (spec §4.6
		// Skipping): no quality to check, no bias, no override.
		reason, _ := asString(m["skip_reason"])
		return SkippedMeta(reason), nil, nil
	}
	meta, warnings := normaliseMeta(m, "meta", false)
	if meta.Failed {
		warnings = append(warnings, "tribunal-meta: "+meta.Error+"; using the failure default (questionable, no bias, no override)")
	}
	return meta, warnings, nil
}

// readOptional applies spec §4.6 steps 2–4 to the optional fields.
func (m *Meta) readOptional(obj map[string]json.RawMessage) []string {
	var warnings []string
	if raw, present := obj["override_recommendation"]; present {
		s, _ := asString(raw)
		switch s {
		case OverrideAccept, OverrideReject, OverrideReEvaluate:
			m.Override = s
		default:
			warnings = append(warnings, fmt.Sprintf(
				"tribunal-meta: ignoring override_recommendation %s (expected accept, reject or re-evaluate); treating it as unset",
				brief(raw)))
		}
	}
	if types, ok := asStrings(obj["bias_types"]); ok {
		m.BiasTypes = slices.DeleteFunc(types, func(t string) bool { return !slices.Contains(BiasTypes, t) })
	}
	m.Confidence, _ = asUnit(obj["confidence"])
	return warnings
}

// describe renders a possibly absent raw value for a failure reason.
func describe(raw json.RawMessage) string {
	if raw == nil {
		return "missing"
	}
	return brief(raw)
}
