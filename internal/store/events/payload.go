package events

import (
	"bytes"
	"encoding/json"
)

// Payload is one of the 14 typed tribunal.* payloads: a struct whose json
// tags give its shape and whose check tags give the rules Validate holds it
// to, one declaration per field instead of a hand-written method per type.
type Payload interface {
	EventType() string
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
