package rubric

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseTOMLRubric feeds arbitrary bytes to the TOML overlay loader.
// Besides not panicking, every rubric it loads must carry a non-empty id,
// its origin, and a Raw that is a valid JSON object, and must survive
// Validate.
func FuzzParseTOMLRubric(f *testing.F) {
	f.Add([]byte("[[rubrics]]\nid = \"a\"\n[[rubrics.criteria]]\nname = \"x\"\nweight = 1.0\nmin_pass = 0.5\n"))
	f.Add([]byte("[[rubrics]]\nid = \"a\"\nscore_threshold = nan\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "fuzz.toml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s := LoadSet(LoadOptions{UserTOML: path})
		for _, r := range s.All() {
			if r.ID == "" || r.Origin != path {
				t.Fatalf("rubric without id or origin accepted: %+v", r)
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
