package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/githook"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
)

const hookHelp = `usage: tribunal-session hook install [--pre-push] [--gate]
       tribunal-session hook uninstall [--pre-push]
       tribunal-session hook run pre-commit|pre-push [--gate] [--fail-on SEVERITY]

Runs tribunal's review from git's hooks (spec §7.19). install writes the
pre-commit hook (with --pre-push, the pre-push hook) into the directory
git runs this repository's hooks from: core.hooksPath when set, else the
common git directory's hooks (shared by every worktree). The hook is a
shim marked as tribunal's that calls 'hook run'; a hook that is already
there and is not tribunal's is never overwritten: install says how to
call 'hook run' from it instead. uninstall removes only tribunal's own.

run is what the hook calls. pre-commit reviews the staged change
(review --staged); pre-push reviews what the push adds: each ref's new
commits over the remote's (a new branch: over the remote's default
branch), or the range the pre-commit framework names in
PRE_COMMIT_FROM_REF and PRE_COMMIT_TO_REF. The review is printed.
Advisory by default: the commit or push goes ahead whatever it finds;
with --gate a finding at or above --fail-on (default TRIBUNAL_FAIL_ON,
else critical before a commit and major before a push) blocks it
(git commit/push --no-verify skips the hook once). A review that reached
no verdict (every judge failed) never blocks.

  --pre-push            install or uninstall the pre-push hook
  --gate                the hook blocks on the review's findings
  --fail-on SEVERITY    run --gate: block at or above SEVERITY

Exit status: install/uninstall: 0 done (or nothing to remove); 1 a hook
that is not tribunal's is there (left as it is); 2 usage error or not in
a git repository. run: 0 the commit or push may go on; 10 blocked by
the review (--gate); with --gate, the review's own error status when it
could not run.
`

func (c *cli) hookCmd(ctx context.Context, args []string) int {
	if len(args) == 0 {
		c.errorf("hook needs an action: install, uninstall or run")
		c.hint("tribunal-session hook install (see 'tribunal-session hook -h')")
		return exitUsage
	}
	switch args[0] {
	case "install", "uninstall":
		return c.hookInstallCmd(ctx, args[0], args[1:])
	case "run":
		return c.hookRunCmd(ctx, args[1:])
	}
	c.errorf("hook: unknown action %q", args[0])
	c.hint("the actions are install, uninstall and run (see 'tribunal-session hook -h')")
	return exitUsage
}

// hooksDir is the hooks directory of the repository of the current
// directory, or the exit status of the error it printed.
func (c *cli) hooksDir(ctx context.Context, action string) (string, int) {
	dir, err := os.Getwd()
	if err != nil {
		c.errorf("hook %s: cannot determine the current directory: %v", action, err)
		return "", exitUsage
	}
	root, err := projectkey.FindWorktreeRoot(dir)
	if err != nil {
		c.errorf("hook %s: %q is not inside a git work tree", action, dir)
		c.hint("run it in a checkout of the repository whose hooks it manages")
		return "", exitUsage
	}
	hooks, err := githook.HooksDir(ctx, c.git(os.Environ()), root)
	if err != nil {
		c.errorf("hook %s: %v", action, err)
		return "", exitUsage
	}
	return hooks, -1
}

func (c *cli) hookInstallCmd(ctx context.Context, action string, args []string) int {
	var prePush, gate bool
	pos, code := c.historyFlags("hook "+action, hookHelp, args, func(fs *flag.FlagSet) {
		fs.BoolVar(&prePush, "pre-push", false, "")
		if action == "install" {
			fs.BoolVar(&gate, "gate", false, "")
		}
	})
	if code >= 0 {
		return code
	}
	if len(pos) != 0 {
		c.errorf("hook %s takes no arguments, got %q", action, strings.Join(pos, " "))
		return exitUsage
	}
	kind := githook.PreCommit
	if prePush {
		kind = githook.PrePush
	}
	dir, code := c.hooksDir(ctx, action)
	if code >= 0 {
		return code
	}
	if action == "uninstall" {
		return c.hookUninstall(dir, kind)
	}
	path, err := githook.Install(dir, kind, gate)
	var exists *githook.ExistsError
	switch {
	case errors.As(err, &exists):
		c.errorf("hook install: %v", err)
		c.hint("to run tribunal's review from that hook, add this line to it: %s", exists.Chain())
		return 1
	case err != nil:
		c.errorf("hook install: %v", err)
		return exitUsage
	}
	mode := "advisory: it prints the review and never blocks"
	if gate {
		mode = "gated: a finding at or above the fail-on severity blocks"
	}
	fmt.Fprintf(c.stdout, "installed the %s hook %s (%s)\n", kind, path, mode)
	return 0
}

func (c *cli) hookUninstall(dir string, kind githook.Kind) int {
	path, err := githook.Uninstall(dir, kind)
	var notOurs *githook.NotOursError
	switch {
	case errors.Is(err, githook.ErrNotInstalled):
		fmt.Fprintf(c.stdout, "no %s hook to remove in %s\n", kind, dir)
		return 0
	case errors.As(err, &notOurs):
		c.errorf("hook uninstall: %v", err)
		c.hint("tribunal removes only the hooks it installed; edit or delete that one yourself")
		return 1
	case err != nil:
		c.errorf("hook uninstall: %v", err)
		return exitUsage
	}
	fmt.Fprintf(c.stdout, "removed the %s hook %s\n", kind, path)
	return 0
}
