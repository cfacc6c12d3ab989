package judging

import (
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/proc/childenv"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// noVerdict returns an error naming every seat's failure when none of the
// verdicts has a usable score.
func noVerdict(verdicts []verdict.Verdict) error {
	var why []string
	for _, v := range verdicts {
		if _, ok := v.UsableScore(); ok {
			return nil
		}
		reason := "no usable score"
		if v.Failed {
			reason = firstLine(v.Error, 200)
		}
		why = append(why, v.JudgeType+": "+reason)
	}
	return fmt.Errorf("%w (%s)", ErrNoVerdict, strings.Join(why, "; "))
}

// secretFlag marks command-line flags whose value must not be stored.
func secretFlag(flag string) bool {
	f := strings.ToLower(flag)
	for _, w := range []string{"key", "token", "secret", "password", "credential"} {
		if strings.Contains(f, w) {
			return true
		}
	}
	return false
}

// redactArgv replaces the value of any secret-looking flag. claude.Args
// puts no secret on the command line today; this keeps a future flag from
// landing one in the evidence.
func redactArgv(argv []string) []string {
	out := append([]string(nil), argv...)
	for i := 0; i < len(out); i++ {
		name, _, hasValue := strings.Cut(out[i], "=")
		if !strings.HasPrefix(name, "--") || !secretFlag(name) {
			continue
		}
		if hasValue {
			out[i] = name + "=[redacted]"
		} else if i+1 < len(out) {
			out[i+1] = "[redacted]"
			i++
		}
	}
	return out
}

// NextCall numbers the round's next model call for its record.
func (it *Round) NextCall() int {
	it.Calls++
	return it.Calls
}

// recordCall stores one model call's evidence beside the round's
// artifacts. A write failure is a warning like any artifact's.
func (r *round) recordCall(seq int, label string, spec provider.Spec, meta records.CallMeta, call claude.Call, res claude.Result, err error) {
	r.write(records.CallPath(r.in.ArtifactDir, seq, label), CallRecord(spec, meta, call, res, err))
}

// CallRecord is the evidence kept of one model call (records.Call): what
// was run, with secret-looking flag values redacted, and what came back.
func CallRecord(spec provider.Spec, meta records.CallMeta, call claude.Call, res claude.Result, err error) records.Call {
	meta.Provider = spec.Name()
	if spec.Name() == provider.OpenAI {
		meta.Endpoint = spec.Endpoint()
	}
	rec := records.Call{
		CallMeta: meta, Model: call.Model,
		Argv:     redactArgv(callArgv(spec, call)),
		EnvAdded: []string{childenv.GuardEnv + "=1"},
		Dir:      call.Dir, Prompt: call.Prompt, RawOutput: res.Raw, Text: res.Text,
		Structured: res.Structured, CostUSD: res.CostUSD, Stderr: res.Stderr,
		Usage: records.CallUsage{Tokens: res.Tokens, InputTokens: res.InputTokens, OutputTokens: res.OutputTokens, NumTurns: res.NumTurns, DurationMS: res.Duration.Milliseconds(), ExitCode: res.ExitCode},
	}
	if call.MaxOutputTokens > 0 {
		rec.EnvAdded = append(rec.EnvAdded, fmt.Sprintf("CLAUDE_CODE_MAX_OUTPUT_TOKENS=%d", call.MaxOutputTokens))
	}
	if err != nil {
		rec.Error = err.Error()
	}
	return rec
}

// callArgv is the command line a provider runs for call (nil for an HTTP
// provider).
func callArgv(spec provider.Spec, call claude.Call) []string {
	switch spec.Name() {
	case provider.Codex:
		return append([]string{"codex"}, provider.CodexArgs(spec, call, "<schema file>", "<last message file>")...)
	case provider.Gemini:
		return append([]string{"gemini"}, provider.GeminiArgs(spec, call.Dir)...)
	case provider.OpenAI:
		return nil
	}
	return append([]string{"claude"}, claude.Args(call)...)
}
