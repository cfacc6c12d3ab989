package events

import (
	"bytes"
	"encoding/json"
)

// Payload is one of the 14 typed tribunal.* payloads. Validate reports the
// first way the value would fail tribunal-payloads.json, so Emit can refuse
// an event instead of writing a line that every Onlooker consumer rejects.
// It is slightly stricter than the schema in one respect: a required id
// (task_id, iteration_id, judge_id) must not be empty.
type Payload interface {
	EventType() string
	Validate() error
}

// Ptr returns a pointer to v. Optional numeric and boolean payload fields are
// pointers so that a legitimate zero (final_score 0, iteration_number 0) is
// still emitted, while an unset field is omitted rather than written as null.
func Ptr[T any](v T) *T { return &v }

// marshalCompact encodes v without HTML escaping. Payload MarshalJSON methods
// must use it: the outer encoder compacts but never un-escapes what an inner
// json.Marshal already turned into \u003c.
func marshalCompact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
