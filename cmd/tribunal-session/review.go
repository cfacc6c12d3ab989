package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/review"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/session"
	"github.com/tribunal-cc/tribunal/internal/severity"
)

// reviewFlags are review's command line.
type reviewFlags struct {
	in                        review.Input
	diff, task, taskFile      string
	rubric, format, failOn    string
	cacheDir, dismissed, repo string
	sessionID, profile        string
	json, gate, noCache       bool
	budget                    float64
	quorum                    rules.Policy
	maxDiff                   int
	outputs                   []outputSpec
	set                       map[string]bool
	failAt                    severity.Level
}

// outputSpec is one --output FORMAT=FILE.
type outputSpec struct{ format, path string }

// maxReviewDiff bounds a diff read from --diff.
const maxReviewDiff = 64 << 20

func (c *cli) reviewFlags(args []string) (reviewFlags, int) {
	f := reviewFlags{set: map[string]bool{}}
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.in.Base, "base", "", "")
	fs.StringVar(&f.in.Head, "head", "", "")
	fs.BoolVar(&f.in.Staged, "staged", false, "")
	fs.BoolVar(&f.in.WorkTree, "worktree", false, "")
	fs.StringVar(&f.diff, "diff", "", "")
	fs.StringVar(&f.task, "task", "", "")
	fs.StringVar(&f.taskFile, "task-file", "", "")
	fs.StringVar(&f.rubric, "rubric", "", "")
	fs.BoolVar(&f.json, "json", false, "")
	fs.StringVar(&f.format, "format", "", "")
	fs.Func("output", "", func(v string) error {
		format, path, ok := strings.Cut(v, "=")
		if !ok || path == "" {
			return fmt.Errorf("want FORMAT=FILE, as sarif=review.sarif")
		}
		f.outputs = append(f.outputs, outputSpec{format, path})
		return nil
	})
	fs.BoolVar(&f.gate, "gate", false, "")
	fs.StringVar(&f.failOn, "fail-on", "", "")
	fs.Float64Var(&f.budget, "budget-usd", 0, "")
	fs.IntVar(&f.maxDiff, "max-diff-bytes", 0, "")
	fs.StringVar(&f.cacheDir, "cache-dir", "", "")
	fs.BoolVar(&f.noCache, "no-cache", false, "")
	fs.StringVar(&f.dismissed, "dismissed", "", "")
	fs.StringVar(&f.repo, "repo-url", "", "")
	fs.StringVar(&f.sessionID, "session-id", "", "")
	quorumFlag(fs, &f.quorum)
	profile := profileFlag(fs)
	if err := fs.Parse(args); err != nil {
		return f, c.flagError("review", fs, err)
	}
	if f.profile = *profile; !c.checkProfile("review", f.profile) {
		return f, exitUsage
	}
	if fs.NArg() > 0 {
		c.errorf("review: unexpected argument %q", fs.Arg(0))
		c.hint("name the change with --base REF [--head REF], --staged, --worktree or --diff FILE|-; the task with --task or --task-file")
		return f, exitUsage
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	return f, c.checkReviewFlags(&f)
}

// checkReviewFlags refuses values no review can use, before anything runs.
func (c *cli) checkReviewFlags(f *reviewFlags) int {
	bad := func(format string, args ...any) int {
		c.errorf("review: "+format, args...)
		c.hint("tribunal-session review -h lists the flags")
		return exitUsage
	}
	if f.json {
		if f.format != "" && f.format != reviewfmt.FormatJSON {
			return bad("--json and --format %s ask for two different outputs", f.format)
		}
		f.format = reviewfmt.FormatJSON
	}
	if f.format == "" {
		f.format = reviewfmt.FormatText
	}
	for _, o := range append([]outputSpec{{f.format, "-"}}, f.outputs...) {
		if !knownFormat(o.format) {
			return bad("unknown format %q (known: %s)", o.format, strings.Join(reviewfmt.Formats(), ", "))
		}
	}
	if f.failOn != "" {
		l, ok := severity.Parse(f.failOn)
		if !ok {
			return bad("--fail-on %q is not a severity (%s)", f.failOn, strings.Join(severity.Names(), " < "))
		}
		f.failAt = l
	}
	if f.set["budget-usd"] && f.budget <= 0 {
		return bad("--budget-usd must be above 0 (got %s)", strconv.FormatFloat(f.budget, 'f', -1, 64))
	}
	if f.set["max-diff-bytes"] && f.maxDiff < 1000 {
		return bad("--max-diff-bytes must be at least 1000 (got %d)", f.maxDiff)
	}
	if f.task != "" && f.taskFile != "" {
		return bad("--task and --task-file both give the task; pass one")
	}
	if f.set["diff"] && f.diff == "" {
		return bad("--diff needs a file, or - for standard input")
	}
	if f.diff == "-" && f.taskFile == "-" {
		return bad("--diff - and --task-file - cannot both read standard input")
	}
	return 0
}

func knownFormat(name string) bool {
	for _, f := range reviewfmt.Formats() {
		if f == name {
			return true
		}
	}
	return false
}

// readReviewInputs reads --diff and the task.
func (c *cli) readReviewInputs(f *reviewFlags) error {
	if f.diff != "" {
		var data []byte
		var err error
		if f.diff == "-" {
			data, err = io.ReadAll(io.LimitReader(c.stdin, maxReviewDiff+1))
		} else {
			data, err = readLimited(f.diff, maxReviewDiff+1)
		}
		if err != nil {
			return fmt.Errorf("cannot read the diff: %w", err)
		}
		if len(data) > maxReviewDiff {
			return fmt.Errorf("the diff from %s is over %d MiB", f.diff, maxReviewDiff>>20)
		}
		f.in.Diff, f.in.DiffName = data, f.diff
	}
	if f.taskFile != "" {
		task, err := c.readTask(f.taskFile, nil)
		if err != nil {
			return err
		}
		f.task = task
	}
	f.task = strings.TrimSpace(f.task)
	return nil
}

