package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// JudgeInput is the judge tool's arguments: at most one change (none is
// the working tree's), what it is for, and the rubric.
type JudgeInput struct {
	Diff   string `json:"diff,omitempty" jsonschema:"a unified diff as git prints it, judged applied on base (HEAD by default). Leave out diff, base and staged to judge the working tree's uncommitted change (tracked edits and untracked files) against HEAD"`
	Base   string `json:"base,omitempty" jsonschema:"without diff: judge the change from the merge base of base and head, as a pull request shows it; with diff: the commit the diff applies to"`
	Head   string `json:"head,omitempty" jsonschema:"the head of a base..head range (HEAD by default)"`
	Staged bool   `json:"staged,omitempty" jsonschema:"judge the staged changes (the index against HEAD)"`
	Task   string `json:"task,omitempty" jsonschema:"what the change is meant to do; without it the judges judge the change on its own terms"`
	Rubric string `json:"rubric,omitempty" jsonschema:"the rubric id to judge with (default: the configured one; tribunal-session rubrics lists them)"`
	// Candidate is the founding adapter's judge({candidate, rubric}): a
	// text judged as an answer to task, not a change.
	Candidate string `json:"candidate,omitempty" jsonschema:"a candidate text (any model output) to judge as an answer to task instead of a code change; not with diff, base, head or staged"`
}

// VerifyInput is the verify tool's arguments: an answer, its question,
// and what it is held to.
type VerifyInput struct {
	Answer   string `json:"answer,omitempty" jsonschema:"the answer to judge: any model output, free text or JSON; give answer or candidates, not both"`
	Question string `json:"question" jsonschema:"the question or task the answer responds to"`
	// Candidates and Strategy are `judge --candidates FILE… --strategy S`.
	Candidates []string `json:"candidates,omitempty" jsonschema:"2 to 5 answers to the same question, instead of answer: each is judged as answer is (same jury, checks and options), then the accepted ones are compared pairwise in both orders and chosen between by strategy"`
	Strategy   string   `json:"strategy,omitempty" jsonschema:"only with candidates: best (default) returns the winner; rank orders every candidate; merge writes one answer from the accepted ones and judges it (fewer than 2 accepted: best)"`
	Expected   string   `json:"expected,omitempty" jsonschema:"the expected (reference) answer"`
	Match      string   `json:"match,omitempty" jsonschema:"how to compare with expected: semantic (default; the judges decide), exact, icase or normalised (white space and case ignored)"`
	Criteria   []string `json:"criteria,omitempty" jsonschema:"requirements of your own the judges hold the answer to, beside the rubric"`
	Context    []string `json:"context,omitempty" jsonschema:"texts the answer may rely on: the judges score groundedness against them"`
	Rubric     string   `json:"rubric,omitempty" jsonschema:"the rubric id to judge with (default: answer)"`
}

// ListInput is list_verdicts' filters.
type ListInput struct {
	Limit   int    `json:"limit,omitempty" jsonschema:"at most this many records, newest first (default 20)"`
	Since   string `json:"since,omitempty" jsonschema:"only records from then on: a duration back from now (90m, 36h, 7d) or a date (2026-05-24)"`
	Outcome string `json:"outcome,omitempty" jsonschema:"only these outcomes, separated by commas: accepted, not-accepted, aborted, rejected, failed, cancelled, incomplete"`
}

// ShowInput names one record.
type ShowInput struct {
	ID string `json:"id" jsonschema:"a task, review or session id (any unambiguous prefix), or last for the newest record"`
}

// DismissInput names one finding of one record, and why it does not apply.
type DismissInput struct {
	ID      string          `json:"id" jsonschema:"the record whose finding it is: a task or review id, a session id, or last"`
	Finding json.RawMessage `json:"finding" jsonschema:"the finding: its number as show_verdict lists it (1, 2, …) or its fingerprint (tf2:…)"`
	Reason  string          `json:"reason" jsonschema:"why the finding does not apply"`
	Shared  bool            `json:"shared,omitempty" jsonschema:"write it to the repository's .tribunal/dismissed for the whole team instead of your own list"`
}

// knownArgs are each tool's argument names, for unknownArguments.
var knownArgs = map[string][]string{
	ToolJudge:   {"diff", "base", "head", "staged", "task", "rubric", "candidate"},
	ToolVerify:  {"answer", "question", "expected", "match", "criteria", "context", "rubric", "candidates", "strategy"},
	ToolList:    {"limit", "since", "outcome"},
	ToolShow:    {"id"},
	ToolDismiss: {"id", "finding", "reason", "shared"},
}

