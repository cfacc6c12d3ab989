package events

import (
	"reflect"
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
