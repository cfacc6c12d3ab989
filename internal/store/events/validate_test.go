package events

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestCheckTagsFitTheirFields: every check tag of every payload (and of
// the structs its lists hold) names a rule Validate knows, for a field of
// a type that rule can read, so no tag is silently ignored. Each field is
// checked on its zero value, pointers included, whatever the payload
// tables happen to set.
func TestCheckTagsFitTheirFields(t *testing.T) {
	var walk func(reflect.Type, string)
	walk = func(typ reflect.Type, where string) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			rule, ok := f.Tag.Lookup("check")
			if !ok {
				continue
			}
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			c := &checker{event: where}
			c.field(f.Name, rule, false, reflect.New(ft).Elem())
			if c.err != nil && (strings.Contains(c.err.Error(), "does not fit") || strings.Contains(c.err.Error(), "malformed")) {
				t.Errorf("%s.%s: %v", where, f.Name, c.err)
			}
			if rule == "each" {
				walk(ft.Elem(), where+"."+f.Name)
			}
		}
	}
	for _, p := range fullPayloads() {
		walk(reflect.TypeOf(p), p.EventType())
	}
}

// misTagged is a payload whose tags Validate cannot apply.
type misTagged struct {
	Count int    `json:"count" check:"unit"`
	Kind  string `json:"kind" check:"enum=no_such_list"`
	Min   int    `json:"min" check:"min=one"`
}

func (misTagged) EventType() string { return "tribunal.test.mistagged" }

// TestValidateRefusesTagsItCannotApply: a tag that does not fit its field
// refuses the event rather than letting any value through.
func TestValidateRefusesTagsItCannotApply(t *testing.T) {
	for _, p := range []Payload{misTagged{}, &misTagged{}} {
		err := Validate(p)
		if err == nil || !strings.Contains(err.Error(), `count has check "unit", which does not fit its int type`) {
			t.Errorf("Validate(%T) = %v", p, err)
		}
	}
	for field, p := range map[string]any{
		"kind": struct {
			Kind string `json:"kind" check:"enum=no_such_list"`
		}{},
		"min": struct {
			Min int `json:"min" check:"min=one"`
		}{},
	} {
		c := &checker{event: "x"}
		c.fields("", reflect.ValueOf(p))
		if c.err == nil || !strings.Contains(c.err.Error(), field) {
			t.Errorf("%s: %v", field, c.err)
		}
	}
	if err := Validate(nil); err == nil {
		t.Error("Validate(nil) accepted")
	}
}

// schemaProp is the part of a schema property that decides its check.
type schemaProp struct {
	Type                 string          `json:"type"`
	Enum                 []string        `json:"enum"`
	Minimum              *float64        `json:"minimum"`
	Maximum              *float64        `json:"maximum"`
	Items                *schemaProp     `json:"items"`
	AdditionalProperties json.RawMessage `json:"additionalProperties"`
	Required             []string        `json:"required"`
	Properties           map[string]schemaProp
}

// wantCheck is the check tag the schema calls for: its enums, ranges and
// minimums, and "id" for a required *_id string (Validate's one addition).
func wantCheck(name string, p schemaProp, required bool) string {
	if p.Items != nil && p.Type == "array" {
		if p.Items.Type == "object" {
			return "each"
		}
		p = *p.Items
	}
	if p.Type == "object" && len(p.AdditionalProperties) > 0 {
		var values schemaProp
		if json.Unmarshal(p.AdditionalProperties, &values) == nil {
			p = values
		}
	}
	switch {
	case len(p.Enum) > 0:
		return "enum"
	case p.Type == "number" && p.Minimum != nil && *p.Minimum == 0 && p.Maximum != nil && *p.Maximum == 1:
		return "unit"
	case p.Type == "number" && p.Minimum != nil && *p.Minimum == 0:
		return "nonneg"
	case p.Type == "integer" && p.Minimum != nil:
		return fmt.Sprintf("min=%v", *p.Minimum)
	case p.Type == "string" && required && strings.HasSuffix(name, "_id"):
		return "id"
	}
	return ""
}

// TestCheckTagsMatchTheSchema derives each field's rule from
// tribunal-payloads.json and compares it with the field's check tag, so
// the declarations cannot drift from the schema: a new enum, range or
// required id without its tag fails here, and so does an enum tag whose
// list is not the schema's.
func TestCheckTagsMatchTheSchema(t *testing.T) {
	raw, err := os.ReadFile("../../testkit/schemacheck/testdata/tribunal-payloads.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs map[string]schemaProp `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var compare func(where string, typ reflect.Type, def schemaProp)
	compare = func(where string, typ reflect.Type, def schemaProp) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			prop, ok := def.Properties[name]
			if !ok {
				t.Errorf("%s.%s: no schema property %q", where, f.Name, name)
				continue
			}
			got := f.Tag.Get("check")
			kind, list, _ := strings.Cut(got, "=")
			want := wantCheck(name, prop, slices.Contains(def.Required, name))
			if want == "enum" {
				got = kind
				schema := prop.Enum
				if prop.Items != nil {
					schema = prop.Items.Enum
				}
				if ours := enums[list]; !slices.Equal(slices.Sorted(slices.Values(ours)), slices.Sorted(slices.Values(schema))) {
					t.Errorf("%s.%s: enums[%q] is %q, the schema's %q", where, f.Name, list, ours, schema)
				}
			}
			if got != want {
				t.Errorf("%s.%s: check %q, the schema calls for %q", where, f.Name, f.Tag.Get("check"), want)
			}
			if want == "each" {
				elem := f.Type.Elem()
				compare(where+"."+name+"[]", elem, *prop.Items)
			}
		}
	}
	for _, p := range fullPayloads() {
		def, ok := doc.Defs[p.EventType()]
		if !ok {
			t.Fatalf("no $defs entry for %q", p.EventType())
		}
		compare(p.EventType(), reflect.TypeOf(p), def)
	}
}
