package report

import (
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// TestRefutedFindingMarked: a finding the verification step refuted
// (spec §6.8) is listed with the others and says it did not count.
func TestRefutedFindingMarked(t *testing.T) {
	g := &records.Gate{}
	g.Findings = []severity.Finding{
		{Severity: "critical", Message: "SQL injection", File: "db.go", Line: 12, Verification: severity.Refuted},
		{Severity: "minor", Message: "naming", Verification: ""},
	}
	p := buildIteration(history.IterationView{Gate: g}, nil)
	if len(p.Findings) != 2 || p.Findings[0].Message != "SQL injection — refuted by verification, not counted" || p.Findings[1].Message != "naming" {
		t.Errorf("findings %+v", p.Findings)
	}
	if !strings.Contains(p.Findings[0].Where, "db.go:12") {
		t.Errorf("where %q", p.Findings[0].Where)
	}
}