const (
	judgeDescription  = `Judge a code change with tribunal's configured jury and rubric — the same judges, meta-judge and gate as 'tribunal-session review' — and record the verdict. With no change named it judges the working tree's uncommitted change against HEAD. Returns the review JSON: review_id (the record id), outcome (accepted, rejected or no-verdict), reason, judges with scores, findings (severity, file, line, message, fingerprint), cost_usd. Calls models: it takes a minute or more and costs money.`
	verifyDescription = `Judge an answer — any model output, free text or JSON — against its question with tribunal's jury, meta-judge and gate (the same as 'tribunal-session judge'), optionally against an expected answer, your own criteria and the context it may rely on, and record the verdict. Returns the verdict JSON: id (the record id), outcome (accepted, rejected or no-verdict), passed, score, threshold, reason, judges, checks (expected answer, must_include/must_avoid), findings, digests of what was judged. With candidates (2 to 5 answers) instead of answer, it judges each and chooses by strategy (best, rank, merge), as 'tribunal-session judge --candidates' does, and returns the set's JSON: id (the set's record), strategy_used, winner (the candidate's 1-based place in candidates), order, candidates with their verdicts, comparisons, and verdict (the chosen answer's). Calls models: it costs money.`
	listDescription   = `List this repository's recorded tribunal verdicts (tasks, reviews, advisory Stop-hook verdicts), newest first: id, kind, outcome, score, cost, summary.`
	showDescription   = `Everything recorded about one tribunal task, review or advisory verdict: each iteration's judges, scores, feedback, findings (numbered as dismiss_finding takes them) and the gate's reason.`
	// The reason is kept with the dismissal and shown to later judges.
	dismissDescription = `Dismiss one finding of a recorded verdict so that no judge raises it again until the code it points at changes. Give the reason it does not apply: judges are told it. Returns the dismissal's fingerprint.`
)

// tools are the handlers; each runs one command.
type tools struct{ o Options }

func (t tools) judge(ctx context.Context, _ *mcp.CallToolRequest, in JudgeInput) (*mcp.CallToolResult, any, error) {
	if t.o.Nested {
		return nil, nil, nestedError(ToolJudge, "call the jury")
	}
	if in.Candidate != "" {
		if in.Diff != "" || in.Base != "" || in.Head != "" || in.Staged {
			return nil, nil, toolError(ToolJudge, "candidate is a text to judge, not a change: it does not go with diff, base, head or staged", "pass candidate (and task) alone, or the change alone")
		}
		return t.answer(ctx, ToolJudge, VerifyInput{Answer: in.Candidate, Question: in.Task, Rubric: in.Rubric})
	}
	args := []string{"review", "--json"}
	stdin := ""
	switch {
	case in.Diff != "":
		args, stdin = append(args, "--diff=-"), in.Diff
	case in.Base == "" && in.Head == "" && !in.Staged:
		args = append(args, "--worktree")
	}
	args = appendSet(args, "base", in.Base, "head", in.Head, "task", in.Task, "rubric", in.Rubric)
	if in.Staged {
		args = append(args, "--staged")
	}
	r := t.o.Run(ctx, args, stdin)
	switch {
	case (r.Code == exitAccepted || r.Code == exitNotAccepted) && strings.TrimSpace(r.Stdout) != "":
		return jsonResult(r.Stdout, false), nil, nil
	case r.Code == exitAccepted:
		// Nothing to review: said on stderr, and no verdict.
		return textResult(lastLines(r.Stderr), false), nil, nil
	case strings.TrimSpace(r.Stdout) != "":
		// Stopped, or no judge produced a verdict: the record exists, but
		// it is not a judgement of the code.
		res := jsonResult(r.Stdout, true)
		res.Content = append(res.Content, &mcp.TextContent{Text: lastLines(r.Stderr)})
		return res, nil, nil
	}
	return nil, nil, failed(ToolJudge, r)
}

func (t tools) list(ctx context.Context, _ *mcp.CallToolRequest, in ListInput) (*mcp.CallToolResult, any, error) {
	if in.Limit < 0 {
		return nil, nil, toolError(ToolList, fmt.Sprintf("limit must be 1 or more (got %d)", in.Limit), "leave it out for the newest 20")
	}
	args := []string{"log", "--json"}
	if in.Limit > 0 {
		args = append(args, "--limit="+strconv.Itoa(in.Limit))
	}
	r := t.o.Run(ctx, appendSet(args, "since", in.Since, "outcome", in.Outcome), "")
	if r.Code != exitAccepted {
		return nil, nil, failed(ToolList, r)
	}
	return jsonResult(r.Stdout, false), nil, nil
}

