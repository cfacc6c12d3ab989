package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tribunal-cc/tribunal/internal/judging/bestof"
)

// candidatesHint is the hint after a bad candidates call.
var candidatesHint = fmt.Sprintf("pass one answer as answer, or %d to %d answers to the same question as candidates (with strategy %s)",
	bestof.Min, bestof.Max, strings.Join(bestof.Strategies, ", "))

// checkCandidates refuses, before anything runs, a verify call whose
// answer, candidates and strategy judge --candidates would refuse (spec
// §7.20), in the tool's words: the model reads them as arguments, not
// flags.
func checkCandidates(in VerifyInput) error {
	bad := func(format string, args ...any) error {
		return toolError(ToolVerify, fmt.Sprintf(format, args...), candidatesHint)
	}
	switch n := len(in.Candidates); {
	case in.Candidates == nil && in.Strategy != "":
		return bad("strategy is for candidates: it chooses between several answers")
	case in.Candidates == nil && strings.TrimSpace(in.Answer) == "":
		return bad("the answer is empty, and there are no candidates")
	case in.Candidates == nil:
		return nil
	case in.Answer != "":
		return bad("answer and candidates both name what to judge: one answer with answer, several with candidates")
	case n < bestof.Min:
		return bad("candidates needs at least %d answers (got %d)", bestof.Min, n)
	case n > bestof.Max:
		return bad("candidates takes at most %d answers (got %d): each is judged by the whole jury, and every pair of accepted ones twice more", bestof.Max, n)
	case in.Strategy != "" && !bestof.Known(in.Strategy):
		return bad("unknown strategy %q (one of %s)", in.Strategy, strings.Join(bestof.Strategies, ", "))
	}
	for i, c := range in.Candidates {
		if strings.TrimSpace(c) == "" {
			return bad("candidate %d is empty", i+1)
		}
	}
	return nil
}

// candidates runs `judge --json --candidates F1 F2 … --strategy S`: judge
// reads a set from files, so each text is written to a private directory
// that goes when the call ends, however it ends (the command's own bound
// on an input file applies to each, as to a file given on its command
// line). The question is a file too (--question=@FILE): a question that
// starts with "@" stays text, and no text meets the kernel's bound on one
// argument.
func (t tools) candidates(ctx context.Context, in VerifyInput) (*mcp.CallToolResult, any, error) {
	if t.o.Nested {
		return nil, nil, nestedError(ToolVerify, "call the jury")
	}
	dir, err := os.MkdirTemp("", "tribunal-verify-")
	if err != nil {
		return nil, nil, toolError(ToolVerify, fmt.Sprintf("cannot write the candidates: %v", err), "free space in the temporary directory (TMPDIR)")
	}
	defer os.RemoveAll(dir)
	args, err := candidateArgs(dir, in)
	if err != nil {
		return nil, nil, toolError(ToolVerify, fmt.Sprintf("cannot write the candidates: %v", err), "free space in the temporary directory (TMPDIR)")
	}
	return verdictResult(ToolVerify, t.o.Run(ctx, args, ""))
}

// candidateArgs writes in's texts to dir (0700, as MkdirTemp makes it)
// and returns judge's command line naming them.
func candidateArgs(dir string, in VerifyInput) ([]string, error) {
	var errs []error
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		errs = append(errs, writePrivate(path, text))
		return path
	}
	args := []string{"judge", "--json", "--candidates"}
	for i, c := range in.Candidates {
		args = append(args, write(fmt.Sprintf("candidate-%d.txt", i+1), c))
	}
	strategy := in.Strategy
	if strategy == "" {
		strategy = bestof.Best
	}
	args = append(args, "--strategy="+strategy, "--question=@"+write("question.txt", in.Question))
	if in.Expected != "" {
		args = append(args, "--expected="+write("expected.txt", in.Expected))
	}
	args = appendSet(args, "match", in.Match, "rubric", in.Rubric)
	for i, c := range in.Context {
		args = append(args, "--context="+write(fmt.Sprintf("context-%d.txt", i+1), c))
	}
	for _, c := range in.Criteria {
		args = append(args, "--criterion="+c)
	}
	return args, errors.Join(errs...)
}

// writePrivate creates path (never one that is there) readable by its
// owner only, and writes text to it.
func writePrivate(path, text string) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = fh.WriteString(text)
	return errors.Join(err, fh.Close())
}
