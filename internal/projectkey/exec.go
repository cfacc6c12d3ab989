package projectkey

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// maxStderrInError bounds how much of git's stderr is quoted in an error; the
// tail is kept because git prints the fatal line last.
const maxStderrInError = 1024

// waitDelay bounds how long a cancelled git may hold its pipes open (through
// a lingering grandchild) before Wait gives up on them.
const waitDelay = 2 * time.Second

// baseArgs precede every subcommand. core.fsmonitor=false stops a
// repository's config from making our hook run an arbitrary fsmonitor
// program; --no-optional-locks stops status and diff from taking index.lock
// to write refreshed stat data, which would race the user's own git commands.
var baseArgs = []string{"-c", "core.fsmonitor=false", "--no-optional-locks"}

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

// ExecGit returns a GitRunner that runs gitPath as a child process. env is
// the child's complete environment (callers usually pass os.Environ());
// repository-selecting variables are removed from it and
// GIT_TERMINAL_PROMPT=0 is added so git never waits for credentials. The
// child gets no stdin, is killed when ctx ends, and a failure's error quotes
// the tail of its stderr.
func ExecGit(gitPath string, env []string) GitRunner {
	childEnv := make([]string, 0, len(env)+1)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !stripped(name) {
			childEnv = append(childEnv, kv)
		}
	}
	childEnv = append(childEnv, "GIT_TERMINAL_PROMPT=0")

	return func(ctx context.Context, dir string, args ...string) ([]byte, error) {
		full := make([]string, 0, len(baseArgs)+len(args))
		full = append(full, baseArgs...)
		full = append(full, args...)
		cmd := exec.CommandContext(ctx, gitPath, full...)
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
