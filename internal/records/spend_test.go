package records

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestStopSpend: costs add up within a UTC day, a new day starts at zero
// (the pause ends), the notice flag is of its day, and a damaged file
// reads as zero rather than as a pause.
func TestStopSpend(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2026, 12, 4, 23, 0, 0, 0, time.UTC)
	if s := ReadStopSpend(dir, day); s.USD != 0 || s.Day != "2026-12-04" {
		t.Fatalf("no file: %+v", s)
	}
	UpdateStopSpend(dir, day, 0.5, false, time.Second)
	s, err := UpdateStopSpend(dir, day.Add(30*time.Minute), 0.25, true, time.Second)
	if err != nil || s.USD != 0.75 || !s.Noticed {
		t.Fatalf("same day: %+v %v", s, err)
	}
	next := day.Add(2 * time.Hour) // 01:00 UTC the next day
	if s := ReadStopSpend(dir, next); s.USD != 0 || s.Noticed || s.Day != "2026-12-05" {
		t.Fatalf("next day: %+v", s)
	}
	if s, _ := UpdateStopSpend(dir, next, 0.1, false, time.Second); s.USD != 0.1 || s.Noticed {
		t.Fatalf("next day's first call: %+v", s)
	}
	os.WriteFile(filepath.Join(dir, StopSpendFile), []byte("{broken"), 0o600)
	if s := ReadStopSpend(dir, next); s.USD != 0 {
		t.Fatalf("damaged file: %+v", s)
	}
}

// TestPendingPause: a pause notice decodes without a stop file and task
// id, but still only inside the store's project tree.
func TestPendingPause(t *testing.T) {
	onlooker := t.TempDir()
	proj := filepath.Join(onlooker, "tribunal", "abc")
	ok := `{"project_dir":"` + proj + `","stop_file":"","task_id":"","paused":{"day":"2026-12-04","usd":1.2},"budget_usd":1}`
	p, err := DecodePending(onlooker, []byte(ok))
	if err != nil || p.Paused == nil || p.Paused.USD != 1.2 || p.BudgetUSD != 1 {
		t.Fatalf("pause notice: %+v %v", p, err)
	}
	outside := `{"project_dir":"/etc","paused":{"day":"2026-12-04","usd":1.2},"budget_usd":1}`
	if _, err := DecodePending(onlooker, []byte(outside)); err == nil {
		t.Fatal("a pause notice outside the store decoded")
	}
}
