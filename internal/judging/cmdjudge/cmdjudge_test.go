package cmdjudge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/proc"
)

// testPath is a fixed PATH, so the tests neither read this process's
// environment nor depend on the developer's.
const testPath = "PATH=/usr/bin:/bin"

func requireUnix(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("command judges use POSIX process groups")
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
}

func spec(argv ...string) Spec {
	return Spec{Name: "tests", Command: argv, Env: []string{testPath}, Timeout: 10 * time.Second}
}

func TestRunVerdicts(t *testing.T) {
	requireUnix(t)
	cases := []struct {
		name       string
		spec       Spec
		failed     bool
		errHas     string
		score      string
		passed     bool
		feedback   string // exact, when set
		feedbackIn []string
	}{
		{name: "exit 0 passes", spec: spec("true"), score: "1", passed: true, feedback: "`true` exited 0"},
		{name: "exit 1 fails", spec: spec("false"), score: "0", feedback: "`false` exited 1 with no output"},
		{name: "exit status and output", spec: spec("sh", "-c", "echo x; exit 3"), score: "0",
			feedback: "`sh -c \"echo x; exit 3\"` exited 3: x"},
		{name: "stderr is captured with stdout", spec: spec("sh", "-c", "echo out; echo err >&2; exit 1"), score: "0",
			feedbackIn: []string{"out\nerr"}},
		{name: "custom scores", spec: func() Spec { s := spec("sh", "-c", "exit 2"); s.PassScore, s.FailScore = 0.9, 0.25; return s }(),
			score: "0.25", feedbackIn: []string{"exited 2"}},
		{name: "custom pass score", spec: func() Spec { s := spec("true"); s.PassScore = 0.8; return s }(),
			score: "0.8", passed: true},
		{name: "killed by a signal fails", spec: spec("sh", "-c", "kill -9 $$"), score: "0",
			feedbackIn: []string{"was killed by signal killed"}},
		{name: "not on PATH", spec: spec("tribunal-no-such-command"), failed: true,
			errHas: `command judge "tests" (` + "`tribunal-no-such-command`" + `): command not found: "tribunal-no-such-command" is not on PATH`},
		{name: "no PATH in the environment", spec: Spec{Name: "lint", Command: []string{"true"}}, failed: true,
			errHas: "PATH is not set in the judge's environment"},
		{name: "missing path", spec: spec("./nope"), failed: true, errHas: `"./nope" is not an executable file`},
		{name: "missing working directory", spec: func() Spec { s := spec("true"); s.Dir = "/nonexistent/tribunal"; return s }(),
			failed: true, errHas: `working directory "/nonexistent/tribunal" is not a directory`},
		{name: "empty command", spec: Spec{Name: "x", Env: []string{testPath}}, failed: true, errHas: "empty command"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := Run(context.Background(), c.spec)
			if v.Failed != c.failed || !strings.Contains(v.Error, c.errHas) {
				t.Fatalf("Failed = %v, Error = %q; want %v containing %q", v.Failed, v.Error, c.failed, c.errHas)
			}
			if v.JudgeType != c.spec.Name {
				t.Errorf("JudgeType = %q, want %q", v.JudgeType, c.spec.Name)
			}
			if c.failed {
				if _, ok := v.UsableScore(); ok || v.Passed {
					t.Errorf("a failed command judge has a usable score or passed: %+v", v)
				}
				return
			}
			if string(v.Score) != c.score || v.Passed != c.passed {
				t.Errorf("score, passed = %s, %v; want %s, %v", v.Score, v.Passed, c.score, c.passed)
			}
			if _, ok := v.UsableScore(); !ok {
				t.Errorf("score %s is not usable", v.Score)
			}
			if c.feedback != "" && v.FeedbackSummary != c.feedback {
				t.Errorf("feedback = %q, want %q", v.FeedbackSummary, c.feedback)
			}
			for _, s := range c.feedbackIn {
				if !strings.Contains(v.FeedbackSummary, s) {
					t.Errorf("feedback = %q, want it to contain %q", v.FeedbackSummary, s)
				}
			}
		})
	}
}

func TestRunOutputIsBounded(t *testing.T) {
	requireUnix(t)
	s := spec("sh", "-c", `i=0; while [ $i -lt 5000 ]; do i=$((i+1)); echo "line $i of the test report"; done; exit 2`)
	o := Execute(context.Background(), s)
	if o.Err != nil || o.ExitCode != 2 {
		t.Fatalf("outcome = %+v", o)
	}
	if len(o.Output) != DefaultMaxOutput || !strings.HasSuffix(o.Output, "line 5000 of the test report\n") {
		t.Errorf("output tail is %d bytes ending %q, want %d ending with the last line", len(o.Output), o.Output[len(o.Output)-40:], DefaultMaxOutput)
	}
	v := o.Verdict(s)
	if len(v.FeedbackSummary) > MaxFeedbackBytes {
		t.Errorf("feedback is %d bytes, want <= %d", len(v.FeedbackSummary), MaxFeedbackBytes)
	}
	if !strings.HasSuffix(v.FeedbackSummary, "\nline 5000 of the test report") || !strings.HasPrefix(v.FeedbackSummary, "`sh -c ") {
		t.Errorf("feedback = %q", v.FeedbackSummary)
	}
	// Whole lines only: the first kept line is complete.
	body := v.FeedbackSummary[strings.Index(v.FeedbackSummary, ": ")+2:]
	if first, _, _ := strings.Cut(body, "\n"); !strings.HasPrefix(first, "line ") {
		t.Errorf("first kept line %q is not a whole line", first)
	}
	s.MaxOutput = 100
	if o := Execute(context.Background(), s); len(o.Output) != 100 {
		t.Errorf("MaxOutput 100 kept %d bytes", len(o.Output))
	}
}

