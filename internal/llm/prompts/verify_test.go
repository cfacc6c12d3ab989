package prompts

import (
	"testing"

	"github.com/tribunal-cc/tribunal/internal/severity"
)

func TestVerifyPrompt(t *testing.T) {
	golden(t, "verify", VerifyPrompt(VerifyInput{
		Task:      "make Clamp limit v to max",
		Finding:   severity.Finding{Severity: "blocker", Message: "Clamp never limits v", File: "lim.go", Line: 5, Criterion: "correctness", Judge: "adversarial"},
		Code:      "4: func Clamp(v, max int) int {\n5: \tif v > max {\n6: \t\treturn max\n7: \t}\n",
		CodeLabel: "lim.go, lines 4-7",
	}))
	golden(t, "schema_verify", VerifySchema())
}
