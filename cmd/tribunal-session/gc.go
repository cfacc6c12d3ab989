package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
)

const gcHelp = `usage: tribunal-session gc

Reclaims the disk that task worktrees hold in the current repository's
project: the worktrees and refs that interrupted runs left, and every idle
member of the warm worktree pool (session.worktree_pool), which the next
task then rebuilds with a full checkout. Kept tasks (their refs), records,
and worktrees that a running task holds are not touched. Runs do the same
for surplus and long-idle pool members on their own.

Exit status: 0 done; 2 not inside a git repository.
`

// gcCmd removes what interrupted runs left and the idle pool worktrees.
func (c *cli) gcCmd(ctx context.Context, args []string) int {
	if !c.simpleFlags("gc", args, func(*flag.FlagSet) {}) {
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
	project, err := c.projectDir(ctx, root)
	if err != nil {
		c.errorf("gc: %v", err)
		return exitUsage
	}
	m := c.worktrees(project)
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
