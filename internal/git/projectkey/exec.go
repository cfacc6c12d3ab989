package projectkey

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/proc/childenv"
)

// maxStderrInError bounds how much of git's stderr is quoted in an error; the
// tail is kept because git prints the fatal line last.
const maxStderrInError = 1024

// waitDelay bounds how long a cancelled git may hold its pipes open (through
// a lingering grandchild) before Wait gives up on them.
const waitDelay = 2 * time.Second

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
// with, followed by args. It and GitEnv are the one place that decides how
// git is invoked; ExecGit uses both, and a caller that needs its own
// exec.Cmd (extra environment, stdin) must use them too.
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
	added := []string{"GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", childenv.GuardEnv + "=1"}
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

// strippedEnv names variables that make git use another repository, index or
// object store than the one FindWorktreeRoot found by walking the directory
// (for example when Claude Code itself runs inside a git hook). Dropping them
// keeps the pure-Go walk and the git subprocesses looking at the same thing.
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

// ExecGit returns a GitRunner that runs gitPath as a child process with
// GitArgs and GitEnv applied. env is the base environment (callers usually
// pass os.Environ()). The child gets no stdin, is killed when ctx ends, and
// a failure's error quotes the tail of its stderr.
func ExecGit(gitPath string, env []string) GitRunner {
	return execGit(gitPath, GitEnv(env))
}

// ExecGitIndex is ExecGit reading the index file index instead of the
// repository's own. A pre-commit hook of `git commit -a` or `git commit
// PATHS` is handed the index git is about to commit in GIT_INDEX_FILE
// (which GitEnv drops from every other call): only that one holds what
// the commit will contain. index must be absolute.
func ExecGitIndex(gitPath string, env []string, index string) GitRunner {
	return execGit(gitPath, append(GitEnv(env), "GIT_INDEX_FILE="+index))
}

func execGit(gitPath string, childEnv []string) GitRunner {
	return func(ctx context.Context, dir string, args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, gitPath, GitArgs(args...)...)
		cmd.Dir = dir
		cmd.Env = childEnv
		cmd.WaitDelay = waitDelay
		var stdout, stderr bytes.Buffer
		cmd.Stdout = &stdout
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				err = fmt.Errorf("%w (%w)", err, ctxErr)
			}
			return stdout.Bytes(), fmt.Errorf("git %s in %q: %w%s", strings.Join(args, " "), dir, err, stderrTail(stderr.Bytes()))
		}
		return stdout.Bytes(), nil
	}
}

func stripped(name string) bool {
	for _, s := range strippedEnv {
		if name == s {
			return true
		}
	}
	return false
}

func stderrTail(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return ""
	}
	if len(b) > maxStderrInError {
		b = b[len(b)-maxStderrInError:]
	}
	// Quoted so multi-line git messages stay on one log line.
	return fmt.Sprintf(": %q", b)
}
