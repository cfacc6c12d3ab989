package prompts

import (
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/severity"
)

// Bounds on what the verifier of one finding reads: it is meant to be a
// cheap call, so it gets the cited code, not the whole change.
const (
	VerifyTaskLimit = 4000
	VerifyCodeLimit = 24000
)

// VerifyInput is what the verifier of one blocking finding is shown
// (spec §6.8).
type VerifyInput struct {
	Task    string
	Finding severity.Finding
	// Code is the cited file's lines around the finding, each prefixed
	// with its number, and CodeLabel names them ("main.go, lines 1-40");
	// for a finding that cites no file, Code is the change's diff.
	Code      string
	CodeLabel string
}

// Verifier labels of the fenced sections.
const (
	verifyTaskLabel    = "TASK"
	verifyFindingLabel = "FINDING"
	verifyCodeLabel    = "CODE"
)

// VerifyPrompt asks a second model whether one finding of a judge holds
// in the code it cites. The finding is the claim under test: the model is
// told to refute it only when the code shows it wrong, so that a doubt
// keeps the finding (the gate fails safe).
func VerifyPrompt(in VerifyInput) string {
	task := headBytes(in.Task, VerifyTaskLimit)
	code := headBytes(in.Code, VerifyCodeLimit)
	if code == "" {
		code = "(no code could be read for this finding)\n"
	}
	// The label names a path a judge wrote: it stays inside the fence.
	if in.CodeLabel != "" {
		code = "[" + in.CodeLabel + "]\n" + code
	}
	finding := verifyFindingText(in.Finding)
	f := newFencer(task, finding, code)
	var b strings.Builder
	b.WriteString("You are a Tribunal verifier. A judge reviewing a code change reported the finding below as serious enough to block the change. " +
		"Check it against the code it cites and answer with JSON only: no prose, no Markdown fences.\n\n")
	b.WriteString("Output schema: {\"verdict\": \"confirmed\" or \"refuted\", \"reason\": \"one or two sentences citing the code\"}\n\n")
	b.WriteString("Answer \"refuted\" only when the code shown proves the finding wrong: the problem it describes is not there, or the cited code does not do what the finding says. " +
		"When the code shown supports the finding, or does not settle it either way, answer \"confirmed\".\n")
	b.WriteString("You have no tools: judge from the material below.\n")
	b.WriteString(f.notice() + "\n\n")
	f.wrap(&b, verifyTaskLabel, task)
	b.WriteByte('\n')
	f.wrap(&b, verifyFindingLabel, finding)
	b.WriteByte('\n')
	f.wrap(&b, verifyCodeLabel, code)
	return b.String()
}

func verifyFindingText(fd severity.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "severity: %s\n", fd.Severity)
	if fd.File != "" {
		loc := fd.File
		if fd.Line > 0 {
			loc = fmt.Sprintf("%s:%d", fd.File, fd.Line)
		}
		fmt.Fprintf(&b, "location: %s\n", loc)
	}
	if fd.Criterion != "" {
		fmt.Fprintf(&b, "criterion: %s\n", fd.Criterion)
	}
	fmt.Fprintf(&b, "message: %s\n", fd.Message)
	return b.String()
}

// VerifySchema is the verifier's structured-output schema.
func VerifySchema() string {
	return mustJSON(object{
		{"type", "object"},
		{"properties", object{
			{"verdict", stringEnum(severity.Confirmed, severity.Refuted)},
			{"reason", object{{"type", "string"}, {"minLength", 1}}},
		}},
		{"required", []string{"verdict", "reason"}},
		{"additionalProperties", false},
	})
}
