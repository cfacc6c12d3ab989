package prompts

import (
	"github.com/tribunal-cc/tribunal/internal/severity"

	"encoding/json"
)

// biasTypes are the six bias names the Meta-Judge may report (spec §4.6), in the
// contract's order.
var biasTypes = []string{"position", "verbosity", "self_enhancement", "sycophancy", "refusal", "length"}

// member and object give schemas a fixed, readable key order ("type" first),
// which encoding/json's sorted map keys would not, so that golden files and
// the text the model sees are stable and easy to review.
type member struct {
	key string
	val any
}

type object []member

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) { return o.appendTo(nil) }

// appendTo writes o after b. A nested object is written in place, not
// through json.Marshal: encoding/json checks and compacts a Marshaler's
// output again at every level, which made a schema's cost grow with its
// depth (a cached review builds two schemas for its key). The bytes are
// the same: every key and leaf value still goes through json.Marshal.
func (o object) appendTo(b []byte) ([]byte, error) {
	b = append(b, '{')
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		b = append(append(b, k...), ':')
		if nested, ok := m.val.(object); ok {
			if b, err = nested.appendTo(b); err != nil {
				return nil, err
			}
			continue
		}
		v, err := json.Marshal(m.val)
		if err != nil {
			return nil, err
		}
		b = append(b, v...)
	}
	return append(b, '}'), nil
}

// mustJSON encodes schema literals built in this file. They hold only
// strings, numbers, booleans, slices and objects, so encoding cannot fail;
// a failure would be a programming error.
func mustJSON(v any) string {
	out, err := json.Marshal(v)
	if err != nil {
		panic("prompts: encode schema: " + err.Error())
	}
	return string(out)
}

func unitNumber(description string) object {
	o := object{{"type", "number"}, {"minimum", 0}, {"maximum", 1}}
	if description != "" {
		o = append(o, member{"description", description})
	}
	return o
}

func stringEnum(values ...string) object {
	return object{{"type", "string"}, {"enum", values}}
}

// VerdictSchema returns the JSON Schema (compact JSON) that a loop judge's
// structured output must satisfy. The properties of criterion_scores are
// exactly the given rubric criterion names and nothing else, but none is
// required individually: an omitted criterion means "not assessed" (spec §4.1),
// which the aggregation and the gate treat differently from a 0. Empty and
// repeated names are skipped, since a JSON object can hold a key only once.
func VerdictSchema(criteria []string) string {
	props := object{}
	seen := map[string]bool{}
	for _, name := range criteria {
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		props = append(props, member{name, unitNumber("")})
	}
	schema := object{
		{"type", "object"},
		{"properties", object{
			{"score", unitNumber("Your overall score.")},
			{"passed", object{{"type", "boolean"}, {"description", "Your own call against the rubric and the score threshold."}}},
			{"judge_type", object{{"type", "string"}, {"description", "Optional; the orchestrator replaces it with your seat's type."}}},
			{"criteria_evaluated", object{{"type", "array"}, {"items", object{{"type", "string"}}}, {"description", "The lenses you applied, not the rubric names."}}},
			{"criterion_scores", object{
				{"type", "object"},
				{"properties", props},
				{"additionalProperties", false},
				{"description", "Keyed by the rubric's criterion names only. 0 means assessed and failed; omit a criterion only when you could not assess it."},
			}},
			{"strengths_count", object{{"type", "integer"}, {"minimum", 0}}},
			{"weaknesses_count", object{{"type", "integer"}, {"minimum", 0}}},
			{"confidence", unitNumber("How sure you are of this verdict.")},
			{"feedback_summary", object{{"type", "string"}, {"description", "1-3 sentences, highest-leverage issue first, with file:line references."}}},
			{"findings", severity.FindingsSchema()},
		}},
		{"required", []string{"score", "passed", "criterion_scores", "confidence", "feedback_summary"}},
		{"additionalProperties", false},
	}
	return mustJSON(schema)
}

// StopVerdictSchema returns the JSON Schema (compact JSON) of the Stop
// hook's five-key advisory verdict (spec §8.4).
func StopVerdictSchema() string {
	schema := object{
		{"type", "object"},
		{"properties", object{
			{"score", unitNumber("")},
			{"passed", object{{"type", "boolean"}}},
			{"judge_type", stringEnum("standard")},
			{"feedback_summary", object{{"type", "string"}, {"description", "1-3 sentences naming the highest-leverage concern, if any."}}},
			{"confidence", unitNumber("")},
		}},
		{"required", []string{"score", "passed", "judge_type", "feedback_summary", "confidence"}},
		{"additionalProperties", false},
	}
	return mustJSON(schema)
}

// MetaSchema returns the JSON Schema (compact JSON) of the Meta-Judge's
// structured output (spec §4.6). override_recommendation is optional on purpose:
// absent is the normal answer when the jury can stand.
func MetaSchema() string {
	schema := object{
		{"type", "object"},
		{"properties", object{
			{"verdict_quality", stringEnum("sound", "questionable", "biased")},
			{"bias_detected", object{{"type", "boolean"}}},
			{"bias_types", object{{"type", "array"}, {"items", stringEnum(biasTypes...)}, {"uniqueItems", true}}},
			{"confidence", unitNumber("Your confidence in this review.")},
			{"override_recommendation", object{
				{"type", "string"},
				{"enum", []string{"accept", "reject", "re-evaluate"}},
				{"description", "Omit unless you are confident the gate should defer to you rather than to the jury."},
			}},
		}},
		{"required", []string{"verdict_quality", "bias_detected"}},
		{"additionalProperties", false},
	}
	return mustJSON(schema)
}
