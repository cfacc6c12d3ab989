// Package mcpserver serves tribunal's tools — judge a change, list and show
// recorded verdicts, dismiss a finding — over the Model Context Protocol,
// each tool one tribunal-session command run in process.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tribunal-cc/tribunal/internal/output"
)

// Result is what one command run printed and its exit status.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Runner runs one tribunal-session command line with stdin as its
// standard input. Its stdout must not be the protocol's: it is captured.
type Runner func(ctx context.Context, args []string, stdin string) Result

// Options are what the server needs from its binary.
type Options struct {
	Version string
	Run     Runner
	// Nested is the recursion guard (TRIBUNAL_NESTED): the server was
	// started below a child tribunal runs (an actor's or a judge's Claude
	// Code), which may read verdicts but never call the jury or dismiss
	// what the jury found.
	Nested bool
}

// Tool names, as a client calls them (Claude Code: mcp__tribunal__NAME).
const (
	ToolJudge   = "judge"
	ToolVerify  = "verify"
	ToolList    = "list_verdicts"
	ToolShow    = "show_verdict"
	ToolDismiss = "dismiss_finding"
)

// Exit statuses of the commands the tools run (cmd/tribunal-session).
const (
	exitAccepted    = 0
	exitNotAccepted = 10
	exitIncomplete  = 3
)

// New is the server with its five tools.
func New(o Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "tribunal", Title: "tribunal", Version: o.Version},
		&mcp.ServerOptions{Instructions: instructions})
	t := tools{o}
	mcp.AddTool(s, &mcp.Tool{Name: ToolJudge, Description: judgeDescription,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, OpenWorldHint: ptr(true)}}, t.judge)
	mcp.AddTool(s, &mcp.Tool{Name: ToolVerify, Description: verifyDescription,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, OpenWorldHint: ptr(true)}}, t.verify)
	mcp.AddTool(s, &mcp.Tool{Name: ToolList, Description: listDescription,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, t.list)
	mcp.AddTool(s, &mcp.Tool{Name: ToolShow, Description: showDescription,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, t.show)
	mcp.AddTool(s, &mcp.Tool{Name: ToolDismiss, Description: dismissDescription,
		InputSchema: dismissSchema(), Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: true}}, t.dismiss)
	s.AddReceivingMiddleware(unknownArguments)
	return s
}

func ptr[T any](v T) *T { return &v }

// Serve runs the server on in and out (the process's stdin and stdout)
// until the client closes in and every request read has been answered, or
// ctx ends; a client that hangs up is not an error, nor is a line that is
// not a JSON-RPC message (it is answered with an error, see stdio).
func Serve(ctx context.Context, o Options, in io.Reader, out io.Writer) error {
	return serve(ctx, o, &stdio{in: in, out: out})
}

func serve(ctx context.Context, o Options, t mcp.Transport) error {
	err := New(o).Run(ctx, t)
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return fmt.Errorf("serving the Model Context Protocol: %w", err)
}

// unknownArguments refuses a tools/call whose arguments name a property
// the tool does not take, before the tool runs, in tribunal's words (the
// input schemas also forbid them; this names the known ones).
func unknownArguments(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if !ok || method != "tools/call" || call.Params == nil {
			return next(ctx, method, req)
		}
		known, ok := knownArgs[call.Params.Name]
		if !ok {
			return next(ctx, method, req)
		}
		if err := checkArguments(call.Params.Name, call.Params.Arguments, known); err != nil {
			res := &mcp.CallToolResult{}
			res.SetError(err)
			return res, nil
		}
		return next(ctx, method, req)
	}
}

// checkArguments names the first argument the tool does not take.
func checkArguments(tool string, raw json.RawMessage, known []string) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil {
		return toolError(tool, fmt.Sprintf("the arguments are not a JSON object: %v", err), "pass the arguments as an object: "+strings.Join(known, ", "))
	}
	for name := range args {
		if !contains(known, name) {
			return toolError(tool, fmt.Sprintf("unknown argument %q", name), fmt.Sprintf("%s takes %s", tool, strings.Join(known, ", ")))
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// toolError is an error as tribunal words them: what failed, then what
// to do.
func toolError(tool, what, hint string) error {
	var b strings.Builder
	out := output.Session{W: &b}
	out.Errorf("%s: %s", tool, what)
	if hint != "" {
		out.Hint("%s", hint)
	}
	return errors.New(strings.TrimSuffix(b.String(), "\n"))
}

const instructions = `tribunal judges code changes with a jury of independent judges (the configured rubric and panel), a meta-judge and a gate. Call judge before you finish a task to have your uncommitted change judged, read the findings, fix what they point at, and judge again; list_verdicts and show_verdict read what was recorded; dismiss_finding records that a finding does not apply (give the reason).`
