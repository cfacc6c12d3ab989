// Package cmdjudge runs command judges: a project's own check (tests, a
// linter, a type checker) whose exit status, not a model, gives the
// verdict.
package cmdjudge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/secretenv"
	"github.com/tribunal-cc/tribunal/internal/proc"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// Defaults applied to a Spec's zero fields.
const (
	// DefaultTimeout matches the session's default judge timeout.
	DefaultTimeout = 10 * time.Minute
	// DefaultMaxOutput is how much of the output's tail is kept: enough for
	// a failing test's report, small enough for every artifact.
	DefaultMaxOutput = 8 << 10
	// DefaultPassScore and DefaultFailScore are the scores of a command
	// that exits 0 and one that does not.
	DefaultPassScore = 1.0
	DefaultFailScore = 0.0
)

// MaxFeedbackBytes bounds a verdict's feedback, which reaches the actor's
// next prompt and the summary.
const MaxFeedbackBytes = 600

// Spec is one command judge.
type Spec struct {
	// Name is the judge's name; it becomes the verdict's judge type.
	Name string
	// Command is the argv, run directly with no shell: Command[0] is a
	// path (relative paths resolve against Dir) or a name looked up on the
	// PATH given in Env.
	Command []string
	// Dir is the working directory, normally the worktree root.
	Dir string
	// Timeout bounds the run; zero means DefaultTimeout.
	Timeout time.Duration
	// Env is the command's complete base environment (the caller passes
	// its own, typically os.Environ()) less every secret (secretenv): the
	// recursion guard is added to it. PATH is read from here, never from
	// this process.
	Env []string
	// PassScore and FailScore are the verdict scores for exit 0 and for
	// any other exit. A zero PassScore means DefaultPassScore: a command
	// that passes with score 0 would contradict itself.
	PassScore, FailScore float64
	// MaxOutput is the tail of combined stdout and stderr kept, in bytes;
	// zero means DefaultMaxOutput.
	MaxOutput int
	// TimeBudget, when positive, is the command's time budget: it is
	// killed at the budget and fails saying so (a verdict on the work,
	// unlike Timeout, which marks the judge failed).
	TimeBudget time.Duration
	// ExpectOutput, when set, is the exact combined output a passing run
	// prints; trailing newlines are ignored on both sides.
	ExpectOutput *string
}

// withDefaults fills the zero fields.
func (s Spec) withDefaults() Spec {
	if s.Timeout <= 0 {
		s.Timeout = DefaultTimeout
	}
	if s.PassScore == 0 {
		s.PassScore = DefaultPassScore
	}
	if s.MaxOutput <= 0 {
		s.MaxOutput = DefaultMaxOutput
	}
	return s
}

// Validate reports the first problem that would make the spec unusable,
// for configuration loading to reject the judge before a session starts.
func (s Spec) Validate() error {
	d := s.withDefaults()
	switch {
	case s.Name == "":
		return errors.New("command judge has no name")
	case len(s.Command) == 0 || s.Command[0] == "":
		return fmt.Errorf("command judge %q has no command", s.Name)
	case s.Timeout < 0:
		return fmt.Errorf("command judge %q: timeout %s is negative", s.Name, s.Timeout)
	case s.MaxOutput < 0:
		return fmt.Errorf("command judge %q: max output %d is negative", s.Name, s.MaxOutput)
	case !(d.PassScore >= 0 && d.PassScore <= 1):
		return fmt.Errorf("command judge %q: pass score %s is outside [0,1]", s.Name, rules.Num(s.PassScore))
	case !(d.FailScore >= 0 && d.FailScore <= 1):
		return fmt.Errorf("command judge %q: fail score %s is outside [0,1]", s.Name, rules.Num(s.FailScore))
	case d.FailScore >= d.PassScore:
		return fmt.Errorf("command judge %q: fail score %s is not below pass score %s", s.Name, rules.Num(d.FailScore), rules.Num(d.PassScore))
	case s.TimeBudget < 0:
		return fmt.Errorf("command judge %q: time budget %s is negative", s.Name, s.TimeBudget)
	case s.ExpectOutput != nil && len(*s.ExpectOutput) > d.MaxOutput:
		return fmt.Errorf("command judge %q: expect_output is %d bytes, more than the %d bytes of output kept (raise max_output_bytes)", s.Name, len(*s.ExpectOutput), d.MaxOutput)
	}
	return nil
}

