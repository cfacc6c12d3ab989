package session

import (
	"github.com/tribunal-cc/tribunal/internal/env"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer collects progress lines, safe to read while the heartbeat
// writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) line(l string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.WriteString(l + "\n")
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestProgressCarriesElapsedTime(t *testing.T) {
	var out syncBuffer
	start := time.Date(2026, 5, 24, 10, 0, 0, 0, time.UTC)
	now := start.Add(83 * time.Second)
	r := &runner{Deps: Deps{Env: env.Env{Progress: out.line, Now: func() time.Time { return now }}}, start: start}
	r.progress("iteration %d/%d: actor working", 1, 3)
	now = start.Add(2*time.Hour + 5*time.Second)
	r.progress("done")
	want := "[1:23] iteration 1/3: actor working\n[2:00:05] done\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

func TestLongPhaseHeartbeat(t *testing.T) {
	var out syncBuffer
	r := &runner{Deps: Deps{Env: env.Env{Progress: out.line, Now: time.Now, Heartbeat: 5 * time.Millisecond}}, start: time.Now()}
	stop := r.longPhase("iteration 1/3:", "waiting for the jury")
	// Poll for two beats with a generous deadline; never a fixed sleep.
	deadline := time.Now().Add(30 * time.Second)
	for strings.Count(out.String(), "still waiting") < 2 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	stop()
	got := out.String()
	if n := strings.Count(got, "\n"); n < 2 {
		t.Fatalf("%d heartbeat lines in 30s: %q", n, got)
	}
	line := regexp.MustCompile(`^\[\d+:\d\d\] iteration 1/3: still waiting for the jury \(\d+:\d\d so far\)$`)
	for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
		if !line.MatchString(l) {
			t.Errorf("heartbeat line %q", l)
		}
	}
	// After stop, no more beats.
	after := out.String()
	for i := 0; i < 5; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	if out.String() != after {
		t.Error("the heartbeat went on after stop")
	}
	// A negative interval disables it.
	r.Heartbeat = -1
	r.longPhase("x", "y")()
}
