// Package calibrate measures tribunal's judges against labelled cases: it
// judges each case the way the product would (the /tribunal jury,
// meta-judge and gate, or the Stop hook's advisory judge) and reports how
// the decisions compare with the labels.
package calibrate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/llm/provider/openai"
	"github.com/tribunal-cc/tribunal/internal/store/events"
)

// Options are what the user asked for.
type Options struct {
	CasesPath string
	// Stop judges with the Stop hook's advisory judge instead of the jury.
	Stop bool
	// Swap judges every case a second time with the diff's files in
	// reverse order.
	Swap bool
	// Mutate judges the accepted cases and deterministic breakages of
	// their diffs (internal/judging/calibrate/mutate) and reports the share of mutants
	// scored below their original, per mutation kind.
	Mutate bool
	// Jobs is how many cases are judged at once (default 1).
	Jobs     int
	RubricID string
	// Holdout, when above 0, is the fraction of the cases (chosen by a
	// hash of their ids) held out of the threshold sweep's pick and used
	// only to measure it.
	Holdout float64
	// FromHistory and WriteCases are --from-history --write-cases FILE:
	// build cases from the user's decisions (FromHistory) and write them
	// to FILE for review; nothing is judged.
	FromHistory bool
	WriteCases  string
	// Against is --against REPORT: an earlier calibrate --json report to
	// compare this run's figures with.
	Against string
	// Repeat is --repeat K: every case judged K times (K rollouts), the
	// run-to-run noise measured over them and, with Against, the
	// difference called only when it exceeds the noise (spec §14.1).
	// 0 and 1 are one rollout.
	Repeat int
	// MinDifference is --min-difference: the difference in agreement
	// asked for, which the noise must not exceed (DefaultMinDifference
	// when 0).
	MinDifference float64
	// Dir is where the command runs: its repository's configuration
	// layers apply (none outside a repository).
	Dir string
}

// Deps is everything a run touches outside memory: the shared
// environment (internal/env; TempDir holds the cases' working
// directories, Progress receives one line per finished judging) and Bar,
// which, when set (a terminal), receives the progress bar instead of
// Progress, each state to be redrawn in place of the last.
type Deps struct {
	env.Env
	Bar func(string)
}

// InputError is a problem with the cases file or the invocation: nothing
// was judged.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// ErrInterrupted marks a run stopped by a signal; what was judged is
// cached and the report covers it.
var ErrInterrupted = errInterrupted

// Run judges every case and returns the report. A *InputError or a
// *judging.ConfigError means nothing ran; ErrInterrupted comes with a
// partial report.
func Run(ctx context.Context, opts Options, d Deps) (*Report, error) {
	d.Env = d.Env.WithDefaults()
	if opts.Jobs < 1 {
		opts.Jobs = 1
	}
	start := d.Now()
	cases, skipped, err := loadCases(opts.CasesPath, d.Warn)
	if err != nil {
		return nil, err
	}
	if err := checkHoldout(cases, opts.Holdout); err != nil {
		return nil, err
	}
	var prior *Report
	if opts.Against != "" {
		if prior, err = readPrior(opts.Against); err != nil {
			return nil, err
		}
	}
	var mut *mutation
	if opts.Mutate {
		if cases, mut, err = withMutants(cases, opts.CasesPath); err != nil {
			return nil, err
		}
	}
	worktree, _ := projectkey.FindWorktreeRoot(opts.Dir)
	j, err := newJudge(opts, d, worktree)
	if err != nil {
		return nil, err
	}
	onlookerDir, _ := events.ResolvePaths(d.Getenv, d.Home)
	c := &calibration{opts: opts, d: d, judge: j, cache: newCache(onlookerDir), cases: cases, mut: mut}
	if err := c.judgeAll(ctx); err != nil {
		if !errors.Is(err, ErrInterrupted) {
			return nil, err
		}
		rep := c.report(skipped, d.Now().Sub(start))
		return rep, err
	}
	rep := c.report(skipped, d.Now().Sub(start))
	if prior != nil {
		rep.Against = against(opts.Against, prior, rep)
		if opts.Repeat > 0 {
			rep.Against.Noise = noiseGate(rep, prior, opts.minDifference())
		}
	}
	return rep, nil
}

func loadCases(path string, warn func(string)) ([]Case, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, &InputError{fmt.Errorf("cannot read the cases file: %w", err)}
	}
	defer f.Close()
	skipped := 0
	cases, err := ReadCases(f, func(line int, why string) {
		skipped++
		warn(fmt.Sprintf("%s:%d: %s; line skipped", path, line, why))
	})
	if err != nil {
		return nil, skipped, &InputError{fmt.Errorf("%s: %w", path, err)}
	}
	if len(cases) == 0 {
		return nil, skipped, &InputError{fmt.Errorf("%s has no usable case (%d line(s) skipped)", path, skipped)}
	}
	return cases, skipped, nil
}

