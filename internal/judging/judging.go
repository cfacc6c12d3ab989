// Package judging is the judging engine: it loads a jury's configuration
// and judges one piece of work — seats, provider calls with reps, verdicts,
// trust, meta-judge and gate — for the /tribunal loop, calibrate, rejudge
// and review.
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
// task with its store, events and ledger entry, is session.JudgeChange;
// `tribunal-session review` is such a round too (session.Reviewer), with
// the head state it makes and a dismissal filter (Input.Keep). Both record
// through session's Recorder; a caller with a store of its own can call
// Judge with its own Recorder.
package judging

import (
	"errors"
)

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
