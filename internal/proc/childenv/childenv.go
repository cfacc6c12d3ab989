// Package childenv is what every child process tribunal starts is given:
// the recursion-guard marker its hooks check, and the arguments and
// environment every git child starts with.
package childenv

import (
	"os"
	"strings"
)

// GuardEnv is the recursion-guard marker set in the environment of every
// child process tribunal starts. Every tribunal hook exits at once when it is
// set, because a nested `claude -p` fires the user's hooks again (a Stop hook
// that starts a judge would otherwise start a judge of the judge, and so on).
// It lives here, below the hooks, the model runner and git access (and
// apart from proc, which the hooks do not link), so that the code that
// sets it and the code that checks it share one name.
const GuardEnv = "TRIBUNAL_NESTED"

// How every git child is started: git runs from the git part's runners
// and from the store's receipts, and both must start it the same way, so
// the rule sits below both.

// baseArgs precede every subcommand tribunal runs; together with GitEnv
// they make git a read-only visitor of the user's repository:
//
//   - core.fsmonitor=false: a repository's config cannot make our hook run
//     an arbitrary fsmonitor program.
//   - core.hooksPath=/dev/null: no hook of the repository (post-index-change,
//     reference-transaction, …) ever runs from a tribunal child; hooks are
//     looked up under a path that cannot hold files.
//   - --no-optional-locks: status and diff-* do not take index.lock to
//     write refreshed stat data, which would race the user's own git
//     commands ("index.lock exists"). The porcelain `git diff` ignores it
//     and rewrites the index (git 2.39), so readers use the plumbing
//     diff-index/diff-files instead (see internal/git/gitstate).
var baseArgs = []string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=" + os.DevNull, "--no-optional-locks"}

// GitArgs returns the global options every git child of tribunal starts
// with, followed by args. It and GitEnv are the one place that decides
// how git is invoked; projectkey.ExecGit uses both, and a caller that
// needs its own exec.Cmd (extra environment, stdin: the store's receipts)
// must use them too.
func GitArgs(args ...string) []string {
	full := make([]string, 0, len(baseArgs)+len(args))
	full = append(full, baseArgs...)
	return append(full, args...)
}

// GitEnv returns env prepared for a git child: repository-selecting
// variables removed (see strippedEnv), GIT_TERMINAL_PROMPT=0 so git never
// waits for credentials, GIT_OPTIONAL_LOCKS=0 (the environment form of
// --no-optional-locks, inherited by any git that git itself starts) and the
// recursion-guard marker, so that a Claude Code started below git (through
// a credential helper, say) cannot run tribunal's hooks again. Earlier
// values of the added variables are replaced.
func GitEnv(env []string) []string {
	added := []string{"GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", GuardEnv + "=1"}
	out := make([]string, 0, len(env)+len(added))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if stripped(name) || replaced(name, added) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, added...)
}

func replaced(name string, added []string) bool {
	for _, kv := range added {
		if strings.HasPrefix(kv, name+"=") {
			return true
		}
	}
	return false
}

// strippedEnv names variables that make git use another repository, index
// or object store than the one projectkey.FindWorktreeRoot found by
// walking the directory (for example when Claude Code itself runs inside a
// git hook). Dropping them keeps the pure-Go walk and the git subprocesses
// looking at the same thing.
var strippedEnv = []string{
	"GIT_DIR",
	"GIT_WORK_TREE",
	"GIT_INDEX_FILE",
	"GIT_COMMON_DIR",
	"GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_NAMESPACE",
	"GIT_PREFIX",
}

func stripped(name string) bool {
	for _, s := range strippedEnv {
		if name == s {
			return true
		}
	}
	return false
}
