package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/store/retention"
)

// gcOptions are gc's flags.
type gcOptions struct {
	records   bool
	olderThan string
	dryRun    bool
}

// ageHint names exactly what parseSince reads: days, or a Go duration,
// whose "m" is minutes (a "6m" meant as months would prune nearly all).
const ageHint = "give an age as one word: a number of days (90d) or a Go duration in h, m (minutes) or s (2160h)"

// ageUnitDays are the words a person puts after a number ("3 months"),
// in days, so the hint can offer the one-word age.
var ageUnitDays = map[string]int{"day": 1, "week": 7, "month": 30, "year": 365}

// gcSplitAge refuses an age given as two words (--older-than 3 months),
// which the flag parser would otherwise report as a stray argument
// "months"; false after the error. Only a bare number or a unit word
// counts: "--older-than 90d extra" stays a plain stray argument.
func (c *cli) gcSplitAge(args []string) bool {
	for i, a := range args {
		var value, word string
		switch {
		case (a == "--older-than" || a == "-older-than") && i+2 < len(args):
			value, word = args[i+1], args[i+2]
		case strings.HasPrefix(strings.TrimPrefix(a, "-"), "-older-than=") && i+1 < len(args):
			_, value, _ = strings.Cut(a, "=")
			word = args[i+1]
		default:
			continue
		}
		n, err := strconv.Atoi(value)
		days, unit := ageUnitDays[strings.TrimSuffix(strings.ToLower(word), "s")]
		if strings.HasPrefix(word, "-") || (!unit && err != nil) {
			return true
		}
		c.errorf("gc: --older-than takes the age as one word, got %q", value+" "+word)
		if err == nil && n > 0 && unit {
			c.hint("%s; for %s %s: --older-than %dd", ageHint, value, word, n*days)
		} else {
			c.hint("%s", ageHint)
		}
		return false
	}
	return true
}

// gcAge is the age past which gc --records prunes: --older-than, else
// tribunal.retention_days; false (after the error) when neither gives one
// or --older-than is not an age.
func (c *cli) gcAge(root string, opts gcOptions) (time.Duration, string, bool) {
	if opts.olderThan != "" {
		d, err := parseSince(opts.olderThan)
		if err != nil {
			c.errorf("gc: --older-than %q: %v", opts.olderThan, err)
			c.hint("%s", ageHint)
			return 0, "", false
		}
		if d < 24*time.Hour {
			// "6m" is six minutes to a Go duration and six months to a
			// person: an age under a day would prune nearly every
			// record, so gc takes none.
			c.errorf("gc: --older-than %q is %s, under a day; gc --records prunes by days", opts.olderThan, d)
			c.hint("write days: --older-than 180d for about six months (in a Go duration, m is minutes)")
			return 0, "", false
		}
		return d, opts.olderThan, true
	}
	cfg := config.Load(config.Sources{PluginRoot: c.getenv("CLAUDE_PLUGIN_ROOT"), Home: c.home(), WorktreeRoot: root, Warn: c.warning})
	if days := cfg.RetentionDays(); days > 0 {
		return time.Duration(days) * 24 * time.Hour, strconv.Itoa(days) + "d", true
	}
	c.errorf("gc: --records needs an age: --older-than is not given and tribunal.retention_days is not set")
	c.hint("tribunal-session gc --records --older-than 90d (add --dry-run to see what would go first)")
	return 0, "", false
}

// gcRecords prunes (or, with --dry-run, lists) the project's records older
// than the age, naming each in the ledger before its files go.
func (c *cli) gcRecords(h here, root string, opts gcOptions) int {
	age, said, ok := c.gcAge(root, opts)
	if !ok {
		return exitUsage
	}
	now := time.Now()
	ropts := retention.Options{
		ProjectDir: h.project.Dir, OnlookerDir: h.onlooker, Cutoff: now.Add(-age), OlderThan: said,
		Keep: c.liveTasks(h),
	}
	plan, err := retention.Scan(ropts)
	if err != nil {
		c.errorf("gc: %v", err)
		return exitAborted
	}
	if len(plan.Prune) == 0 {
		// Not "would prune 0 record(s) …:" over an empty list.
		fmt.Fprintf(c.stdout, "nothing to prune: no record is older than %s (made before %s)\n", said, ropts.Cutoff.UTC().Format("2006-01-02 15:04Z"))
		c.printKept(plan)
		return 0
	}
	if opts.dryRun {
		c.printPlan(plan, said, ropts.Cutoff)
		return 0
	}
	res, err := retention.Prune(plan, ropts, now)
	if err != nil {
		c.errorf("gc: %v", err)
		c.hint("tribunal-session verify checks the ledger; records pruned before this one are named in it")
		return exitAborted
	}
	fmt.Fprintf(c.stdout, "pruned %d record(s) older than %s, freed %s; the ledger names each (kind prune)\n",
		len(res.Pruned), said, byteSize(res.Bytes))
	c.printKept(plan)
	return 0
}

// liveTasks are the tasks gc never prunes: those with a task record in
// the worktrees directory — a kept change that can still be applied, a
// running task, one an interrupted run left for Cleanup.
func (c *cli) liveTasks(h here) func(string) bool {
	ids := c.worktrees(h.project).RecordIDs()
	return func(id string) bool { return slices.Contains(ids, id) }
}

// printPlan is --dry-run's list: each record that would go, oldest first,
// and the total.
func (c *cli) printPlan(plan retention.Plan, said string, cutoff time.Time) {
	fmt.Fprintf(c.stdout, "would prune %d record(s) older than %s (made before %s), %s:\n",
		len(plan.Prune), said, cutoff.UTC().Format("2006-01-02 15:04Z"), byteSize(plan.Bytes()))
	for _, r := range plan.Prune {
		fmt.Fprintf(c.stdout, "  %-8s  %s  %s  %d file(s)  %s\n", r.Kind, r.ID, r.Time.Format("2006-01-02 15:04Z"), r.Files, byteSize(r.Bytes))
	}
	c.printKept(plan)
	fmt.Fprintln(c.stdout, "nothing was changed (--dry-run)")
}

// printKept names the old tasks gc leaves because their change is kept
// or they are running.
func (c *cli) printKept(plan retention.Plan) {
	if len(plan.Kept) == 0 {
		return
	}
	fmt.Fprintf(c.stdout, "kept %d old task(s) whose change is kept or that still run (apply or discard them first):\n", len(plan.Kept))
	for _, id := range plan.Kept {
		fmt.Fprintf(c.stdout, "  %s\n", id)
	}
}

// byteSize is n in the largest unit that keeps it at least 1.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// storeUsage measures the current project's store: the one measurement
// behind config's text line and its JSON "store" object. nil outside a
// project or when the store cannot be read (config still prints the rest).
func (c *cli) storeUsage(ctx context.Context, root string) *retention.Usage {
	if root == "" {
		return nil
	}
	project, err := c.projectDir(ctx, root)
	if err != nil {
		return nil
	}
	u, err := retention.Measure(project.Dir, time.Now())
	if err != nil {
		return nil
	}
	return &u
}

// storeLine is config's last line: the store's size, from storeUsage.
func storeLine(u *retention.Usage) string {
	if u == nil {
		return ""
	}
	return fmt.Sprintf("Records of this project: %d task(s), %d review(s), %d answer(s), %d advisory verdict(s), %s with their artifacts; ledger %s; 'tribunal-session gc --records --older-than 90d' prunes old ones",
		u.Tasks, u.Reviews, u.Answers, u.Advisories, byteSize(u.RecordBytes), byteSize(u.LedgerBytes))
}
