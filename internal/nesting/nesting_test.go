package nesting

import (
	"errors"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func deep(open string, n int) string { return strings.Repeat(open, n) }

func TestJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		deep bool
	}{
		{"empty", "", false},
		{"scalar", `"x"`, false},
		{"exactly Max", deep("[", Max) + deep("]", Max), false},
		{"Max plus one", deep("[", Max+1) + deep("]", Max+1), true},
		{"objects count", deep(`{"a":`, Max+1), true},
		{"unclosed flood", deep("[", 12<<20), true},
		{"siblings do not add up", strings.Repeat("[[]],", 5*Max), false},
		{"brackets in strings do not count", `["` + deep("[", 2*Max) + `"]`, false},
		{"an escaped quote does not end the string", `["\"` + deep("[", 2*Max) + `"]`, false},
		{"an escaped backslash does end it", `["\\"` + deep("[", Max+1), true},
		{"stray closers never go negative", deep("]", 50) + deep("[", Max) + deep("]", Max), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := JSON([]byte(tc.in))
			if (err != nil) != tc.deep {
				t.Fatalf("JSON() = %v, want too deep: %v", err, tc.deep)
			}
			if err != nil && !errors.Is(err, ErrTooDeep) {
				t.Fatalf("error %v does not wrap ErrTooDeep", err)
			}
		})
	}
}

func TestTOML(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		deep bool
	}{
		{"tables", "[a]\nx = 1\n[[b.c]]\ny = [1, [2, {z = 3}]]\n", false},
		{"exactly Max", "a = " + deep("[", Max) + deep("]", Max), false},
		{"Max plus one", "a = " + deep("[", Max+1) + deep("]", Max+1), true},
		{"inline tables count", "a = " + deep("{b = ", Max+1), true},
		{"comment", "# " + deep("[", 2*Max) + "\na = 1", false},
		{"comment ends at the line", "# x\na = " + deep("[", Max+1), true},
		{"basic string", `a = "` + deep("[", 2*Max) + `"`, false},
		{"basic string escapes", `a = "\"` + deep("[", 2*Max) + `"`, false},
		{"basic string ends at the line", "a = \"x\n" + deep("[", Max+1), true},
		{"literal string", "a = '" + deep("[", 2*Max) + "'", false},
		{"literal string has no escapes", `a = '\'` + deep("[", Max+1), true},
		{"multi-line basic", "a = \"\"\"\n\"" + deep("[", 2*Max) + "\n\"\"\"", false},
		{"multi-line literal", "a = '''\n'" + deep("[", 2*Max) + "\n'''", false},
		{"quotes before the closing three", `a = """x""""` + "\nb = " + deep("[", Max+1), true},
		{"unclosed flood", deep("[", 12<<20), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := TOML([]byte(tc.in))
			if (err != nil) != tc.deep {
				t.Fatalf("TOML() = %v, want too deep: %v", err, tc.deep)
			}
		})
	}
}

// TestTOMLAgreesWithTheParser checks the scanner's idea of a string against
// the TOML parser's on documents where the two could disagree.
func TestTOMLAgreesWithTheParser(t *testing.T) {
	for _, doc := range []string{
		`a = """x"""""` + "\nb = [[1]]",
		`a = '''x'''''` + "\nb = [[1]]",
		"a = \"\"\"\\\"\"\"\"\nb = [[1]]",
		`"k[" = 1` + "\nb = [[1]]",
	} {
		var v map[string]any
		if _, err := toml.Decode(doc, &v); err != nil {
			t.Fatalf("%q is not TOML: %v", doc, err)
		}
		if v["b"] == nil {
			t.Fatalf("%q: the parser did not see b", doc)
		}
		if err := TOML([]byte(doc)); err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
	}
}

func TestPosition(t *testing.T) {
	err := JSON([]byte("\n  " + deep("[", Max+1)))
	if err == nil || !strings.Contains(err.Error(), "line 2, column 1003") {
		t.Fatalf("got %v", err)
	}
}

// TestFlood: a flood inside one string is one level, not millions.
func TestFlood(t *testing.T) {
	if err := JSON([]byte(`"` + strings.Repeat("[", 12<<20) + `"`)); err != nil {
		t.Fatal(err)
	}
}
