package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/secretenv"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// CLIError is a CLI provider that reported a failure of its own (an API
// error, a refused request) rather than a verdict.
type CLIError struct {
	Program string
	Message string
}

func (e *CLIError) Error() string {
	return fmt.Sprintf("%s reported an error: %s", e.Program, safetext.OneLine(e.Message, 300))
}

// cliCall is what both CLI providers share: locating the executable, a
// private directory for the per-call files, and the process-group runner
// of internal/proc (through claude.RunProc) with its deadline and
// recursion guard.
type cliCall struct {
	program string
	path    string
	dir     string // private per-call directory, removed by done
}

func (d Deps) startCLI(program, explicit string) (*cliCall, error) {
	path, err := d.locate(program, explicit)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(d.TempDir, "tribunal-"+program+"-")
	if err != nil {
		return nil, fmt.Errorf("create a directory for the %s call: %w", program, err)
	}
	return &cliCall{program: program, path: path, dir: dir}, nil
}

func (c *cliCall) done() { os.RemoveAll(c.dir) }

// run runs the CLI under the judge's deadline in its own process group,
// filling res's duration, exit code and stderr. It returns the child's
// stdout, a non-zero exit apart (the caller explains it from the output),
// and any other failure: not installed, the deadline, an interrupt.
//
// The child keeps no secret but its own CLI's keys and the seat's
// api_key_env (keyEnv): never the forge's token, never another
// provider's key.
func (c *cliCall) run(ctx context.Context, call claude.Call, dir string, args, env []string, keyEnv string, stdin string, res *claude.Result) ([]byte, *claude.ExitError, error) {
	var extra []string
	if keyEnv != "" {
		extra = append(extra, keyEnv)
	}
	pr, err := claude.RunProc(ctx, claude.Proc{
		Program: c.program, Path: c.path, Args: args, Env: env, Keep: secretenv.Keep(c.program, env, extra...),
		Dir: dir, Stdin: stdin, Timeout: call.Timeout,
	})
	res.Duration, res.ExitCode, res.Stderr, res.Raw = pr.Duration, pr.ExitCode, pr.Stderr, string(pr.Stdout)
	var exit *claude.ExitError
	switch {
	case errors.Is(err, claude.ErrNotFound):
		return nil, nil, &NotInstalledError{Program: c.program, Err: err}
	case errors.As(err, &exit):
		return pr.Stdout, exit, nil
	}
	return pr.Stdout, nil, err
}

// conform finishes a successful call: the model's final text, validated
// against the call's schema, becomes the structured output.
func conform(res claude.Result, text, schema string) (claude.Result, error) {
	res.Text = text
	obj, err := Conform(text, schema)
	if err != nil {
		return res, err
	}
	res.Structured = obj
	return res, nil
}

// withEnv returns base with each key in set replaced (an empty value
// removes the key).
func withEnv(base []string, set map[string]string) []string {
	out := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, replaced := set[k]; !replaced {
			out = append(out, kv)
		}
	}
	for k, v := range set {
		if v != "" {
			out = append(out, k+"="+v)
		}
	}
	return out
}

// cliPrompt is the whole prompt given to a CLI on stdin: the role prompt
// with the answer-format instruction, then the task material.
func cliPrompt(c claude.Call) string {
	return SystemPrompt(c) + "\n\n" + c.Prompt
}
