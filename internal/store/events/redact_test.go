package events

import (
	"os"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/redact"
)

// TestEmitRedacts: feedback or an error that quotes an API key reached
// the events log verbatim (issue 18 item 5).
func TestEmitRedacts(t *testing.T) {
	const key = "sk-secret-0123456789"
	e := newTestEmitter(t)
	e.Redact = redact.New(key)
	p := Verdict{TaskID: testTaskID, Score: 0.5, JudgeType: "standard", IterationID: testIterID, JudgeID: testJudgeID,
		FeedbackSummary: `the endpoint said "Bearer ` + key + `"`}
	if err := e.Emit(p); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(e.LogPath)
	if strings.Contains(string(data), key) || !strings.Contains(string(data), `"feedback_summary":"the endpoint said \"Bearer [redacted]\""`) {
		t.Fatalf("log: %s", data)
	}
}
