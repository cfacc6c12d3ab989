package main

import (
	"context"
	"encoding/json"
	"io"
	"os"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/llm/provider/openai"
)

const providerCallHelp = `usage: tribunal-session provider-call < request.json

Internal: runs one judge call on the openai provider for the Stop hook,
whose binary links no HTTP client. Reads {"spec":…,"call":…} on stdin and
prints {"result":…,"error":…} on stdout.

Exit status: 0 the call succeeded; 1 it failed (the error is in the
output); 2 the request is unreadable or not for the openai provider.
`

// providerCallCmd runs one openai judge call for the Stop hook (see
// provider.Delegate): a request on stdin, the result on stdout, exit 0
// when the call succeeded and 1 when it failed.
func (c *cli) providerCallCmd(ctx context.Context) int {
	data, err := io.ReadAll(io.LimitReader(c.stdin, 64<<20))
	if err != nil {
		c.errorf("%s: read the request: %v", provider.DelegateCommand, err)
		return exitUsage
	}
	var req provider.DelegateRequest
	if err := json.Unmarshal(data, &req); err != nil {
		c.errorf("%s: the request is not valid JSON: %v", provider.DelegateCommand, err)
		return exitUsage
	}
	if req.Spec.Name() != provider.OpenAI {
		c.errorf("%s: only the %s provider is delegated, not %q", provider.DelegateCommand, provider.OpenAI, req.Spec.Name())
		return exitUsage
	}
	// The spec came from the hook, whose settings may differ from this
	// process's view: its own credentials are scrubbed too.
	deps := provider.Deps{Getenv: c.getenv, Redact: provider.Redactor([]provider.Spec{req.Spec}, c.getenv, os.Environ()),
		OpenAI: func(s provider.Spec) claude.Runner { return openai.Runner(openai.Options{Getenv: c.getenv}, s) }}
	res, err := deps.Runner(req.Spec).Run(ctx, req.Call)
	out := provider.DelegateResponse{Result: res}
	if err != nil {
		out.Error = err.Error()
	}
	c.printJSON(out)
	if err != nil {
		return 1
	}
	return 0
}
