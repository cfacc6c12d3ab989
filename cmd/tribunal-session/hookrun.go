package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/githook"
)

// hookRunCmd is what an installed hook (or the pre-commit framework)
// calls: one review per change the hook covers, its exit made the
// hook's by githook.Outcome.
func (c *cli) hookRunCmd(ctx context.Context, args []string) int {
	var gate bool
	var failOn string
	pos, code := c.historyFlags("hook run", hookHelp, args, func(fs *flag.FlagSet) {
		fs.BoolVar(&gate, "gate", false, "")
		fs.StringVar(&failOn, "fail-on", "", "")
	})
	if code >= 0 {
		return code
	}
	if c.disabledBy(workRoot()) != "" {
		// A git hook, like Claude Code's, is a no-op while tribunal is
		// turned off (spec §2.13): the commit or push goes ahead.
		return 0
	}
	if len(pos) == 0 {
		c.errorf("hook run needs the hook's name: pre-commit or pre-push")
		return exitUsage
	}
	kind, err := githook.ParseKind(pos[0])
	if err != nil {
		c.errorf("hook run: %v", err)
		return exitUsage
	}
	failOn = githook.FailOn(kind, failOn, c.getenv("TRIBUNAL_FAIL_ON"))
	ranges := []githook.Range{{}}
	if kind == githook.PreCommit {
		c.stagedIndex = hookIndex(c.getenv("GIT_INDEX_FILE"))
	}
	if kind == githook.PrePush {
		remote := "origin"
		if len(pos) > 1 { // git passes the remote's name and URL
			remote = pos[1]
		}
		var skipped []string
		ranges, skipped, err = c.pushRanges(ctx, remote)
		if err != nil {
			c.errorf("hook run: %v", err)
			return c.hookExit(kind, exitUsage, gate)
		}
		for _, s := range skipped {
			c.progress(s)
		}
	}
	for _, r := range ranges {
		if exit := c.hookExit(kind, c.reviewCmd(ctx, githook.ReviewArgs(kind, r, failOn)), gate); exit != 0 {
			return exit
		}
	}
	return 0
}

// hookExit says the outcome's line and returns its exit.
func (c *cli) hookExit(kind githook.Kind, reviewExit int, gate bool) int {
	exit, line := githook.Outcome(kind, reviewExit, gate)
	if line != "" {
		c.progress(line)
	}
	return exit
}

// pushRanges is what a pre-push run reviews: the pre-commit framework's
// range, or git's lines on stdin; a new branch is reviewed against the
// remote's default branch, else its upstream.
func (c *cli) pushRanges(ctx context.Context, remote string) ([]githook.Range, []string, error) {
	from, to := c.getenv("PRE_COMMIT_FROM_REF"), c.getenv("PRE_COMMIT_TO_REF")
	var updates []githook.Update
	if from == "" || to == "" {
		var err error
		if updates, err = githook.ParsePush(c.stdin); err != nil {
			return nil, nil, err
		}
	}
	dir, _ := os.Getwd()
	git := c.git(os.Environ())
	newBase := func(u githook.Update) string {
		for _, ref := range []string{"refs/remotes/" + remote + "/HEAD", u.LocalRef + "@{upstream}"} {
			if strings.HasPrefix(ref, "-") {
				continue
			}
			if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}"); err == nil {
				return ref
			}
		}
		return ""
	}
	ranges, skipped := githook.PushRanges(from, to, updates, newBase)
	return ranges, skipped, nil
}

// hookIndex is the index a pre-commit hook must review: git names it in
// GIT_INDEX_FILE, a temporary one for `git commit -a` or `git commit
// PATHS` that holds what the commit will contain (the repository's own
// index does not). A relative name is the hook's working directory's,
// which git makes the work tree's top.
func hookIndex(name string) string {
	if name == "" || filepath.IsAbs(name) {
		return name
	}
	if dir, err := os.Getwd(); err == nil {
		return filepath.Join(dir, name)
	}
	return name
}
