package surface_test

import (
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/events"
	"github.com/tribunal-cc/tribunal/internal/stophook"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/surface"
)

// tid is a task id; the external test package cannot see the internal one.
const tid = "01HZ0000000000000000000001"

// The reader's own mirror of the stop file must read exactly what the Stop
// hook writes.
func TestReadStopFileReadsWhatTheStopHookWrites(t *testing.T) {
	cost := 0.0123
	f := stophook.File{
		TaskID:    tid,
		SessionID: "a/b c",
		Outcome:   "rejected",
		Verdict: events.Verdict{
			TaskID: tid, Score: 0.42, Passed: false, JudgeType: "standard",
			FeedbackSummary: "needs <tests> & docs", Confidence: events.Ptr(0.7),
			JudgeModelID: "claude-opus-4-7",
		},
		Mode:        stophook.Mode,
		Fingerprint: "abc123",
		WrittenAt:   "2026-05-24T10:00:00Z",
		CostUSD:     &cost,
	}
	p := store.ForKey(t.TempDir(), "k").StopFile(f.SessionID)
	if err := store.WriteJSON(p, f); err != nil {
		t.Fatal(err)
	}
	a, err := surface.ReadStopFile(p)
	if err != nil {
		t.Fatal(err)
	}
	want := surface.Advisory{
		Path: p, Name: "stop-a_b_c", SessionID: "a/b c", TaskID: tid, Outcome: "rejected",
		Score: 0.42, Feedback: "needs <tests> & docs", JudgeType: "standard",
		Model: "claude-opus-4-7", Fingerprint: "abc123",
		WrittenAt: time.Date(2026, 5, 24, 10, 0, 0, 0, time.UTC),
	}
	if a.Path != want.Path || a.Name != want.Name || a.SessionID != want.SessionID || a.TaskID != want.TaskID ||
		a.Outcome != want.Outcome || a.Score != want.Score || a.Passed || a.Feedback != want.Feedback ||
		a.JudgeType != want.JudgeType || a.Model != want.Model || a.Fingerprint != want.Fingerprint ||
		!a.WrittenAt.Equal(want.WrittenAt) || a.TimeFromMtime {
		t.Errorf("got %+v\nwant %+v", a, want)
	}
	if a.Confidence == nil || *a.Confidence != 0.7 || a.CostUSD == nil || *a.CostUSD != cost {
		t.Errorf("confidence %v cost %v", a.Confidence, a.CostUSD)
	}
	if a.ModTime.IsZero() {
		t.Error("ModTime not set")
	}
	if got := a.ShortSession(); got != "a_b_c" {
		t.Errorf("ShortSession = %q", got)
	}
}
