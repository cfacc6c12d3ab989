package cmdjudge

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestCommandEvaluators covers the two evaluators a command judge can
// carry: a time budget and an exact expected output (spec §3.4).
func TestCommandEvaluators(t *testing.T) {
	requireUnix(t)
	expect := func(s Spec, out string) Spec { s.ExpectOutput = &out; return s }
	budget := func(s Spec, d time.Duration) Spec { s.TimeBudget = d; return s }
	cases := []struct {
		name     string
		spec     Spec
		passed   bool
		feedback string // substring
	}{
		{"within budget", budget(spec("true"), 5*time.Second), true, "`true` exited 0"},
		// The command would sleep far past the budget: it is killed at the
		// budget, so the test waits 200 ms, not 30 s.
		{"over budget", budget(spec("sleep", "30"), 200*time.Millisecond), false, "`sleep 30` exceeded its time budget of 200ms (ran "},
		{"budget above the timeout is the timeout", func() Spec {
			s := budget(spec("true"), time.Hour)
			s.Timeout = time.Second
			return s
		}(), true, "exited 0"},
		{"expected output", expect(spec("sh", "-c", "printf 'a\\nb\\n'"), "a\nb"), true, "exited 0 with the expected output"},
		{"unexpected output", expect(spec("sh", "-c", "printf 'a\\nc\\n'"), "a\nb\n"), false,
			`exited 0 but its output differs from the expected output at line 2: printed "c", expected "b"`},
		{"output too short", expect(spec("echo", "a"), "a\nb"), false, `at line 2: printed end of output, expected "b"`},
		{"a failing exit is not rescued by its output", expect(spec("sh", "-c", "echo a; exit 1"), "a"), false, "exited 1: a"},
		{"output longer than kept", func() Spec {
			s := expect(spec("sh", "-c", "echo 0123456789"), "0123")
			s.MaxOutput = 4
			return s
		}(), false, "its output is longer than the 4 bytes kept"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.spec.Validate(); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			v := Run(context.Background(), c.spec)
			if v.Failed {
				t.Fatalf("a command evaluator's failure is a verdict on the work, not a failed judge: %q", v.Error)
			}
			if v.Passed != c.passed || !strings.Contains(v.FeedbackSummary, c.feedback) {
				t.Errorf("passed=%v feedback=%q; want passed=%v, feedback containing %q", v.Passed, v.FeedbackSummary, c.passed, c.feedback)
			}
			if !c.passed && string(v.Score) != "0" {
				t.Errorf("score %s, want the fail score", v.Score)
			}
		})
	}
}

func TestCommandEvaluatorValidation(t *testing.T) {
	long := strings.Repeat("x", 20)
	s := spec("true")
	s.MaxOutput, s.ExpectOutput = 10, &long
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), `command judge "tests": expect_output is 20 bytes, more than the 10 bytes of output kept (raise max_output_bytes)`) {
		t.Errorf("Validate = %v", err)
	}
	s = spec("true")
	s.TimeBudget = -time.Second
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "time budget -1s is negative") {
		t.Errorf("Validate = %v", err)
	}
}