func TestRunEnvironmentAndDir(t *testing.T) {
	requireUnix(t)
	dir := t.TempDir()
	s := spec("sh", "-c", `echo "guard=$TRIBUNAL_NESTED foo=$FOO dir=$(pwd) secrets=$GITHUB_TOKEN$ANTHROPIC_API_KEY$DEPLOY_PASSWORD"; exit 1`)
	s.Dir = dir
	// A command judge runs the judged tree's code: no token, no model
	// key, no secret reaches it.
	s.Env = append(s.Env, "FOO=bar", "TRIBUNAL_NESTED=0", "GITHUB_TOKEN=ghs_forge", "ANTHROPIC_API_KEY=sk-ant", "DEPLOY_PASSWORD=pw")
	o := Execute(context.Background(), s)
	real, _ := filepath.EvalSymlinks(dir)
	want := fmt.Sprintf("guard=1 foo=bar dir=%s secrets=\n", real)
	if o.Output != want {
		t.Errorf("output = %q, want %q", o.Output, want)
	}
}

// A relative argv0 runs from Dir (proc.Resolve has the lookup rule's
// table).
func TestRunRelativeCommandFromDir(t *testing.T) {
	requireUnix(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "check"), []byte("#!/bin/sh\necho checked\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := Spec{Name: "check", Command: []string{"./check"}, Dir: dir}
	if o := Execute(context.Background(), s); o.Err != nil || o.Output != "checked\n" || o.ExitCode != 0 {
		t.Errorf("outcome = %+v", o)
	}
}

func TestRunTimeout(t *testing.T) {
	requireUnix(t)
	s := spec("sleep", "30")
	s.Timeout = 200 * time.Millisecond
	start := time.Now()
	o := Execute(context.Background(), s)
	var te *proc.TimeoutError
	if !errors.As(o.Err, &te) || te.After != s.Timeout {
		t.Fatalf("Err = %v, want a TimeoutError after %s", o.Err, s.Timeout)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s to give up on a 200ms timeout", d)
	}
	v := o.Verdict(s)
	if !v.Failed || !strings.Contains(v.Error, "`sleep 30`): timed out after 200ms and was killed") {
		t.Errorf("verdict = %+v", v)
	}
}

func TestRunTimeoutKeepsLastOutput(t *testing.T) {
	requireUnix(t)
	s := spec("sh", "-c", "echo compiling; echo running TestSlow; sleep 30")
	s.Timeout = 300 * time.Millisecond
	v := Run(context.Background(), s)
	if !v.Failed || !strings.HasSuffix(v.Error, "; last output: compiling\nrunning TestSlow") {
		t.Errorf("Error = %q", v.Error)
	}
}

func TestRunInterrupted(t *testing.T) {
	requireUnix(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	v := Run(ctx, spec("sleep", "30"))
	if !v.Failed || !strings.Contains(v.Error, "interrupted: context canceled") {
		t.Errorf("verdict = %+v", v)
	}
}

func TestValidate(t *testing.T) {
	ok := Spec{Name: "tests", Command: []string{"go", "test", "./..."}}
	cases := []struct {
		name string
		mod  func(*Spec)
		err  string // "" = valid
	}{
		{"minimal", func(*Spec) {}, ""},
		{"explicit scores", func(s *Spec) { s.PassScore, s.FailScore = 0.9, 0.1 }, ""},
		{"no name", func(s *Spec) { s.Name = "" }, "command judge has no name"},
		{"no command", func(s *Spec) { s.Command = nil }, `command judge "tests" has no command`},
		{"empty argv0", func(s *Spec) { s.Command = []string{""} }, "has no command"},
		{"negative timeout", func(s *Spec) { s.Timeout = -time.Second }, "timeout -1s is negative"},
		{"negative max output", func(s *Spec) { s.MaxOutput = -1 }, "max output -1 is negative"},
		{"pass score above 1", func(s *Spec) { s.PassScore = 1.5 }, "pass score 1.5 is outside [0,1]"},
		{"fail score below 0", func(s *Spec) { s.FailScore = -0.1 }, "fail score -0.1 is outside [0,1]"},
		{"fail score not below pass", func(s *Spec) { s.PassScore, s.FailScore = 0.5, 0.5 }, "fail score 0.5 is not below pass score 0.5"},
		{"fail score 1 with default pass", func(s *Spec) { s.FailScore = 1 }, "is not below pass score 1"},
	}
	for _, c := range cases {
		s := ok
		s.Command = append([]string(nil), ok.Command...)
		c.mod(&s)
		err := s.Validate()
		if (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: Validate() = %v, want %q", c.name, err, c.err)
		}
	}
}