func readLimited(path string, n int64) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return io.ReadAll(io.LimitReader(fh, n))
}

func (c *cli) reviewCmd(ctx context.Context, args []string) int {
	f, code := c.reviewFlags(args)
	if code != 0 {
		return code
	}
	if err := c.readReviewInputs(&f); err != nil {
		c.errorf("review: %v", err)
		return exitUsage
	}
	dir, err := os.Getwd()
	if err != nil {
		c.errorf("cannot determine the current directory: %v", err)
		return exitUsage
	}
	root, err := projectkey.FindWorktreeRoot(dir)
	if err != nil {
		c.errorf("review: %q is not inside a git repository%s", dir, projectkey.NotRepoDetail(err))
		c.hint("run the review in a checkout of the repository whose change it judges")
		return exitUsage
	}
	environ := os.Environ()
	// The patch of a range is read only when no cached verdict answers
	// (runReview): a reused verdict costs no diff.
	// The size bounds and the secret-file rule are policy too: for a change
	// someone else wrote, the working tree (a CI checkout of the head)
	// may not choose them. Resolving the change needs none of the
	// repository's (a range is bounded when it is loaded, with the base's,
	// set below once the review has read them): the plugin's and the
	// user's own settings only (spec §7.14).
	boundsRoot := root
	if f.in.Untrusted() {
		boundsRoot = ""
	}
	// The master switch likewise: a change someone else wrote may not
	// turn its own review off.
	if code := c.refuseDisabled("review", boundsRoot); code >= 0 {
		return code
	}
	f.in.Secrets, f.in.Limits = c.changeBounds(boundsRoot)
	git := c.git(environ)
	if f.in.Staged && c.stagedIndex != "" {
		git = projectkey.ExecGitIndex("git", environ, c.stagedIndex)
	}
	change, err := review.Identify(ctx, git, root, f.in)
	if code, done := c.resolveFailed(err); done {
		return code
	}
	return c.runReview(ctx, f, dir, root, environ, change)
}

// resolveFailed reports a change that cannot or need not be reviewed.
func (c *cli) resolveFailed(err error) (int, bool) {
	var nothing *review.NothingError
	var bad *review.InputError
	switch {
	case err == nil:
		return 0, false
	case errors.As(err, &nothing):
		c.progress(nothing.Error() + "; no verdict written")
		return exitAccepted, true
	case errors.As(err, &bad):
		c.errorf("review: %v", bad.Err)
		c.hint("%s", bad.Hint)
		return exitUsage, true
	}
	c.errorf("review: %v", err)
	return exitUsage, true
}

// runReview sets the review up, reuses a cached verdict or judges, writes
// every output and decides the exit code.
func (c *cli) runReview(ctx context.Context, f reviewFlags, dir, root string, environ []string, change *review.Change) int {
	// A missing claude is an error only for a jury that calls a model, and
	// which jury that is comes from the policy NewReview loads (the base's,
	// for a change someone else wrote): asking the working tree first would
	// let a pull request's settings decide it.
	runner, missing := c.claudeRunner(dir, environ)
	if missing != nil {
		runner = missingClaude(missing)
	}
	opts := session.ReviewOptions{Dir: dir, Task: f.task, RubricID: f.rubric, Profile: f.profile, Change: change, DiffBytes: f.maxDiff, GatePolicy: f.quorum,
		Dismissed: f.dismissed, SessionID: firstNonEmpty(f.sessionID, c.getenv("CLAUDE_SESSION_ID"), c.getenv("CLAUDE_CODE_SESSION_ID"))}
	if f.set["budget-usd"] {
		opts.BudgetUSD = &f.budget
	}
	rv, err := session.NewReview(ctx, opts, c.sessionDeps(runner, environ))
	if err != nil {
		c.configError(err)
		return exitUsage
	}
	defer rv.Close()
	if missing != nil && !rv.Offline() {
		c.errorf("%v", missing)
		c.hint("install Claude Code (https://docs.claude.com/claude-code), or set TRIBUNAL_CLAUDE_BIN to the claude executable")
		return exitUsage
	}
	if change.Untrusted() {
		change.SetLimits(rv.ChangeLimits())
	}
	cache, ok := c.reviewCache(f, rv.ProjectDir())
	if !ok {
		return exitUsage
	}
	key := review.CacheKey(change, f.maxDiff, rv.Fingerprint())
	if entry, hit := c.cachedVerdict(cache, key); hit {
		entry.Review.Reused = true
		c.progress(fmt.Sprintf("review: verdict reused from review %s (same base, head, rubric and panel); no model was called", entry.Review.ID))
		return c.finishReview(f, c.refilter(entry, rv.SharedDismissals(), rv.ProjectDir()), nil)
	}
	if err := change.Load(ctx, c.git(environ), root); err != nil {
		code, _ := c.resolveFailed(err)
		return code
	}
	res, runErr := rv.Run(ctx)
	var cfgErr *judging.ConfigError
	if errors.As(runErr, &cfgErr) {
		c.configError(cfgErr)
		return exitUsage
	}
	entry := fromResult(res, rv, f.task)
	if runErr == nil && entry.Review.Outcome != reviewfmt.OutcomeNoVerdict {
		if err := cache.Put(key, entry); err != nil {
			c.warning(err.Error())
		}
	}
	code := c.finishReview(f, entry, runErr)
	// As for a task: after the verdict is written, bounded, one warning.
	c.exportTask(ctx, entry.Review.ID)
	return code
}