// ErrNotFound means the command's executable could not be found.
var ErrNotFound = proc.ErrNotFound

// Outcome is what one run of a command judge observed.
type Outcome struct {
	// ExitCode is the exit status; -1 when the command was killed by a
	// signal or never ran.
	ExitCode int
	// Signal names the signal that killed the command, if one did.
	Signal string
	// Output is the tail of the combined stdout and stderr, at most
	// MaxOutput bytes, as the command wrote it.
	Output   string
	Duration time.Duration
	// Err is nil when the command ran to its end, whatever its status;
	// otherwise the judge failed: ErrNotFound, a *TimeoutError, the
	// context's error, or an error starting the process.
	Err error
}

// Run runs the command judge and returns its verdict; see Outcome.Verdict.
func Run(ctx context.Context, spec Spec) verdict.Verdict {
	return Execute(ctx, spec).Verdict(spec)
}

// Execute runs the command through internal/proc: its own process group,
// killed whole at the deadline or when ctx ends; when the command exits by
// itself, whatever it left running in its group is killed too, so a test
// suite's stray server neither outlives the judge nor holds the output
// open.
func Execute(ctx context.Context, spec Spec) Outcome {
	spec = spec.withDefaults()
	out := Outcome{ExitCode: -1}
	path, err := locate(spec)
	if err != nil {
		out.Err = err
		return out
	}
	tail := spec.MaxOutput
	if spec.ExpectOutput != nil {
		tail++ // one byte more tells an output that was cut (outputDiffers)
	}
	res, err := proc.Run(ctx, proc.Cmd{
		Path: path, Argv0: spec.Command[0], Args: spec.Command[1:],
		// A command judge runs the judged tree's code: no model key, no
		// token, no secret at all.
		Env: claude.ChildEnv(secretenv.Scrub(spec.Env, nil), 0), Dir: spec.Dir, Timeout: spec.deadline(),
		Combined: true, MaxTail: tail,
	})
	out.Output, out.Duration = res.Output, res.Duration
	var startErr *proc.StartError
	if errors.As(err, &startErr) {
		out.Err = fmt.Errorf("start %q: %w", spec.Command[0], startErr.Err)
		return out
	}
	out.ExitCode, out.Signal = res.ExitCode, res.Signal
	out.Err = runError(ctx, spec, err)
	return out
}

// deadline is when the command is killed: its time budget when that
// comes first.
func (s Spec) deadline() time.Duration {
	if s.TimeBudget > 0 && s.TimeBudget < s.Timeout {
		return s.TimeBudget
	}
	return s.Timeout
}

// overBudget reports a run that its time budget, not its timeout, ended
// or that finished after the budget.
func (o Outcome) overBudget(spec Spec) bool {
	if spec.TimeBudget <= 0 {
		return false
	}
	var timeout *proc.TimeoutError
	if errors.As(o.Err, &timeout) {
		return spec.deadline() == spec.TimeBudget
	}
	return o.Err == nil && o.Duration > spec.TimeBudget
}

// locate checks the working directory and finds the executable.
func locate(spec Spec) (string, error) {
	if len(spec.Command) == 0 || spec.Command[0] == "" {
		return "", fmt.Errorf("%w: empty command", ErrNotFound)
	}
	if spec.Dir != "" {
		// Checked here because the kernel reports a missing directory as
		// the executable missing ("fork/exec /usr/bin/true: no such file").
		if fi, err := os.Stat(spec.Dir); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("working directory %q is not a directory", spec.Dir)
		}
	}
	return proc.Resolve(spec.Command[0], spec.Dir, spec.Env)
}

// runError says why a run could not finish (nil when the command reached
// its own end, whatever its status).
func runError(ctx context.Context, spec Spec, err error) error {
	var timeout *proc.TimeoutError
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted: %w", ctx.Err())
	case errors.As(err, &timeout):
		return timeout
	case err != nil:
		return fmt.Errorf("wait for %q: %w", spec.Command[0], err)
	}
	return nil
}

