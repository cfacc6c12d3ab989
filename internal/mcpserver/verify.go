package mcpserver

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (t tools) verify(ctx context.Context, _ *mcp.CallToolRequest, in VerifyInput) (*mcp.CallToolResult, any, error) {
	if strings.TrimSpace(in.Question) == "" {
		return nil, nil, toolError(ToolVerify, "question is empty", "pass the question or task the answer responds to")
	}
	if err := checkCandidates(in); err != nil {
		return nil, nil, err
	}
	if in.Candidates != nil {
		return t.candidates(ctx, in)
	}
	return t.answer(ctx, ToolVerify, in)
}

// answer runs `judge --cases -` with the one case on stdin: the batch
// form carries every text (question, answer, expected answer, context)
// in one line, so no file is written for a tool call.
func (t tools) answer(ctx context.Context, tool string, in VerifyInput) (*mcp.CallToolResult, any, error) {
	if t.o.Nested {
		return nil, nil, nestedError(tool, "call the jury")
	}
	if strings.TrimSpace(in.Answer) == "" {
		return nil, nil, toolError(tool, "the answer is empty", "pass the text to judge")
	}
	line := map[string]any{"id": tool, "answer": in.Answer}
	if in.Question != "" {
		line["question"] = in.Question
	}
	if in.Expected != "" {
		line["expected"] = in.Expected
	}
	if len(in.Context) > 0 {
		line["context"] = in.Context
	}
	stdin, err := json.Marshal(line)
	if err != nil {
		return nil, nil, toolError(tool, err.Error(), "")
	}
	args := appendSet([]string{"judge", "--cases=-"}, "rubric", in.Rubric, "match", in.Match)
	for _, c := range in.Criteria {
		args = append(args, "--criterion="+c)
	}
	return verdictResult(tool, t.o.Run(ctx, args, string(stdin)+"\n"))
}

// verdictResult is what judge's run makes of the tool's result: its
// verdict JSON (accepted or rejected), the same marked as an error with
// the command's last words (no verdict, or stopped), or the command's
// error (refused, failed).
func verdictResult(tool string, r Result) (*mcp.CallToolResult, any, error) {
	switch {
	case (r.Code == exitAccepted || r.Code == exitNotAccepted) && strings.TrimSpace(r.Stdout) != "":
		return jsonResult(r.Stdout, false), nil, nil
	case strings.TrimSpace(r.Stdout) != "":
		// No judge produced a verdict, or stopped: recorded, but not a
		// judgement of the answer.
		res := jsonResult(r.Stdout, true)
		res.Content = append(res.Content, &mcp.TextContent{Text: lastLines(r.Stderr)})
		return res, nil, nil
	}
	return nil, nil, failed(tool, r)
}
