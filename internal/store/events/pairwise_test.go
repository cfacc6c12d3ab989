package events

import (
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit/schemacheck"
)

// TestPairwiseVerdict: a pairwise comparison is told as a canonical
// tribunal.verdict of the meta seat, valid against the onlooker schema,
// its score the preference for side A and its summary naming both sides.
func TestPairwiseVerdict(t *testing.T) {
	tests := []struct {
		result, iter string
		score        float64
		passed       bool
	}{
		{"a", "", 1, true},
		{"b", testIterID, 0, true},
		{"tie", "", 0.5, false},
	}
	for _, tt := range tests {
		t.Run(tt.result, func(t *testing.T) {
			v := PairwiseVerdict(Pairwise{TaskID: testTaskID, IterationID: tt.iter, JudgeID: testJudgeID, Context: "candidates",
				AID: testIterID, BID: testJudgeID, AFirst: tt.result, BFirst: "tie", Result: tt.result, ModelID: "m"})
			if v.Score != tt.score || v.Passed != tt.passed || v.JudgeType != "meta" || v.IterationID != tt.iter {
				t.Errorf("verdict = %+v", v)
			}
			for _, want := range []string{"a=" + testIterID, "b=" + testJudgeID, "result: " + tt.result} {
				if !strings.Contains(v.FeedbackSummary, want) {
					t.Errorf("summary %q lacks %q", v.FeedbackSummary, want)
				}
			}
			line := emitOne(t, newTestEmitter(t), v)
			if err := schemacheck.ValidateLine([]byte(line)); err != nil {
				t.Errorf("schema rejects %s: %v", line, err)
			}
		})
	}
}
