package calibrate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// writeTask stores a task the way the loop does, as far as labelling
// reads it: report.json and one iteration's diff-snapshot.patch.
func writeTask(t *testing.T, project, id, report string) {
	t.Helper()
	iter := filepath.Join(project, id, records.IterationDir("01M94P8GH1Y28EGYDYD1ZWEW0S"))
	if err := os.MkdirAll(iter, 0o700); err != nil {
		t.Fatal(err)
	}
	diff := "diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hi\n"
	if err := os.WriteFile(filepath.Join(iter, records.DiffSnapshotFile), []byte(diff), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, id, records.ReportFile), []byte(report), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The label rules that need no git: a discarded change is a reject; a
// kept change whose finding the user dismissed is an accept (the user
// overruled the judge); a kept change with no decision, an in-place run
// and a task without a report give no case.
func TestTaskCaseLabels(t *testing.T) {
	project := t.TempDir()
	in := HistoryInput{ProjectDir: project}
	const id = "01M94P8GH138BK1W2V0EXW8ZB7"
	tests := []struct {
		name, report string
		dismissals   []string
		label, why   string
	}{
		{"discarded", `{"task":"add new.txt","isolation":{"mode":"worktree","state":"discarded"}}`, nil, "reject", ""},
		{"discarded, a finding dismissed too", `{"task":"add new.txt","isolation":{"mode":"worktree","state":"discarded"}}`, []string{"fine"}, "reject", ""},
		{"kept, a finding dismissed", `{"task":"add new.txt","isolation":{"mode":"worktree","state":"kept"}}`, []string{"b is never zero"}, "accept", ""},
		{"kept, undecided", `{"task":"add new.txt","isolation":{"mode":"worktree","state":"kept"}}`, nil, "", "no decision of yours recorded (its change is kept)"},
		{"in place", `{"task":"add new.txt","isolation":{"mode":"in_place"}}`, nil, "", "run --in-place: no kept change to label"},
		{"no report", `not json`, nil, "", "no readable report.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			writeTask(t, project, id, tc.report)
			c, why := in.taskCase(context.Background(), id, tc.dismissals)
			if !strings.HasPrefix(why, tc.why) || (tc.why == "") != (why == "") {
				t.Fatalf("why = %q, want %q", why, tc.why)
			}
			if c.Label != tc.label {
				t.Errorf("label = %q, want %q", c.Label, tc.label)
			}
			if tc.label != "" && (!strings.HasPrefix(c.Source, HistorySource) || c.Task != "add new.txt" || c.ID != id || !strings.Contains(c.Diff, "+hi")) {
				t.Errorf("case = %+v", c)
			}
		})
	}
}

func TestWriteCasesNeverOverwrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.jsonl")
	cases := []Case{{ID: "x", Task: "t", Diff: "d", Label: "accept", Source: HistorySource + "kept"}}
	if err := WriteCases(path, cases, []Skipped{{ID: "y", Why: "undecided"}}); err != nil {
		t.Fatal(err)
	}
	if err := WriteCases(path, nil, nil); err == nil {
		t.Fatal("a second write over the file succeeded")
	}
	// What it wrote reads back as cases, comments and all.
	f, _ := os.Open(path)
	defer f.Close()
	got, err := ReadCases(f, func(line int, why string) { t.Errorf("line %d skipped: %s", line, why) })
	if err != nil || len(got) != 1 || got[0].Source != HistorySource+"kept" {
		t.Fatalf("read back %+v, %v", got, err)
	}
}

// An answer judged with `tribunal-session judge` is in the same store as
// the tasks, but it is not a change: it is skipped as an answer, not as
// an in-place run with no kept change.
func TestFromHistorySkipsAnswers(t *testing.T) {
	project := t.TempDir()
	const id = "01M94P8GH138BK1W2V0EXW8ZB7"
	writeTask(t, project, id, `{"task":"What is the capital of France?"}`)
	if err := os.WriteFile(filepath.Join(project, id, records.ManifestFile), []byte(`{"task_id":"`+id+`","kind":"`+records.KindAnswer+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, skipped, err := FromHistory(context.Background(), HistoryInput{ProjectDir: project})
	if err == nil {
		t.Fatal("an answer gave a case")
	}
	if len(skipped) != 1 || skipped[0].ID != id || skipped[0].Why != "an answer (judge): not a change, nothing to label" {
		t.Fatalf("skipped = %+v", skipped)
	}
}
