package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Only an accepted task with a change of its own is a candidate for a
// receipt; its receipt names the verified gate entry of its last
// iteration and pins the rubric it was judged by.
func TestAcceptedTasks(t *testing.T) {
	dir := t.TempDir()
	score := 0.9
	snap, head := strings.Repeat("a", 40), strings.Repeat("b", 40)
	write := func(id string, rep any) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, id), 0o700); err != nil {
			t.Fatal(err)
		}
		var data []byte
		switch r := rep.(type) {
		case string:
			data = []byte(r)
		default:
			data, _ = json.Marshal(r)
		}
		if err := os.WriteFile(filepath.Join(dir, id, records.ReportFile), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	task := func(id, outcome, s, h string) Report {
		return Report{TaskID: id, Outcome: outcome, RubricID: "default", FinalScore: &score,
			Iterations: []judging.IterationReport{{IterationID: "01JITER0000000000000000000",
				Judges: []judging.JudgeReport{{JudgeID: "j", Type: "standard", Score: &score, Passed: true}}}},
			Isolation: &records.Isolation{Snapshot: s, Head: h, State: "applied"}}
	}
	write("01JA0000000000000000000000", task("01JA0000000000000000000000", Accepted, snap, head))
	write("01JB0000000000000000000000", task("01JB0000000000000000000000", "rejected", snap, head))
	write("01JC0000000000000000000000", task("01JC0000000000000000000000", Accepted, snap, snap))
	write("01JD0000000000000000000000", "{not json")
	manifest := records.Manifest{Rubric: json.RawMessage(`{"id":"default", "criteria":[]}`)}
	m, _ := json.Marshal(manifest)
	if err := os.WriteFile(filepath.Join(dir, "01JA0000000000000000000000", records.ManifestFile), m, 0o600); err != nil {
		t.Fatal(err)
	}
	audit := &ledger.Audit{Holds: 2, Entries: []ledger.Entry{
		{Seq: 0, Kind: ledger.KindGate, TaskID: "01JA0000000000000000000000", IterationID: "01JITER0000000000000000000", Hash: "h0", Time: "t0"},
		{Seq: 1, Kind: ledger.KindGate, TaskID: "01JA0000000000000000000000", IterationID: "01JITER0000000000000000000", Hash: "h1", Time: "t1"},
		{Seq: 2, Kind: ledger.KindGate, TaskID: "01JA0000000000000000000000", IterationID: "01JITER0000000000000000000", Hash: "h2-unverified"},
	}}
	tasks, warnings := AcceptedTasks(dir, audit)
	if len(tasks) != 1 || tasks[0].TaskID != "01JA0000000000000000000000" {
		t.Fatalf("tasks %+v", tasks)
	}
	got := tasks[0]
	if got.Snapshot != snap || got.Head != head || !got.Passed || len(got.Judges) != 1 || *got.Score != 0.9 {
		t.Errorf("task %+v", got)
	}
	// The digest is of the canonical form, whatever the manifest's spacing
	// and member order.
	sum := sha256.Sum256([]byte(`{"criteria":[],"id":"default"}`))
	if got.Rubric.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("rubric digest %q", got.Rubric.SHA256)
	}
	if got.Ledger == nil || got.Ledger.Hash != "h1" || got.JudgedAt != "t1" {
		t.Errorf("ledger %+v: want the last verified entry", got.Ledger)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "01JD0000000000000000000000") {
		t.Errorf("warnings %q", warnings)
	}
}
