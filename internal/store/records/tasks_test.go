package records

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ProjectRecs lists tasks and advisory verdicts newest first, by the
// task's ULID time and the verdict's written_at, and ignores entries that
// are not tasks.
func TestProjectRecsOrder(t *testing.T) {
	dir := t.TempDir()
	older, newer := "01ARZ3NDEKTSV4RRFFQ69G5FAV", "01JABCDEFGHJKMNPQRSTVWXYZ0"
	for _, name := range []string{older, newer, "runs", "not-a-ulid"} {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	recs, problems := ProjectRecs(dir)
	if len(problems) != 0 || len(recs) != 2 || recs[0].TaskID != newer || recs[1].TaskID != older {
		t.Fatalf("ProjectRecs = %+v, %v; want %s then %s", recs, problems, newer, older)
	}
	if !recs[1].Time.Equal(TaskTime(older)) || TaskTime("nope") != (time.Time{}) {
		t.Errorf("times: %v %v", recs[1].Time, TaskTime("nope"))
	}
	if recs, problems := ProjectRecs(filepath.Join(dir, "missing")); len(recs)+len(problems) != 0 {
		t.Errorf("a missing project: %v %v", recs, problems)
	}
}

// ActorText keeps at most MaxActorText bytes, cut on a character, and is
// empty when actor.md is missing.
func TestActorText(t *testing.T) {
	dir := t.TempDir()
	if got := ActorText(dir); got != "" {
		t.Fatalf("no actor.md: %q", got)
	}
	long := strings.Repeat("é", MaxActorText) + "\n"
	if err := os.WriteFile(filepath.Join(dir, ActorFile), []byte(long), 0o600); err != nil {
		t.Fatal(err)
	}
	got := ActorText(dir)
	if !strings.HasSuffix(got, " …") || len(got) > MaxActorText+len(" …") || !strings.HasPrefix(got, "éé") {
		t.Errorf("ActorText = %d bytes ending %q", len(got), got[len(got)-8:])
	}
	if err := os.WriteFile(filepath.Join(dir, ActorFile), []byte("short\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := ActorText(dir); got != "short" {
		t.Errorf("ActorText = %q, want short", got)
	}
}
