package projectkey

import (
	"bytes"
	"context"
	"fmt"
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

// ExecGit returns a GitRunner that runs gitPath as a child process with
// childenv.GitArgs and childenv.GitEnv applied. env is the base
// environment (callers usually pass os.Environ()). The child gets no
// stdin, is killed when ctx ends, and a failure's error quotes the tail
// of its stderr.
func ExecGit(gitPath string, env []string) GitRunner {
	return execGit(gitPath, childenv.GitEnv(env))
}

// ExecGitIndex is ExecGit reading the index file index instead of the
// repository's own. A pre-commit hook of `git commit -a` or `git commit
// PATHS` is handed the index git is about to commit in GIT_INDEX_FILE
// (which childenv.GitEnv drops from every other call): only that one
// holds what the commit will contain. index must be absolute.
func ExecGitIndex(gitPath string, env []string, index string) GitRunner {
	return execGit(gitPath, append(childenv.GitEnv(env), "GIT_INDEX_FILE="+index))
}

func execGit(gitPath string, childEnv []string) GitRunner {
	return func(ctx context.Context, dir string, args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, gitPath, childenv.GitArgs(args...)...)
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
