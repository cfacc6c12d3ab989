package rubric

import (
	"encoding/json"
	"testing"
)

// FuzzParseTOMLRubric feeds arbitrary bytes to the TOML overlay decoder.
// Besides not panicking, every rubric it accepts must carry a non-empty id
// and a Raw that is a valid JSON object, and must survive Validate.
func FuzzParseTOMLRubric(f *testing.F) {
	f.Add([]byte("[[rubrics]]\nid = \"a\"\n[[rubrics.criteria]]\nname = \"x\"\nweight = 1.0\nmin_pass = 0.5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rubrics, err := parseTOML(data, "fuzz.toml", func(string) {})
		if err != nil {
			if rubrics != nil {
				t.Fatal("rubrics returned with an error")
			}
			return
		}
		for _, r := range rubrics {
			if r.ID == "" {
				t.Fatalf("rubric without id accepted: %s", r.Raw)
			}
			if !json.Valid(r.Raw) || r.Raw[0] != '{' {
				t.Fatalf("Raw is not a JSON object: %q", r.Raw)
			}
			again, err := Parse(r.Raw)
			if err != nil || again.ID != r.ID {
				t.Fatalf("Raw does not round-trip: %v", err)
			}
			_ = Validate(&r)
		}
	})
}
