package session

import (
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
)

// taskRecorder is the engine's Recorder for a task: a round's events,
// artifacts and gate decision go to the task's store, the project's
// ledger and the run's progress, cost and budget.
type taskRecorder struct{ r *runner }

func (t taskRecorder) Emit(p events.Payload, opts ...events.Option) { t.r.emit(p, opts...) }
func (t taskRecorder) Write(rel string, v any)                      { t.r.write(rel, v) }
func (t taskRecorder) Progress(format string, args ...any)          { t.r.progress(format, args...) }
func (t taskRecorder) LongPhase(label, what string) func()          { return t.r.longPhase(label, what) }
func (t taskRecorder) Budget(role string, calls int) error          { return t.r.budgetAllows(role, calls) }
func (t taskRecorder) AddCost(role string, res claude.Result)       { t.r.addCost(role, res) }
func (t taskRecorder) NewID() (string, error)                       { return t.r.newID() }

// BashNote keeps the first note of a judge without Bash for the summary
// and says it once.
func (t taskRecorder) BashNote(note string) {
	t.r.fileMu.Lock()
	defer t.r.fileMu.Unlock()
	if t.r.report.BashNote == "" {
		t.r.report.BashNote = note
		t.r.Note(note)
	}
}

// Ledger appends the gate decision to the project's signed ledger. A
// failure is a warning: the decision stands and is in the events and
// artifacts; `tribunal-session verify` will say what is wrong.
func (t taskRecorder) Ledger(iterationID string, rec any) {
	r := t.r
	_, err := ledger.Append(ledger.PathFor(r.project.Dir), ledger.KeyDir(r.emitter.Dir), ledger.KindGate,
		ledger.Fields{TaskID: r.taskID, IterationID: iterationID, SessionID: r.opts.SessionID, Redact: r.Redact}, rec, r.Now())
	if err != nil {
		r.Warn(fmt.Sprintf("gate decision not added to the ledger: %v", err))
	}
}
