package stophook

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/judging/stopjudge"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// recorder writes what came of one job. Every write draws its waits from
// the deadline; what could not be written is reported in one line.
type recorder struct {
	d        Deps
	j        job
	warn     func(string, ...any)
	deadline time.Time
	// stopFile and taskID are set once a verdict was recorded.
	stopFile string
	taskID   string
}

func newRecorder(d Deps, j job, warn func(string, ...any)) *recorder {
	return &recorder{d: d, j: j, warn: warn, deadline: j.Deadline}
}

func (r *recorder) now() time.Time { return r.d.Now() }

func (r *recorder) entropy() interface{ Read([]byte) (int, error) } {
	if r.d.Rand != nil {
		return r.d.Rand
	}
	return rand.Reader
}

// verdict emits the six events (spec §8.6), each best-effort, then writes the
// stop file, the session's history record and the ledger entry: events
// first, so a reader that sees the file can find its chain. With rw (fix
// mode hands the verdict back) the gate event says the model will retry and
// the rewake gets a ledger entry of its own; the result says whether all of
// that was recorded, since a rewake is never made without its record.
func (r *recorder) verdict(a stopjudge.Verdict, res claude.Result, rw *rewakeRecord) (rewakeRecorded bool) {
	rewake := rw != nil
	now := r.now
	var ids [3]string
	for i := range ids {
		id, err := events.NewULID(r.entropy(), now())
		if err != nil {
			r.warn("cannot mint ids: %v", err)
			return false
		}
		ids[i] = id
	}
	taskID, iterID := ids[0], ids[1]
	c := r.chain(a, res, rewake, ids)
	failed, firstErr := r.emit(c.events)
	file := records.StopFile{
		TaskID:      taskID,
		SessionID:   r.j.SessionID,
		Outcome:     c.outcome,
		Verdict:     c.verdict,
		Mode:        records.Mode,
		Fingerprint: r.j.Fingerprint,
		WrittenAt:   now().UTC().Format(time.RFC3339),
		CostUSD:     res.CostUSD,
		Judge:       &r.j.Judge, Cascade: a.Cascade,
	}
	stopPath := records.StopPath(r.j.ProjectDir, r.j.SessionID)
	fileErr := store.WriteJSONRedacted(stopPath, file, r.d.Redact)
	store.SweepTemp(r.j.ProjectDir, time.Hour, now())
	histErr := errors.Join(r.history(records.Judgement{
		TaskID: taskID, Outcome: c.outcome, Verdict: &c.verdict, Fingerprint: r.j.Fingerprint,
		CostUSD: res.CostUSD, DurationMS: &c.ms, Rewake: rewake, LeftOut: a.LeftOut, Cascade: a.Cascade,
	}), r.evidence(taskID, a.Diff))
	_, ledgerErr := ledger.AppendWithin(time.Until(r.deadline), ledger.PathFor(r.j.ProjectDir), ledger.KeyDir(r.j.OnlookerDir), ledger.KindAdvisory,
		ledger.Fields{TaskID: taskID, IterationID: iterID, SessionID: r.j.SessionID, Redact: r.d.Redact}, file, now())
	if failed == 0 {
		r.handOff(taskID)
	}
	if fileErr == nil {
		r.stopFile, r.taskID = stopPath, taskID
	}
	var rewakeErr error
	if rewake {
		rewakeErr = r.rewakeEntry(rw, taskID)
	}
	rewakeRecorded = rewake && failed == 0 && rewakeErr == nil && fileErr == nil
	r.reportLost(lostWrites{fileErr: fileErr, histErr: histErr, ledgerErr: ledgerErr, rewakeErr: rewakeErr,
		failed: failed, firstErr: firstErr, rewake: rewake, rewakeRecorded: rewakeRecorded})
	return rewakeRecorded
}

// stopChain is the one-judge, one-iteration task an advisory verdict is
// recorded as: its six events, its verdict and its outcome.
type stopChain struct {
	events  []chainEvent
	verdict events.Verdict
	outcome string
	ms      int
}

// chain builds the six events of spec §8.6 for a, under the task,
// iteration and judge ids of ids.
func (r *recorder) chain(a stopjudge.Verdict, res claude.Result, rewake bool, ids [3]string) stopChain {
	taskID, iterID, judgeID := ids[0], ids[1], ids[2]
	model := firstNonEmpty(a.Model, r.j.Settings.Model)
	threshold := r.j.Settings.ScoreThreshold
	v := events.Verdict{
		TaskID:          taskID,
		Score:           a.Score,
		Passed:          a.Passed,
		JudgeType:       "standard",
		IterationID:     iterID,
		JudgeID:         judgeID,
		FeedbackSummary: a.Feedback,
		Confidence:      events.Ptr(a.Confidence),
		JudgeModelID:    model,
	}
	outcome := records.OutcomeRejected
	blocked := events.GateBlocked{
		TaskID: taskID, IterationID: iterID, Reason: rules.ReasonLowScore,
		FinalScore: events.Ptr(a.Score), IterationNumber: events.Ptr(0),
		WillRetry: events.Ptr(rewake),
	}
	if rewake {
		blocked.RetryIterationNumber = events.Ptr(1)
	}
	var gateEvent events.Payload = blocked
	if a.Passed {
		outcome = records.OutcomeAccepted
		gateEvent = events.GatePassed{
			TaskID: taskID, IterationID: iterID, FinalScore: a.Score,
			IterationNumber: events.Ptr(0), JudgesConsulted: events.Ptr(1),
		}
	}
	start := events.SessionStart{
		TaskID: taskID, JudgeTypes: []string{"standard"}, GatePolicy: rules.Strict,
		ScoreThreshold: events.Ptr(threshold), MaxIterations: events.Ptr(1),
	}
	if model != "" {
		start.JudgeModelIDs = []string{model}
	}
	complete := events.SessionComplete{
		TaskID: taskID, Outcome: outcome, FinalScore: events.Ptr(a.Score),
		IterationsUsed: events.Ptr(1),
	}
	if res.CostUSD != nil {
		complete.TotalCostUSD = res.CostUSD
	}
	ms := int(res.Duration / time.Millisecond)
	if ms >= 0 {
		complete.TotalDurationMS = events.Ptr(ms)
	}
	var callOpts []events.Option
	if res.CostUSD != nil {
		callOpts = append(callOpts, events.WithCost(*res.CostUSD))
	}
	if res.Tokens != nil {
		callOpts = append(callOpts, events.WithTokens(*res.Tokens))
	}
	return stopChain{verdict: v, outcome: outcome, ms: ms, events: []chainEvent{
		{p: start},
		{p: events.IterationStart{TaskID: taskID, IterationID: iterID, IterationNumber: 0, Trigger: "initial"}},
		{p: events.JudgeStart{TaskID: taskID, IterationID: iterID, JudgeID: judgeID, JudgeType: "standard", JudgeModelID: model}},
		{p: v, opts: callOpts},
		{p: gateEvent},
		{p: complete},
	}}
}