func newJudge(opts Options, d Deps, worktree string) (judge, error) {
	if opts.Stop {
		cfg := config.Load(config.Sources{PluginRoot: d.Getenv("CLAUDE_PLUGIN_ROOT"), Home: d.Home, WorktreeRoot: worktree, Warn: d.Warn})
		j := stopJudge{claude: d.Claude, settings: cfg.StopHook(), spec: provider.Of(cfg.StopProvider())}
		if !j.spec.IsClaude() {
			// Another family's client, as the hook would use it.
			if err := j.spec.Validate(d.Getenv); err != nil {
				return nil, &judging.ConfigError{Err: err}
			}
			j.settings.Model = j.spec.QualifiedModel("")
			j.claude = provider.Deps{
				Claude: d.Claude, Getenv: d.Getenv, Environ: d.Environ,
				CodexPath: cfg.CLIPath(provider.Codex), GeminiPath: cfg.CLIPath(provider.Gemini),
				OpenAI: func(s provider.Spec) claude.Runner { return openai.Runner(openai.Options{Getenv: d.Getenv}, s) },
				Redact: provider.Redactor(provider.Specs(cfg.Providers()), d.Getenv, d.Environ),
			}.Runner(j.spec)
		}
		return j, nil
	}
	jury, err := judging.Load(judging.Options{RubricID: opts.RubricID, WorktreeRoot: worktree}, env.Env{
		Getenv: d.Getenv, Home: d.Home, Warn: d.Warn, Relay: d.Relay, Now: d.Now, Claude: d.Claude, Environ: d.Environ, Schemas: d.Schemas,
	})
	if err != nil {
		return nil, err
	}
	return juryJudge{jury: jury}, nil
}

// calibration is one run's state.
type calibration struct {
	opts  Options
	d     Deps
	judge judge
	cache cache
	cases []Case
	// mut is --mutate's plan; nil without it.
	mut *mutation
	// results[i] and swapped[i] belong to cases[i]; repeats[k-1][i] is
	// rollout k of cases[i] (--repeat).
	results, swapped []outcome
	repeats          [][]outcome
	prog             *progress
}

type outcome struct {
	Judgement
	cached bool
	done   bool
}

// job is one judging: case i, original or swapped, in rollout rollout
// (0: the first; --repeat adds more).
type job struct {
	i       int
	swap    bool
	rollout int
}

func (c *calibration) judgeAll(ctx context.Context) error {
	c.results = make([]outcome, len(c.cases))
	c.swapped = make([]outcome, len(c.cases))
	var jobs []job
	for i := range c.cases {
		jobs = append(jobs, job{i: i})
		if c.opts.Swap {
			jobs = append(jobs, job{i: i, swap: true})
		}
	}
	jobs = append(jobs, c.rolloutJobs()...)
	tmp, err := os.MkdirTemp(c.d.TempDir, "tribunal-calibrate-")
	if err != nil {
		return fmt.Errorf("create a temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	c.prog = newProgress(c.d.Progress, c.d.Bar, len(jobs))
	queue := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for w := 0; w < c.opts.Jobs && w < len(jobs); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range queue {
				if err := c.one(ctx, tmp, jb); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, jb := range jobs {
		if ctx.Err() != nil {
			break
		}
		select {
		case queue <- jb:
		case <-ctx.Done():
		}
	}
	close(queue)
	wg.Wait()
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %d of %d judging(s) done and cached; run the same command again to resume", ErrInterrupted, c.prog.done, len(jobs))
	}
	return firstErr
}

// one judges one job, through the cache.
func (c *calibration) one(ctx context.Context, tmp string, jb job) error {
	cs := c.cases[jb.i]
	files, err := caseFiles(cs.Diff, jb.swap)
	if err != nil {
		c.store(jb, outcome{Judgement: Judgement{Decision: "failed", Error: err.Error()}, done: true})
		return nil
	}
	key := cacheKey(c.judge.fingerprint(cs, files), cs)
	if jb.rollout > 0 {
		key = rolloutKey(key, jb.rollout)
	}
	if j, ok := c.cache.get(key); ok {
		c.store(jb, outcome{Judgement: j, cached: true, done: true})
		return nil
	}
	start := c.d.Now()
	w, err := materialise(ctx, c.d.Git, tmp, cs)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		c.store(jb, outcome{Judgement: Judgement{Decision: "failed", Error: err.Error()}, done: true})
		return nil
	}
	j := c.judge.run(ctx, cs, files, w)
	w.remove()
	if ctx.Err() != nil {
		// An interrupted judging is no judging: neither reported nor
		// cached, so the next run does it again.
		return nil
	}
	j.DurationMS = c.d.Now().Sub(start).Milliseconds()
	j.Note = w.Note
	if j.Decision == "pass" || j.Decision == "fail" {
		if err := c.cache.put(key, cs.ID, j); err != nil {
			c.d.Warn(fmt.Sprintf("result of case %q not cached: %v", cs.ID, err))
		}
	}
	c.store(jb, outcome{Judgement: j, done: true})
	return nil
}

func (c *calibration) store(jb job, o outcome) {
	if jb.rollout > 0 {
		c.repeats[jb.rollout-1][jb.i] = o
		c.prog.step(c.cases[jb.i].ID, false, o)
		return
	}
	if jb.swap {
		c.swapped[jb.i] = o
	} else {
		c.results[jb.i] = o
	}
	c.prog.step(c.cases[jb.i].ID, jb.swap, o)
}
