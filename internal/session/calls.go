package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/claude"
	"github.com/tribunal-cc/tribunal/internal/provider"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// ErrNoVerdict marks a task aborted because no judge of an iteration
// produced a usable verdict.
var ErrNoVerdict = errors.New("no judge produced a usable verdict")

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

// callMeta says which seat and attempt a model call belongs to.
type callMeta struct {
	Role string `json:"role"`
	// Provider is the client that made the call (claude, codex, gemini,
	// openai); Endpoint the base URL of an HTTP one.
	Provider  string `json:"provider"`
	Endpoint  string `json:"endpoint,omitempty"`
	JudgeID   string `json:"judge_id,omitempty"`
	JudgeType string `json:"judge_type,omitempty"`
	Rep       *int   `json:"rep,omitempty"`
	Attempt   int    `json:"attempt,omitempty"`
}

// callRecord is the evidence of one model call: what was asked, of whom,
// how, and what came back, verbatim.
type callRecord struct {
	callMeta
	Model string `json:"model,omitempty"`
	// Argv is the child's command line (the prompt goes on stdin; a
	// temporary file the client makes is shown as <…>); none for an HTTP
	// provider. The environment is not recorded: it may hold credentials;
	// tribunal adds only the variables named in EnvAdded.
	Argv       []string        `json:"argv"`
	EnvAdded   []string        `json:"env_added"`
	Dir        string          `json:"dir"`
	Prompt     string          `json:"prompt"`
	RawOutput  string          `json:"raw_output"`
	Text       string          `json:"result_text,omitempty"`
	Structured json.RawMessage `json:"structured_output,omitempty"`
	Usage      callUsage       `json:"usage"`
	CostUSD    *float64        `json:"cost_usd,omitempty"`
	Error      string          `json:"error,omitempty"`
	Stderr     string          `json:"stderr_tail,omitempty"`
}

type callUsage struct {
	Tokens     *int  `json:"tokens,omitempty"`
	NumTurns   int   `json:"num_turns,omitempty"`
	DurationMS int64 `json:"duration_ms"`
	ExitCode   int   `json:"exit_code"`
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

func (it *iterationState) nextCall() int {
	it.calls++
	return it.calls
}

// callFile names a call's record: calls/<nn>-<label>.json.
func callFile(dir string, seq int, label string) string {
	return filepath.Join(dir, store.CallsDir, fmt.Sprintf("%02d-%s.json", seq, label))
}

// recordCall stores one model call's evidence beside the iteration's
// artifacts. A write failure is a warning like any artifact's.
func (r *runner) recordCall(dir string, seq int, label string, spec provider.Spec, meta callMeta, call claude.Call, res claude.Result, err error) {
	meta.Provider = spec.Name()
	if spec.Name() == provider.OpenAI {
		meta.Endpoint = spec.BaseURL
	}
	rec := callRecord{
		callMeta: meta, Model: call.Model,
		Argv:     redactArgv(callArgv(spec, call)),
		EnvAdded: []string{claude.GuardEnv + "=1"},
		Dir:      call.Dir, Prompt: call.Prompt, RawOutput: res.Raw, Text: res.Text,
		Structured: res.Structured, CostUSD: res.CostUSD, Stderr: res.Stderr,
		Usage: callUsage{Tokens: res.Tokens, NumTurns: res.NumTurns, DurationMS: res.Duration.Milliseconds(), ExitCode: res.ExitCode},
	}
	if call.MaxOutputTokens > 0 {
		rec.EnvAdded = append(rec.EnvAdded, fmt.Sprintf("CLAUDE_CODE_MAX_OUTPUT_TOKENS=%d", call.MaxOutputTokens))
	}
	if err != nil {
		rec.Error = err.Error()
	}
	r.write(callFile(dir, seq, label), rec)
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
