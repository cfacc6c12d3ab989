package config

import (
	"bytes"
	"strings"
	"testing"
)

func mustParse(t *testing.T, s, src string) *node {
	t.Helper()
	n, err := parseNode([]byte(s), src)
	if err != nil {
		t.Fatalf("parse %s: %v", s, err)
	}
	return n
}

func render(n *node) string {
	var buf bytes.Buffer
	n.appendJSON(&buf)
	return buf.String()
}

// TestMerge transcribes the deep-merge rules of spec §2.2 rule 3.
func TestMerge(t *testing.T) {
	tests := []struct {
		name, base, overlay, want string
	}{
		{"objects merge key by key", `{"a":{"x":1}}`, `{"a":{"y":2}}`, `{"a":{"x":1,"y":2}}`},
		{"recursively", `{"a":{"b":{"x":1,"y":1}}}`, `{"a":{"b":{"y":2}}}`, `{"a":{"b":{"x":1,"y":2}}}`},
		{"null keeps the base", `{"a":1}`, `{"a":null}`, `{"a":1}`},
		{"null keeps a base object", `{"a":{"x":1}}`, `{"a":null}`, `{"a":{"x":1}}`},
		{"absent keeps the base", `{"a":1,"b":2}`, `{"b":3}`, `{"a":1,"b":3}`},
		{"null over absent adds nothing", `{}`, `{"a":null}`, `{}`},
		{"nested null keeps, sibling applies", `{"a":{"b":1}}`, `{"a":{"b":null,"c":2}}`, `{"a":{"b":1,"c":2}}`},
		{"arrays replace, never concatenate", `{"a":["standard","adversarial"]}`, `{"a":["security"]}`, `{"a":["security"]}`},
		{"empty array replaces", `{"a":[1]}`, `{"a":[]}`, `{"a":[]}`},
		{"false survives", `{"a":true}`, `{"a":false}`, `{"a":false}`},
		{"0 survives", `{"a":0.75}`, `{"a":0}`, `{"a":0}`},
		{"empty string survives", `{"a":"x"}`, `{"a":""}`, `{"a":""}`},
		{"object over scalar", `{"a":1}`, `{"a":{"b":2}}`, `{"a":{"b":2}}`},
		{"scalar over object", `{"a":{"b":2}}`, `{"a":1}`, `{"a":1}`},
		{"array over object", `{"a":{"b":2}}`, `{"a":[1]}`, `{"a":[1]}`},
		{"object over array", `{"a":[1]}`, `{"a":{"b":2}}`, `{"a":{"b":2}}`},
		{"new keys appended in order", `{"b":1,"a":2}`, `{"c":3,"a":4}`, `{"b":1,"a":4,"c":3}`},
		{"numbers pass through verbatim", `{"a":1}`, `{"a":1.50e0}`, `{"a":1.50e0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(merge(mustParse(t, tt.base, "a"), mustParse(t, tt.overlay, "b")))
			if got != tt.want {
				t.Errorf("merge(%s, %s) = %s, want %s", tt.base, tt.overlay, got, tt.want)
			}
		})
	}
}

func TestMergeTracksSource(t *testing.T) {
	m := merge(mustParse(t, `{"a":{"x":1,"y":1}}`, "base"), mustParse(t, `{"a":{"y":2}}`, "over"))
	if m.at("a", "x").src != "base" || m.at("a", "y").src != "over" {
		t.Errorf("sources: x from %q, y from %q", m.at("a", "x").src, m.at("a", "y").src)
	}
}

func TestParseNodeDuplicateKeys(t *testing.T) {
	// encoding/json semantics: the last value wins.
	if got := render(mustParse(t, `{"a":1,"b":2,"a":3}`, "f")); got != `{"a":3,"b":2}` {
		t.Errorf("got %s", got)
	}
}

func TestParseNodeKeepsStringsExact(t *testing.T) {
	in := `{"k<&>":"v\u003c\n","arr":[ 1 , "x" ]}`
	if got := render(mustParse(t, in, "f")); got != `{"k\u003c\u0026\u003e":"v\u003c\n","arr":[1,"x"]}` {
		t.Errorf("got %s", got)
	}
}

func TestCheckJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":1}`, ""},
		{"{\n  \"a\": 1,\n}", "invalid JSON at line 3, column 1"},
		{`{"a" 1}`, "invalid JSON at line 1, column 6"},
		{``, "invalid JSON at line 1, column 1: unexpected end of JSON input"},
		{`{} {}`, "invalid JSON at line 1, column 4"},
	}
	for _, tt := range tests {
		got := checkJSON([]byte(tt.in))
		if (tt.want == "") != (got == "") || !strings.HasPrefix(got, tt.want) {
			t.Errorf("checkJSON(%q) = %q, want prefix %q", tt.in, got, tt.want)
		}
	}
}