// lostWrites is what recording one advisory verdict failed to keep.
type lostWrites struct {
	fileErr, histErr, ledgerErr, rewakeErr error
	failed                                 int // events not recorded
	firstErr                               error
	rewake, rewakeRecorded                 bool
}

// reportLost warns about every write that failed. One storage fault
// usually breaks every write at once: name all that was lost in one line,
// with the first cause.
func (r *recorder) reportLost(l lostWrites) {
	var lost []string
	var cause error
	note := func(what string, err error) {
		if err == nil {
			return
		}
		lost = append(lost, what)
		if cause == nil {
			cause = err
		}
	}
	note("the advisory verdict was not saved", l.fileErr)
	if l.failed > 0 {
		note(fmt.Sprintf("%d of 6 events were not recorded", l.failed), l.firstErr)
	}
	note("the session's history was not extended", l.histErr)
	note("the ledger was not extended", l.ledgerErr)
	note("the rewake was not written to the ledger", l.rewakeErr)
	if l.rewake && !l.rewakeRecorded && len(lost) > 0 {
		lost = append(lost, "so the failing verdict was not handed back to the model (it waits for the next prompt)")
	}
	if len(lost) > 0 {
		if !r.now().Before(r.deadline) {
			r.warn("out of time: kept %s; %s: %v", r.kept(l.fileErr, l.histErr), strings.Join(lost, ", "), cause)
		} else {
			r.warn("%s: %v", strings.Join(lost, ", "), cause)
		}
	}
}

// kept names what was written before time ran out.
func (r *recorder) kept(fileErr, histErr error) string {
	var kept []string
	if fileErr == nil {
		kept = append(kept, "the verdict's stop file")
	}
	if histErr == nil {
		kept = append(kept, "its history record")
	}
	if len(kept) == 0 {
		return "nothing"
	}
	return strings.Join(kept, " and ")
}

type chainEvent struct {
	p    events.Payload
	opts []events.Option
}

// emit attempts every event (a transient failure must not cost the rest)
// and returns how many failed and the first cause: a broken log is
// reported once, not six times.
func (r *recorder) emit(chain []chainEvent) (failed int, firstErr error) {
	em := &events.Emitter{Dir: r.j.OnlookerDir, LogPath: r.j.LogPath, SessionID: r.j.SessionID,
		Now: r.d.Now, Rand: r.entropy(), Deadline: r.deadline, Redact: r.d.Redact}
	for _, e := range chain {
		if err := em.Emit(e.p, e.opts...); err != nil {
			failed++
			if firstErr == nil {
				firstErr = err
			}
		}
	}
	return failed, firstErr
}

// fail records a judgement that produced no verdict in the session's
// history, where `log` and `show` list it with its reason.
func (w *worker) fail(a records.Judgement) {
	newRecorder(w.Deps, w.j, w.warn).failure(a)
}

// failure records a, whose outcome says how it failed.
func (r *recorder) failure(a records.Judgement) {
	id, err := events.NewULID(r.entropy(), r.now())
	if err != nil {
		r.warn("cannot mint ids: %v", err)
		return
	}
	a.TaskID, a.Fingerprint = id, r.j.Fingerprint
	if err := r.history(a); err != nil {
		r.warn("the failed judgement was not recorded: %v", err)
	}
}

// markPending tells the session's next prompt about the verdict just
// recorded (surface.RunPrompt shows it once).
func (r *recorder) markPending() {
	if r.stopFile == "" {
		return
	}
	err := records.WritePending(r.j.OnlookerDir, r.j.SessionID, records.Pending{
		ProjectDir: r.j.ProjectDir, StopFile: r.stopFile, TaskID: r.taskID,
	}, r.now())
	if err != nil {
		r.warn("the verdict will not be shown at the next prompt: %v", err)
	}
}

// previousFingerprint reads the fingerprint stored in the session's stop
// file; "" when there is none or the file is unreadable.
func previousFingerprint(projectDir, sessionID string) string {
	path := records.StopPath(projectDir, sessionID)
	// A missing, unreadable or oversized file simply means "no previous
	// verdict": the hook judges again rather than complaining every turn.
	data, ok := store.ReadOptional(path, 1<<20, func(string) {})
	if !ok {
		return ""
	}
	return gjson.GetBytes(data, "fingerprint").String()
}

// firstNonEmpty is the first of vs that is not "".
func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
