// Package judging is the judging engine: it loads a jury's configuration and judges one piece of work — seats, provider calls with reps, verdicts, trust, meta-judge and gate — for the /tribunal loop, calibrate, rejudge and review.
//
// A Jury is loaded once (Load) from the configuration layers. Each round
// of judging is one call of Jury.Judge: it judges the change of an Input
// (a task, the directory holding the change, the diff shown to the
// judges) and hands every event, artifact, ledger entry, cost and progress
// line to a Recorder. The loop in internal/session records through the
// task's store; JudgeDiff judges with a Recorder that keeps nothing, for
// work that no task of this run produced (calibrate, rejudge).
//
// One recorded round of judging a given change in a given directory, as a
// task with its store, events and ledger entry (`tribunal-session
// review`), is session.Review: it loads the Jury and records the round
// through session's Recorder. A caller with a store of its own can call
// Judge with its own Recorder.
package judging

import (
	"errors"
	"io"
	"time"

	"github.com/tribunal-cc/tribunal/internal/claude"
	"github.com/tribunal-cc/tribunal/internal/redact"
)

// Env is what the engine touches outside memory. The cmd layer fills it
// (internal/ never reads the process environment); nil sinks discard.
type Env struct {
	Getenv func(string) string
	Home   string
	// Warn receives each warning of the settings and the run; Relay the
	// warnings of the decision packages (aggregate, verdict, severity,
	// jury, gate), which name their source themselves; Progress one line
	// per step. All get plain text.
	Warn     func(string)
	Relay    func(string)
	Progress func(string)
	// Heartbeat is how often a long phase (the jury, the meta-judge)
	// says it is still going: 0 means every 30 seconds, a negative value
	// never.
	Heartbeat time.Duration
	Now       func() time.Time
	Rand      io.Reader
	Claude    claude.Runner
	// Environ is the environment of model CLIs and command judges (their
	// PATH comes from here, never from the repository).
	Environ []string
	// Sandbox says whether Claude Code's Bash sandbox can run for a judge
	// (docs/security.md §2.4); nil checks this machine.
	Sandbox func() claude.SandboxSupport
	// Redact scrubs the configured credentials from everything stored or
	// printed; nil means Load builds it from the configured providers.
	Redact *redact.Redactor
}

// withDefaults fills the clock and the sinks a caller left unset.
func (e Env) withDefaults() Env {
	if e.Now == nil {
		e.Now = time.Now
	}
	if e.Getenv == nil {
		e.Getenv = func(string) string { return "" }
	}
	for _, f := range []*func(string){&e.Warn, &e.Relay, &e.Progress} {
		if *f == nil {
			*f = func(string) {}
		}
	}
	return e
}

// ConfigError is a setup failure caused by the user's configuration or
// invocation (a bad rubric, an invalid setting, an empty panel, no
// repository): nothing is judged. Hint, when set, says what to do instead
// of the generic "fix the setting".
type ConfigError struct {
	Err  error
	Hint string
}

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// ErrInterrupted marks judging stopped by a signal or a cancelled context.
var ErrInterrupted = errors.New("interrupted")

// ErrNoVerdict marks a round in which no judge produced a usable verdict.
var ErrNoVerdict = errors.New("no judge produced a usable verdict")
