package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
)

const gcHelp = `usage: tribunal-session gc [--records [--older-than AGE] [--dry-run]]

Reclaims the disk that task worktrees hold in the current repository's
project: the worktrees and refs that interrupted runs left, and every idle
member of the warm worktree pool (session.worktree_pool), which the next
task then rebuilds with a full checkout. Kept tasks (their refs), records,
and worktrees that a running task holds are not touched. Runs do the same
for surplus and long-idle pool members on their own.

--records also prunes the project's records older than AGE: tasks and
reviews with all their artifacts, advisory verdicts with their diffs and
pending entries. AGE is one word: a number of days (90d) or a Go duration
in h, m (minutes) or s (2160h); without --older-than, tribunal.retention_days in your settings gives it.
A task whose change is kept, or that is still running, is never pruned.
The signed ledger is never rewritten: each pruned record gets a ledger
entry of kind prune (its id and the digest of its files), so 'verify'
still passes and 'show' of its id says when it was pruned. Only gc
prunes: no hook and no run does it on its own.

--dry-run lists the records that would go and their bytes, and changes
nothing (worktrees included).

Exit status: 0 done; 2 not inside a git repository, a bad --older-than,
or no age given; 3 a record could not be pruned (what came before it was).
`

// gcCmd removes what interrupted runs left and the idle pool worktrees,
// and with --records the old records.
func (c *cli) gcCmd(ctx context.Context, args []string) int {
	var opts gcOptions
	if !c.gcSplitAge(args) || !c.simpleFlags("gc", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&opts.records, "records", false, "")
		fs.StringVar(&opts.olderThan, "older-than", "", "")
		fs.BoolVar(&opts.dryRun, "dry-run", false, "")
	}) {
		return exitUsage
	}
	if (opts.olderThan != "" || opts.dryRun) && !opts.records {
		c.errorf("gc: --older-than and --dry-run go with --records")
		c.hint("tribunal-session gc --records --older-than 90d --dry-run")
		return exitUsage
	}
	dir, err := os.Getwd()
	if err != nil {
		c.errorf("gc: cannot determine the current directory: %v", err)
		return exitUsage
	}
	root, err := projectkey.FindWorktreeRoot(dir)
	if err != nil {
		c.errorf("gc: %q is not inside a git repository", dir)
		c.hint("run it inside the repository whose task worktrees you want to reclaim")
		return exitUsage
	}
	h, err := c.locateDir(ctx, root)
	if err != nil {
		c.errorf("gc: %v", err)
		return exitUsage
	}
	if opts.records {
		// The age is checked before anything is removed: bad input
		// changes nothing.
		if code := c.gcRecords(h, root, opts); code != 0 || opts.dryRun {
			return code
		}
	}
	m := c.worktrees(h.project)
	before := m.Usage()
	crashed := m.Cleanup(ctx, root)
	pruned := m.PrunePool(ctx, root, true)
	after := m.Usage()
	fmt.Fprintf(c.stdout, "removed %d idle pool worktree(s) and %d left by interrupted runs; freed %s\n",
		pruned, len(crashed), mebibytes(before.Bytes-after.Bytes))
	if after.Members > 0 {
		fmt.Fprintf(c.stdout, "%d pool worktree(s) still in use by running tasks (%s)\n", after.Members, mebibytes(after.Bytes))
	}
	return 0
}

func mebibytes(n int64) string {
	if n < 0 {
		n = 0
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// poolLine describes the warm worktree pool of the repository at root for
// `config`, or "" outside a repository.
func (c *cli) poolLine(ctx context.Context, root string) string {
	if root == "" {
		return ""
	}
	project, err := c.projectDir(ctx, root)
	if err != nil {
		return ""
	}
	u := c.worktrees(project).Usage()
	return fmt.Sprintf("Task worktree pool (session.worktree_pool): %d worktree(s), %s on disk; 'tribunal-session gc' reclaims idle ones", u.Members, mebibytes(u.Bytes))
}
