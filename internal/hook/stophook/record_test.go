package stophook

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/judging/stopjudge"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// The history readers (records.ReadRecord, records.ListRecords) must read
// exactly the judgement records the hook writes, verdicts and failures.
func TestRecordsReadBackAsWritten(t *testing.T) {
	dir := t.TempDir()
	j := job{
		SessionID: "a/b", Fingerprint: "fp", ProjectDir: filepath.Join(dir, "tribunal", "k"),
		OnlookerDir: dir, LogPath: filepath.Join(dir, "logs", "events.jsonl"),
		Deadline: time.Now().Add(time.Minute),
		Settings: config.StopHookSettings{Model: "m", ScoreThreshold: 0.75},
	}
	var warned []string
	d := Deps{Now: time.Now}
	r := newRecorder(d, j, func(f string, a ...any) { warned = append(warned, f) })
	cost := 0.02
	r.verdict(stopjudge.Verdict{Score: 0.4, Passed: false, Feedback: "No test.", Confidence: 0.7},
		claude.Result{CostUSD: &cost, Duration: 1500 * time.Millisecond}, nil)
	r.failure(records.Judgement{Outcome: records.OutcomeFailed, Error: "claude did not finish within 1s and was killed"})
	if len(warned) != 0 {
		t.Fatalf("warnings: %v", warned)
	}
	paths, err := records.ListRecords(j.ProjectDir)
	if err != nil || len(paths) != 2 {
		t.Fatalf("ListRecords = %v, %v; want 2 records", paths, err)
	}
	byOutcome := map[string]records.Advisory{}
	for _, p := range paths {
		a, err := records.ReadRecord(p)
		if err != nil {
			t.Fatalf("ReadRecord(%s): %v", p, err)
		}
		if a.Name != "stop-"+store.SanitizeSessionID("a/b") || a.SessionID != "a/b" || a.Fingerprint != "fp" || !strings.HasSuffix(p, a.TaskID+".json") {
			t.Errorf("record %s: %+v", p, a)
		}
		byOutcome[a.Outcome] = a
	}
	v := byOutcome["rejected"]
	if v.Score != 0.4 || v.Feedback != "No test." || v.CostUSD == nil || *v.CostUSD != cost ||
		v.DurationMS == nil || *v.DurationMS != 1500 || v.Model != "m" {
		t.Errorf("verdict record: %+v", v)
	}
	f := byOutcome[records.OutcomeFailed]
	if f.Error != "claude did not finish within 1s and was killed" || f.WrittenAt.IsZero() {
		t.Errorf("failure record: %+v", f)
	}
	if a, err := records.ReadStopFile(r.stopFile); err != nil || a.TaskID != v.TaskID {
		t.Errorf("the stop file holds %+v (%v), want the latest verdict %s", a, err, v.TaskID)
	}
}
