package records

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestStopSpend: costs add up within a UTC day, a new day starts at zero
// (the pause ends), the notice flag is of its day, and a damaged file is
// an error, never a spend of zero.
func TestStopSpend(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2026, 12, 4, 23, 0, 0, 0, time.UTC)
	if s, err := ReadStopSpend(dir, day); err != nil || s.USD != 0 || s.Day != "2026-12-04" {
		t.Fatalf("no file: %+v %v", s, err)
	}
	SettleStopSpend(dir, day, "", 0.5, time.Second)
	SettleStopSpend(dir, day.Add(30*time.Minute), "", 0.25, time.Second)
	s, err := NoticeStopSpend(dir, day.Add(30*time.Minute), time.Second)
	if err != nil || s.USD != 0.75 || !s.Noticed || s.Calls != 2 {
		t.Fatalf("same day: %+v %v", s, err)
	}
	next := day.Add(2 * time.Hour) // 01:00 UTC the next day
	if s, err := ReadStopSpend(dir, next); err != nil || s.USD != 0 || s.Noticed || s.Day != "2026-12-05" {
		t.Fatalf("next day: %+v %v", s, err)
	}
	if s, _ := SettleStopSpend(dir, next, "", 0.1, time.Second); s.USD != 0.1 || s.Noticed {
		t.Fatalf("next day's first call: %+v", s)
	}
	for _, damaged := range []string{"{broken", `{"day":"2026-12-05","usd":-1}`, `[]`, ""} {
		os.WriteFile(filepath.Join(dir, StopSpendFile), []byte(damaged), 0o600)
		if _, err := ReadStopSpend(dir, next); !errors.Is(err, ErrSpendDamaged) || !strings.Contains(err.Error(), StopSpendFile) {
			t.Errorf("damaged file %q: %v, want an error naming the file", damaged, err)
		}
		if _, ok, err := ReserveStopSpend(dir, next, 100, "r", next.Add(time.Minute), time.Second); ok || err == nil {
			t.Errorf("damaged file %q: reserved (ok %v, %v)", damaged, ok, err)
		}
	}
}

// TestReserveAdmitsOne: judges that check the budget at once cannot all
// pass it (six did, spending 70 times a $0.001 budget): with a budget one
// reservation exhausts, exactly one of N concurrent reservations, released
// together, succeeds. Settling replaces the estimate with the cost; an
// expired reservation no longer counts.
func TestReserveAdmitsOne(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	const n = 12
	start := make(chan struct{})
	var wg sync.WaitGroup
	var admitted atomic.Int32
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, ok, err := ReserveStopSpend(dir, now, 0.001, fmt.Sprint("judge-", i), now.Add(time.Minute), 10*time.Second)
			if err != nil {
				t.Errorf("reserve %d: %v", i, err)
			}
			if ok {
				admitted.Add(1)
			}
		}()
	}
	close(start)
	wg.Wait()
	if got := admitted.Load(); got != 1 {
		t.Fatalf("%d of %d concurrent judges admitted under a budget that allows one", got, n)
	}
	s, err := ReadStopSpend(dir, now)
	if err != nil || len(s.Reserved) != 1 || s.Reserved[0].USD != DefaultStopEstimate {
		t.Fatalf("after the reservations: %+v %v", s, err)
	}
	s, _ = SettleStopSpend(dir, now, s.Reserved[0].ID, 0.0123, time.Second)
	if len(s.Reserved) != 0 || s.USD != 0.0123 || s.Calls != 1 {
		t.Fatalf("settled: %+v", s)
	}
	// A budget with room: the estimate is the day's mean; a reservation
	// past its time is dropped.
	_, ok, _ := ReserveStopSpend(dir, now, 1, "a", now.Add(time.Minute), time.Second)
	if s, _ := ReadStopSpend(dir, now); !ok || s.Committed() != 0.0246 {
		t.Fatalf("second reservation: ok %v, %+v", ok, s)
	}
	if s, _ := ReadStopSpend(dir, now.Add(2*time.Minute)); len(s.Reserved) != 0 {
		t.Fatalf("an expired reservation still counts: %+v", s)
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
