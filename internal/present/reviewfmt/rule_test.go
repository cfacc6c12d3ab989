package reviewfmt

import (
	"encoding/json"
	"testing"
)

// TestSARIFRuleOfUncategorisedFinding: a finding that names no criterion
// reports under one fixed rule, whichever judges raised it, and carries
// no empty criterion property.
func TestSARIFRuleOfUncategorisedFinding(t *testing.T) {
	fp := "tf2:00000000000000000000000000000001"
	cases := []struct {
		name     string
		findings []Finding
		rule     string
	}{
		{"one judge", []Finding{{Judge: "security", Severity: "major", File: "a.go", Line: 1, Message: "x", Fingerprint: fp}}, UncategorisedRule},
		{"two judges, one fingerprint", []Finding{
			{Judge: "security", Severity: "major", File: "a.go", Line: 1, Message: "x", Fingerprint: fp},
			{Judge: "standard", Severity: "minor", File: "a.go", Line: 1, Message: "y", Fingerprint: fp}}, UncategorisedRule},
		{"a criterion", []Finding{{Judge: "security", Criterion: "safety", Severity: "major", File: "a.go", Line: 1, Message: "x", Fingerprint: fp}}, "safety"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := SARIF(Review{ID: "r", Outcome: OutcomeRejected, Findings: tc.findings}, "test")
			if err != nil {
				t.Fatal(err)
			}
			var log struct {
				Runs []struct {
					Tool struct {
						Driver struct {
							Rules []struct{ ID string } `json:"rules"`
						} `json:"driver"`
					} `json:"tool"`
					Results []struct {
						RuleID     string         `json:"ruleId"`
						Properties map[string]any `json:"properties"`
					} `json:"results"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(data, &log); err != nil {
				t.Fatal(err)
			}
			run := log.Runs[0]
			if len(run.Results) != 1 || len(run.Tool.Driver.Rules) != 1 {
				t.Fatalf("want one result under one rule, got %d results, %d rules", len(run.Results), len(run.Tool.Driver.Rules))
			}
			res := run.Results[0]
			if res.RuleID != tc.rule || run.Tool.Driver.Rules[0].ID != tc.rule {
				t.Errorf("ruleId %q (rule %q), want %q", res.RuleID, run.Tool.Driver.Rules[0].ID, tc.rule)
			}
			if c, ok := res.Properties["criterion"]; ok && c == "" {
				t.Errorf("empty criterion property: %v", res.Properties)
			}
		})
	}
}
