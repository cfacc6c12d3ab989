package judging

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// JudgeDiffBytes bounds the diff in a judge's prompt exactly as the Stop
// hook's judge is bounded. Judges can read the files themselves; the diff
// tells them where to look and what changed. A review's default bound is
// this one (session.ReviewOptions.DiffBytes).
const JudgeDiffBytes = prompts.StopDiffBudget

// BoundedDiff renders a unified diff for the judges within
// JudgeDiffBytes, every file listed, bodies shared fairly (internal/git/unidiff).
func BoundedDiff(patch string) string {
	if patch == "" {
		return ""
	}
	return unidiff.Render(unidiff.Parse([]byte(patch)), JudgeDiffBytes)
}

// shadowDiff renders a Work's change for the judges' prompt, bounded
// exactly as an isolated task's diff is.
func shadowDiff(files []unidiff.File) string { return unidiff.Render(files, JudgeDiffBytes) }

// Work is one finished piece of work to judge.
type Work struct {
	Task string
	// Files are the change (internal/git/unidiff), shown to the judges where a
	// run shows its diff, bounded the same way.
	Files []unidiff.File
	// ActorOutput is the actor's final message (a recorded one, or a
	// neutral line for a labelled case).
	ActorOutput string
	// Iteration is the iteration number the judges are told.
	Iteration int
	// Dir is the judges' working directory: the work's files.
	Dir string
}

// Judgement is what the jury, the meta-judge and the gate made of a Work.
type Judgement struct {
	Iteration IterationReport   `json:"iteration"`
	Verdicts  []verdict.Verdict `json:"verdicts"`
	CostUSD   *float64          `json:"cost_usd,omitempty"`
	// Usable is how many seats produced a usable score; 0 means the jury
	// never judged (every call failed) and the gate's "block" is no
	// verdict on the work.
	Usable int `json:"usable_verdicts"`
}

// JudgeDiff runs spec §7.4 steps 3–7 on w exactly as an iteration of `run`
// would, with no actor, no events, no artifacts and no ledger entry.
// Command judges do not sit: they test the repository's working tree, not
// w. It is safe to call from several goroutines at once.
func (j *Jury) JudgeDiff(ctx context.Context, w Work) (Judgement, error) {
	rec := &shadow{env: j.env, start: j.env.Now()}
	iterID, err := rec.NewID()
	if err != nil {
		return Judgement{}, err
	}
	it := &Round{Report: IterationReport{Number: w.Iteration, IterationID: iterID}, ActorOutput: w.ActorOutput}
	err = j.Judge(ctx, Input{
		Task: w.Task, ActorOutput: w.ActorOutput, Dir: w.Dir,
		Diff: shadowDiff(w.Files), Files: w.Files, Isolated: true, Label: fmt.Sprintf("[%d]", w.Iteration+1),
	}, it, rec)
	if errors.Is(err, ErrNoVerdict) {
		// A run aborts the task here; for a shadow jury it is a result:
		// Usable 0 says the jury never judged w.
		err = nil
	}
	it.Report.DurationMS = int(j.env.Now().Sub(rec.start) / time.Millisecond)
	out := Judgement{Iteration: it.Report, Verdicts: it.Verdicts}
	for _, v := range it.Verdicts {
		if _, ok := v.UsableScore(); ok {
			out.Usable++
		}
	}
	if rec.costSeen {
		c := math.Round(rec.cost*1e10) / 1e10
		out.CostUSD = &c
	}
	return out, err
}

// shadow is JudgeDiff's Recorder: it keeps no event, artifact or ledger
// entry, only the cost, and prints the progress lines with the time since
// the judging started.
type shadow struct {
	env      env.Env
	start    time.Time
	mu       sync.Mutex
	costSeen bool
	cost     float64
}

func (s *shadow) Emit(events.Payload, ...events.Option) {}
func (s *shadow) Write(string, any)                     {}
func (s *shadow) BashNote(string)                       {}
func (s *shadow) Ledger(string, any)                    {}
func (s *shadow) Budget(string, int) error              { return nil }

func (s *shadow) Progress(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.env.Progress(fmt.Sprintf("[%s] "+format, append([]any{ClockTime(s.env.Now().Sub(s.start))}, args...)...))
}

func (s *shadow) LongPhase(label, what string) func() {
	return LongPhase(s.env.Heartbeat, s.env.Now, s.Progress, label, what)
}

func (s *shadow) AddCost(_ string, res claude.Result) {
	if res.CostUSD == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.costSeen = true
	s.cost += *res.CostUSD
}

func (s *shadow) NewID() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := events.NewULID(s.env.Rand, s.env.Now())
	if err != nil {
		return "", fmt.Errorf("mint an id: %w", err)
	}
	return id, nil
}

// ClockTime prints an elapsed time as m:ss (h:mm:ss past an hour).
func ClockTime(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// defaultHeartbeat is how often a long phase reports that it is alive.
const defaultHeartbeat = 30 * time.Second

// LongPhase says "<label> still <what> (<time> so far)" through say every
// `every` (0: every 30 seconds; negative: never) until the returned stop
// is called: a judge may think for minutes, and a person (or a detached
// run's wait) should see that the run is alive and how long the phase
// has taken.
func LongPhase(every time.Duration, now func() time.Time, say func(string, ...any), label, what string) (stop func()) {
	if every == 0 {
		every = defaultHeartbeat
	}
	if every < 0 {
		return func() {}
	}
	begun := now()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				say("%s still %s (%s so far)", label, what, ClockTime(now().Sub(begun)))
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}