// Verdict maps the outcome to a verdict: exit 0 passes with the pass
// score, any other end the command reached fails with the fail score and
// the tail of its output as feedback, and a run that could not finish (not
// found, timed out, interrupted) is a failed judge, which keeps its seat
// and cannot vote pass (spec §4.1). The judge type is the spec's name; the
// caller sets the ids.
func (o Outcome) Verdict(spec Spec) verdict.Verdict {
	spec = spec.withDefaults()
	cmdline := display(spec.Command)
	if o.overBudget(spec) {
		return spec.failing(fmt.Sprintf("%s exceeded its time budget of %s (ran %s)", cmdline, spec.TimeBudget, o.Duration.Round(time.Millisecond)), o.Output)
	}
	if o.Err != nil {
		msg := fmt.Sprintf("command judge %q (%s): %s", spec.Name, cmdline, o.Err)
		if last := lastLines(o.Output, 200); last != "" {
			msg += "; last output: " + last
		}
		v := verdict.Failed(msg)
		v.JudgeType = spec.Name
		return v
	}
	one := 1.0
	v := verdict.Verdict{JudgeType: spec.Name, Confidence: &one, CriteriaEvaluated: []string{"command: " + cmdline}}
	if o.ExitCode == 0 && spec.ExpectOutput != nil {
		if why := outputDiffers(o.Output, *spec.ExpectOutput, spec.MaxOutput); why != "" {
			return spec.failing(cmdline+" exited 0 but "+why, "")
		}
	}
	if o.ExitCode == 0 {
		v.Score = score(spec.PassScore)
		v.Passed = true
		v.FeedbackSummary = cmdline + " exited 0"
		if spec.ExpectOutput != nil {
			v.FeedbackSummary += " with the expected output"
		}
		return v
	}
	head := cmdline + " exited " + strconv.Itoa(o.ExitCode)
	if o.Signal != "" {
		head = cmdline + " was killed by signal " + o.Signal
	}
	return spec.failing(head, o.Output)
}

// failing is the verdict of a run that reached an end which fails the
// work: head says why, and the tail of output follows it.
func (spec Spec) failing(head, output string) verdict.Verdict {
	one := 1.0
	v := verdict.Verdict{JudgeType: spec.Name, Confidence: &one, CriteriaEvaluated: []string{"command: " + display(spec.Command)}, Score: score(spec.FailScore)}
	body := lastLines(output, MaxFeedbackBytes-len(head)-2)
	switch {
	case body != "":
		v.FeedbackSummary = head + ": " + body
	case output == "" && !strings.Contains(head, "output"):
		v.FeedbackSummary = head + " with no output"
	default:
		v.FeedbackSummary = head
	}
	return v
}

// outputDiffers compares a run's output with the expected text, trailing
// newlines ignored on both sides, and says where they first differ ("" if
// they do not). Output longer than max was cut, so it cannot be equal.
func outputDiffers(got, want string, max int) string {
	if len(got) > max {
		return fmt.Sprintf("its output is longer than the %d bytes kept, so not the expected output", max)
	}
	got, want = strings.TrimRight(got, "\n"), strings.TrimRight(want, "\n")
	if got == want {
		return ""
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	show := func(lines []string) string {
		if i >= len(lines) {
			return "end of output"
		}
		return strconv.Quote(safetext.Clip(lines[i], 80))
	}
	return fmt.Sprintf("its output differs from the expected output at line %d: printed %s, expected %s", i+1, show(g), show(w))
}

func score(f float64) []byte { return []byte(strconv.FormatFloat(f, 'f', -1, 64)) }

// Judge is one configured command judge, ready to run.
type Judge struct {
	Spec     Spec
	Required bool
}

// Configured turns the command judges of the settings into specs that run
// in dir with the base environment env, each validated; an invalid one is
// an error naming its settings key.
func Configured(js []config.CommandJudge, dir string, env []string) ([]Judge, error) {
	out := make([]Judge, 0, len(js))
	for _, j := range js {
		spec := Spec{
			Name: j.Name, Command: j.Command, Dir: dir, Env: env, Timeout: j.Timeout,
			PassScore: j.PassScore, FailScore: j.FailScore, MaxOutput: j.MaxOutput,
			TimeBudget: j.TimeBudget, ExpectOutput: j.ExpectOutput,
		}
		if err := spec.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", j.Key, err)
		}
		out = append(out, Judge{Spec: spec, Required: j.Required})
	}
	return out, nil
}