func (t tools) show(ctx context.Context, _ *mcp.CallToolRequest, in ShowInput) (*mcp.CallToolResult, any, error) {
	if err := checkID(ToolShow, "id", in.ID); err != nil {
		return nil, nil, err
	}
	r := t.o.Run(ctx, []string{"show", "--json", in.ID}, "")
	switch r.Code {
	case exitAccepted:
		return jsonResult(r.Stdout, false), nil, nil
	case exitIncomplete:
		// Shown, but a recorded file is missing or corrupt: say which.
		res := jsonResult(r.Stdout, false)
		res.Content = append(res.Content, &mcp.TextContent{Text: lastLines(r.Stderr)})
		return res, nil, nil
	}
	return nil, nil, failed(ToolShow, r)
}

func (t tools) dismiss(ctx context.Context, _ *mcp.CallToolRequest, in DismissInput) (*mcp.CallToolResult, any, error) {
	if t.o.Nested {
		return nil, nil, nestedError(ToolDismiss, "dismiss a finding")
	}
	finding, err := findingRef(in.Finding)
	if err != nil {
		return nil, nil, err
	}
	if err := checkID(ToolDismiss, "id", in.ID); err != nil {
		return nil, nil, err
	}
	if err := checkID(ToolDismiss, "finding", finding); err != nil {
		return nil, nil, err
	}
	args := []string{"dismiss", "--reason=" + in.Reason, in.ID, finding}
	if in.Shared {
		args = append(args, "--shared")
	}
	r := t.o.Run(ctx, args, "")
	if r.Code != exitAccepted {
		return nil, nil, failed(ToolDismiss, r)
	}
	out, _ := json.MarshalIndent(map[string]string{"fingerprint": strings.TrimSpace(r.Stdout), "note": lastLines(r.Stderr)}, "", "  ")
	return jsonResult(string(out), false), nil, nil
}

// findingRef is the finding's number or fingerprint as the command takes
// it; a model may send the number as a JSON number or a string.
func findingRef(raw json.RawMessage) (string, error) {
	var n int
	if err := json.Unmarshal(raw, &n); err == nil {
		return strconv.Itoa(n), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil && strings.TrimSpace(s) != "" {
		return strings.TrimSpace(s), nil
	}
	return "", toolError(ToolDismiss, fmt.Sprintf("finding %s is neither a number nor a fingerprint", string(raw)), "pass the number show_verdict lists (1, 2, …) or the fingerprint (tf2:…)")
}

// checkID refuses a value the command would read as a flag.
func checkID(tool, name, v string) error {
	if strings.TrimSpace(v) == "" {
		return toolError(tool, name+" is empty", "list_verdicts lists the ids; last is the newest")
	}
	if strings.HasPrefix(v, "-") {
		return toolError(tool, fmt.Sprintf("%s %q is not an id", name, v), "list_verdicts lists the ids; last is the newest")
	}
	return nil
}

// appendSet appends --NAME=VALUE for each non-empty value of the pairs;
// the = form keeps a value that starts with "-" a value.
func appendSet(args []string, pairs ...string) []string {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			args = append(args, "--"+pairs[i]+"="+pairs[i+1])
		}
	}
	return args
}

func nestedError(tool, what string) error {
	return toolError(tool, "refused: this server runs inside a child that tribunal started (TRIBUNAL_NESTED is set), which may not "+what,
		"an actor or judge cannot ask for a jury; call "+tool+" from your own Claude Code session")
}

// failed is the command's own error and hint lines as the tool's error.
func failed(tool string, r Result) error {
	msg := lastLines(r.Stderr)
	if msg == "" {
		return toolError(tool, fmt.Sprintf("the command exited %d and said nothing", r.Code), "")
	}
	return fmt.Errorf("%s", msg)
}

// lastLines is the tail of a command's stderr: its progress lines can be
// many, and the error with its hint comes last.
func lastLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return strings.Join(lines, "\n")
}

func jsonResult(out string, isError bool) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.TrimSpace(out)}}, IsError: isError}
	if json.Valid([]byte(out)) {
		res.StructuredContent = json.RawMessage(strings.TrimSpace(out))
	}
	return res
}

func textResult(text string, isError bool) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: isError}
}

// dismissSchema is DismissInput's inferred schema with finding taking a
// number or a string (a json.RawMessage infers as a byte array), as
// anyOf branches of one type each: a type array is legal but some
// clients map schemas onto a one-type dialect (the Inspector warns).
func dismissSchema() *jsonschema.Schema {
	s, err := jsonschema.For[DismissInput](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: the dismiss schema: %v", err))
	}
	f := s.Properties["finding"]
	f.Type, f.Types, f.Items = "", nil, nil
	f.AnyOf = []*jsonschema.Schema{{Type: "integer"}, {Type: "string"}}
	return s
}
