package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/secretenv"
)

// DelegateCommand is the tribunal-session subcommand that runs one openai
// call for a program that does not link an HTTP client (the Stop hook,
// whose start-up cost is paid on every turn).
const DelegateCommand = "provider-call"

// delegateGrace is how long past the call's own deadline the delegate may
// take to report it before its process group is killed.
const delegateGrace = 5 * time.Second

// DelegateRequest is the JSON a delegate reads on stdin.
type DelegateRequest struct {
	Spec Spec        `json:"spec"`
	Call claude.Call `json:"call"`
}

// DelegateResponse is the JSON a delegate prints on stdout.
type DelegateResponse struct {
	Result claude.Result `json:"result"`
	Error  string        `json:"error,omitempty"`
}

// Delegate returns an OpenAI factory for Deps that runs each call in
// `bin provider-call` under the same process-group runner, deadline and
// recursion guard as every other child.
func Delegate(bin string, environ []string) func(Spec) claude.Runner {
	return func(s Spec) claude.Runner {
		return claude.RunnerFunc(func(ctx context.Context, c claude.Call) (claude.Result, error) {
			if bin == "" {
				return claude.Result{}, errors.New("the openai provider needs tribunal-session beside this program, and it was not found")
			}
			in, err := json.Marshal(DelegateRequest{Spec: s, Call: c})
			if err != nil {
				return claude.Result{}, fmt.Errorf("encode the provider call: %w", err)
			}
			timeout := time.Duration(0)
			if c.Timeout > 0 {
				timeout = c.Timeout + delegateGrace
			}
			pr, runErr := claude.RunProc(ctx, claude.Proc{
				Program: "tribunal-session " + DelegateCommand, Path: bin, Args: []string{DelegateCommand},
				// The delegate reads the seat's key itself, and no other secret.
				Env: environ, Keep: secretenv.Keep("", environ, s.APIKeyEnv), Dir: c.Dir, Stdin: string(in), Timeout: timeout,
			})
			var out DelegateResponse
			if err := json.Unmarshal(pr.Stdout, &out); err != nil {
				if runErr != nil {
					return claude.Result{}, runErr
				}
				return claude.Result{}, fmt.Errorf("tribunal-session %s printed no result: %w", DelegateCommand, err)
			}
			if out.Error != "" {
				return out.Result, errors.New(out.Error)
			}
			return out.Result, runErr
		})
	}
}
