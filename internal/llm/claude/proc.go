package claude

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/tribunal-cc/tribunal/internal/llm/secretenv"
	"github.com/tribunal-cc/tribunal/internal/proc"
)

// Proc is one model-CLI child (claude, codex, gemini, or the Stop hook's
// provider-call delegate), run by internal/proc with the recursion guard
// added to its environment.
type Proc struct {
	// Program names the CLI in messages ("claude", "codex", "gemini").
	Program string
	Path    string
	Args    []string
	// Env is the base environment: its secrets are dropped (secretenv)
	// except those named in Keep, and the recursion guard is added.
	Env []string
	// Keep names the secret variables this child needs: its provider's
	// own key (secretenv.Keep). Nil keeps none.
	Keep  []string
	Dir   string
	Stdin string
	// Timeout bounds the run when > 0.
	Timeout time.Duration
}

// RunProc runs p, with no secret in its environment but those p.Keep
// names, and words its failure for the CLI: ErrNotFound (joined
// with the cause) when the executable could not be found or started, a
// *TimeoutError at the deadline, the context's error when ctx ended, an
// *ExitError for a non-zero status, or nil. The result is filled in every
// case, so that callers can still read what a failed child printed.
func RunProc(ctx context.Context, p Proc) (proc.Result, error) {
	if p.Path == "" {
		return proc.Result{}, ErrNotFound
	}
	res, err := proc.Run(ctx, proc.Cmd{
		Path: p.Path, Args: p.Args, Env: ChildEnv(secretenv.Scrub(p.Env, p.Keep), 0), Dir: p.Dir,
		Stdin: p.Stdin, Timeout: p.Timeout,
	})
	var startErr *proc.StartError
	var timeout *proc.TimeoutError
	var execErr *exec.Error
	switch {
	case err == nil && res.ExitCode != 0:
		return res, &ExitError{Code: res.ExitCode, Stderr: res.Stderr, Program: p.Program}
	case err == nil:
		return res, nil
	case errors.As(err, &timeout),
		// The caller's own deadline ended the call first: still the call's
		// timeout as far as the user can tell.
		errors.Is(err, context.DeadlineExceeded) && p.Timeout > 0:
		return res, &TimeoutError{After: p.Timeout, Program: p.Program}
	case errors.As(err, &startErr) && errors.As(startErr.Err, &execErr):
		return res, errors.Join(ErrNotFound, startErr.Err)
	case errors.As(err, &startErr):
		return res, fmt.Errorf("run %s: %w", program(p.Program), startErr.Err)
	case ctx.Err() != nil:
		return res, err
	}
	return res, fmt.Errorf("run %s: %w", program(p.Program), err)
}

// program is the CLI's name for messages; claude when unset.
func program(name string) string {
	if name == "" {
		return "claude"
	}
	return name
}
