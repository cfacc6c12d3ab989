package stophook

import (
	"crypto/rand"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/claude"
	"github.com/tribunal-cc/tribunal/internal/events"
	"github.com/tribunal-cc/tribunal/internal/ledger"
	"github.com/tribunal-cc/tribunal/internal/provider"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// Mode marks a stop file as an advisory verdict.
const Mode = "stop-advisory"

// File is the content of stop-<sid>.json (§8.8 plus the Go additions).
type File struct {
	TaskID      string         `json:"task_id"`
	SessionID   string         `json:"session_id"`
	Outcome     string         `json:"outcome"`
	Verdict     events.Verdict `json:"verdict"`
	Mode        string         `json:"mode"`
	Fingerprint string         `json:"fingerprint"`
	WrittenAt   string         `json:"written_at"`
	CostUSD     *float64       `json:"cost_usd,omitempty"`
	// Judge says which client and model family gave the verdict.
	Judge *provider.Info `json:"judge,omitempty"`
}

// record emits the six events (§8.7), each best-effort, then writes the stop
// file: events first, so a reader that sees the file can find its chain.
func (h *hook) record(a advisory, res claude.Result, fp, onlookerDir, logPath, stopPath string) {
	now := h.Now
	if now == nil {
		now = time.Now
	}
	entropy := h.Rand
	if entropy == nil {
		entropy = rand.Reader
	}
	var ids [3]string
	for i := range ids {
		id, err := events.NewULID(entropy, now())
		if err != nil {
			h.warn("cannot mint ids: %v", err)
			return
		}
		ids[i] = id
	}
	taskID, iterID, judgeID := ids[0], ids[1], ids[2]
	model := h.stop.Model
	threshold := h.stop.ScoreThreshold

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
	outcome := "rejected"
	var gateEvent events.Payload = events.GateBlocked{
		TaskID: taskID, IterationID: iterID, Reason: "low_score",
		FinalScore: events.Ptr(a.Score), IterationNumber: events.Ptr(0),
		WillRetry: events.Ptr(false),
	}
	if a.Passed {
		outcome = "accepted"
		gateEvent = events.GatePassed{
			TaskID: taskID, IterationID: iterID, FinalScore: a.Score,
			IterationNumber: events.Ptr(0), JudgesConsulted: events.Ptr(1),
		}
	}
	start := events.SessionStart{
		TaskID: taskID, JudgeTypes: []string{"standard"}, GatePolicy: "strict",
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
	if ms := int(res.Duration / time.Millisecond); ms >= 0 {
		complete.TotalDurationMS = events.Ptr(ms)
	}
	var callOpts []events.Option
	if res.CostUSD != nil {
		callOpts = append(callOpts, events.WithCost(*res.CostUSD))
	}
	if res.Tokens != nil {
		callOpts = append(callOpts, events.WithTokens(*res.Tokens))
	}
	sid := h.in.SessionID
	em := &events.Emitter{Dir: onlookerDir, LogPath: logPath, SessionID: sid, Now: now, Rand: entropy}
	chain := []struct {
		p    events.Payload
		opts []events.Option
	}{
		{p: start},
		{p: events.IterationStart{TaskID: taskID, IterationID: iterID, IterationNumber: 0, Trigger: "initial"}},
		{p: events.JudgeStart{TaskID: taskID, IterationID: iterID, JudgeID: judgeID, JudgeType: "standard", JudgeModelID: model}},
		{p: v, opts: callOpts},
		{p: gateEvent},
		{p: complete},
	}
	// Every event is attempted (a transient failure must not cost the
	// rest), but a broken log is reported once, not six times: the hook
	// speaks in one stderr line per problem.
	var failed []string
	var firstErr error
	for _, e := range chain {
		if err := em.Emit(e.p, e.opts...); err != nil {
			failed = append(failed, e.p.EventType())
			if firstErr == nil {
				firstErr = err
			}
		}
	}
	file := File{
		TaskID:      taskID,
		SessionID:   sid,
		Outcome:     outcome,
		Verdict:     v,
		Mode:        Mode,
		Fingerprint: fp,
		WrittenAt:   now().UTC().Format(time.RFC3339),
		CostUSD:     res.CostUSD,
		Judge:       &h.judge,
	}
	fileErr := store.WriteJSON(stopPath, file)
	store.SweepTemp(filepath.Dir(stopPath), time.Hour, now())
	_, ledgerErr := ledger.Append(ledger.PathFor(filepath.Dir(stopPath)), ledger.KeyDir(onlookerDir), ledger.KindAdvisory,
		ledger.Fields{TaskID: taskID, IterationID: iterID, SessionID: sid}, file, now())
	// One storage fault usually breaks every write at once: name all that
	// was lost in one line, with the first cause.
	var lost []string
	var cause error
	if fileErr != nil {
		lost, cause = append(lost, "the advisory verdict was not saved"), fileErr
	}
	if len(failed) > 0 {
		lost = append(lost, fmt.Sprintf("%d of %d events were not recorded", len(failed), len(chain)))
		if cause == nil {
			cause = firstErr
		}
	}
	if ledgerErr != nil {
		lost = append(lost, "the ledger was not extended")
		if cause == nil {
			cause = ledgerErr
		}
	}
	if len(lost) > 0 {
		h.warn("%s: %v", strings.Join(lost, ", "), cause)
	}
}
