package events

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/tidwall/gjson"
)

// TestGateVocabularyIsTheSchemas: the gate's words in internal/rules are
// exactly the onlooker schema's enums, so a payload built from them always
// validates and a word the schema lacks cannot be minted.
func TestGateVocabularyIsTheSchemas(t *testing.T) {
	data, err := os.ReadFile("../../testkit/schemacheck/testdata/tribunal-payloads.json")
	if err != nil {
		t.Fatal(err)
	}
	for path, ours := range map[string][]string{
		"$defs.tribunal\\.session\\.start.properties.gate_policy.enum":            gatePolicies,
		"$defs.tribunal\\.consensus\\.reached.properties.aggregation_method.enum": aggregationMethods,
		"$defs.tribunal\\.gate\\.blocked.properties.reason.enum":                  blockReasons,
	} {
		var schema []string
		if err := json.Unmarshal([]byte(gjson.GetBytes(data, path).Raw), &schema); err != nil || len(schema) == 0 {
			t.Fatalf("%s: %v", path, err)
		}
		if !slices.Equal(schema, ours) {
			t.Errorf("%s: schema %v, internal/rules %v", path, schema, ours)
		}
	}
}
