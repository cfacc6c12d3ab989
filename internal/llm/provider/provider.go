// Package provider seats a judge, the meta-judge or the Stop-hook judge on
// a model client of any family — Claude Code, an OpenAI-compatible
// endpoint, the Codex CLI or the Gemini CLI — behind the one claude.Runner
// interface the loop and the hook already call.
package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/redact"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Provider names, as written in settings (judges.<type>.provider).
const (
	Claude = "claude"
	OpenAI = "openai"
	Codex  = "codex"
	Gemini = "gemini"
	// Heuristic is the offline judge (internal/judging/heuristic): no model, no
	// program, the same verdict on every run. Never a default; like every
	// provider it is chosen in user-level settings only (spec §4.9).
	Heuristic = records.HeuristicProvider
)

// Names lists the known providers, for messages.
var Names = []string{Claude, OpenAI, Codex, Gemini, Heuristic}

// HeuristicModel is the heuristic judge's model id in every record: its
// family, then its rule set's version (internal/judging/heuristic.Version, which
// a test holds equal).
const HeuristicModel = "heuristic/rules-v1"

// IsHeuristic reports whether the seat is the offline heuristic judge.
func (s Spec) IsHeuristic() bool { return s.Name() == Heuristic }

// ReportsUsage reports whether the seat's client always says how many
// tokens an answer took: every model provider does, so an answer without
// usage is a stub's (spec §4.8); only the heuristic judge, which calls no
// model, reports none.
func (s Spec) ReportsUsage() bool { return !s.IsHeuristic() }

// Spec is one seat's provider as configured.
type Spec struct {
	// Provider is one of Names; "" means Claude.
	Provider string
	// Model is the model the provider is asked for. Required for OpenAI;
	// for Codex and Gemini "" leaves the CLI's own default.
	Model string
	// BaseURL is the endpoint: required for OpenAI; for Codex and Gemini
	// it points the CLI at another server than its vendor's.
	BaseURL string
	// APIKeyEnv names the environment variable holding the API key (the
	// key itself is never in a settings file).
	APIKeyEnv string
	// Family overrides the model family derived from the model name.
	Family string
	// Key is the dotted settings key of the seat ("tribunal.judges.security"),
	// for messages.
	Key string
}

// Name returns the provider, Claude when unset.
func (s Spec) Name() string {
	if s.Provider == "" {
		return Claude
	}
	return s.Provider
}

// IsClaude reports whether the seat runs on the claude CLI.
func (s Spec) IsClaude() bool { return s.Name() == Claude }

// isEnvName reports whether s looks like an environment variable's name
// ([A-Za-z_][A-Za-z0-9_]*); anything else in api_key_env is most likely a
// pasted key.
func isEnvName(s string) bool {
	for i, r := range s {
		letter := r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

// Validate reports a configuration error, naming the settings key, before
// any call is made: an unknown provider, a missing model or base URL, an
// api_key_env that is not a variable name or names an unset variable.
func (s Spec) Validate(getenv func(string) string) error {
	key := s.Key
	if key == "" {
		key = "tribunal.judges"
	}
	if !slices.Contains(Names, s.Name()) {
		return fmt.Errorf("%s.provider: unknown provider %q: must be one of %s", key, s.Provider, strings.Join(Names, ", "))
	}
	if s.IsClaude() || s.IsHeuristic() {
		return nil
	}
	if s.Name() == OpenAI {
		if s.Model == "" {
			return fmt.Errorf("%s.model: the %s provider needs a model name", key, OpenAI)
		}
		if s.BaseURL == "" {
			return fmt.Errorf("%s.base_url: the %s provider needs the endpoint's base URL (e.g. http://localhost:11434/v1)", key, OpenAI)
		}
	}
	if s.BaseURL != "" && (!strings.HasPrefix(s.BaseURL, "http://") && !strings.HasPrefix(s.BaseURL, "https://") || s.Endpoint() == "") {
		// The value is not quoted: it may carry a credential.
		return fmt.Errorf("%s.base_url: not an http(s) URL with a host (e.g. http://localhost:11434/v1)", key)
	}
	if s.APIKeyEnv != "" {
		if !isEnvName(s.APIKeyEnv) {
			return fmt.Errorf("%s.api_key_env: must be the name of an environment variable, not a key", key)
		}
		if getenv(s.APIKeyEnv) == "" {
			return fmt.Errorf("%s.api_key_env: the environment variable %s is not set", key, s.APIKeyEnv)
		}
	}
	return nil
}

// FamilyName is the model family the seat belongs to: the Family setting,
// else what the provider and the model name say. Claude Code and the Codex
// and Gemini CLIs each speak for one family; an OpenAI-compatible endpoint
// can serve any model, so there the model name decides.
func (s Spec) FamilyName() string {
	if s.Family != "" {
		return strings.ToLower(s.Family)
	}
	switch s.Name() {
	case Claude:
		return "claude"
	case Heuristic:
		return Heuristic
	case Codex:
		return "gpt"
	case Gemini:
		return "gemini"
	}
	return ModelFamily(s.Model)
}

// families maps a model-name fragment to its family, most specific first.
var families = []struct{ prefix, family string }{
	{"claude", "claude"}, {"gpt", "gpt"}, {"chatgpt", "gpt"}, {"codex", "gpt"},
	{"o1", "gpt"}, {"o3", "gpt"}, {"o4", "gpt"}, {"gemini", "gemini"}, {"gemma", "gemini"},
	{"llama", "llama"}, {"codellama", "llama"}, {"qwen", "qwen"}, {"qwq", "qwen"},
	{"mistral", "mistral"}, {"mixtral", "mistral"}, {"codestral", "mistral"}, {"devstral", "mistral"},
	{"deepseek", "deepseek"}, {"phi", "phi"}, {"grok", "grok"}, {"command", "command"},
	{"kimi", "kimi"}, {"glm", "glm"},
}

// ModelFamily derives a family from a model name ("qwen2.5-coder:7b" →
// qwen, "openai/gpt-4o-mini" → gpt). An unrecognised name is its own
// family (its first word), so two unknown models of one vendor still count
// as one family and never as Claude.
func ModelFamily(model string) string {
	m := strings.ToLower(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	for _, f := range families {
		if strings.HasPrefix(m, f.prefix) {
			return f.family
		}
	}
	if i := strings.IndexAny(m, "-:._ "); i > 0 {
		m = m[:i]
	}
	if m == "" {
		return "unknown"
	}
	return m
}

// Info returns the record of a seat with the given model.
func (s Spec) Info(model string) records.JudgeInfo {
	if s.IsHeuristic() {
		return records.JudgeInfo{Provider: Heuristic, Model: HeuristicModel, Family: Heuristic}
	}
	if !s.IsClaude() && s.Model != "" {
		model = s.Model
	}
	return records.JudgeInfo{Provider: s.Name(), Model: model, Family: s.FamilyName()}
}

// Families returns the distinct families of specs, sorted.
func Families(specs []Spec) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range specs {
		if f := s.FamilyName(); !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// OneFamilyNote is the one-line note for a panel whose judges all come
// from one model family, or "" for a mixed panel.
func OneFamilyNote(families []string) string {
	// The heuristic judge is no model: it has no family's taste to favour.
	if len(families) != 1 || families[0] == Heuristic {
		return ""
	}
	return fmt.Sprintf("every judge is a %s model; models favour their own family's work — seat another family with judges.<type>.provider (openai, codex, gemini)", families[0])
}

// Packages names the npm package of each CLI provider, for install hints.
var Packages = map[string]string{
	Claude: "@anthropic-ai/claude-code",
	Codex:  "@openai/codex",
	Gemini: "@google/gemini-cli",
}

// NotInstalledError is a CLI provider whose executable was not found: the
// seat fails, and the message says what to install.
type NotInstalledError struct {
	Program string
	Err     error
}

func (e *NotInstalledError) Error() string {
	return fmt.Sprintf("the %s CLI is not installed (%v); hint: install it with 'npm install -g %s' or set tribunal.%s.path in your user settings",
		e.Program, e.Err, Packages[e.Program], e.Program)
}

func (e *NotInstalledError) Unwrap() error { return e.Err }

// Deps is what the providers need from outside.
type Deps struct {
	// Claude runs claude seats (the existing internal/llm/claude runner).
	Claude claude.Runner
	// Getenv reads the API key variables.
	Getenv func(string) string
	// Environ is the base environment of CLI children.
	Environ []string
	// OpenAI builds the runner of an openai seat (internal/llm/provider/openai,
	// or Delegate in a binary that must not link an HTTP client); nil
	// means the provider is unavailable.
	OpenAI func(Spec) claude.Runner
	// CodexPath and GeminiPath are the user-level executable paths; ""
	// means a lookup on the PATH in Getenv.
	CodexPath, GeminiPath string
	// TempDir holds the per-call files a CLI needs (output schema, last
	// message, settings); "" means the system's.
	TempDir string
	// Redact, when set, scrubs the configured secrets from every result
	// and error a runner returns (see Redactor).
	Redact *redact.Redactor
}

// Runner returns the runner of a seat. Every one honours Call.Timeout as
// the judge's deadline and reports a failure as an error, which the loop
// turns into a failed judge (seat kept, no pass vote).
func (d Deps) Runner(s Spec) claude.Runner {
	r := d.runner(s)
	if d.Redact.Active() && r != nil {
		return redacting{red: d.Redact, next: r}
	}
	return r
}

func (d Deps) runner(s Spec) claude.Runner {
	switch s.Name() {
	case OpenAI:
		if d.OpenAI == nil {
			return claude.RunnerFunc(func(context.Context, claude.Call) (claude.Result, error) {
				return claude.Result{}, errors.New("the openai provider is not available in this program")
			})
		}
		return d.OpenAI(s)
	case Codex:
		return &codexCLI{deps: d, spec: s}
	case Gemini:
		return &geminiCLI{deps: d, spec: s}
	case Heuristic:
		// The engine seats the heuristic judge itself, over the change's
		// files (internal/judging); anywhere else there is no change to read.
		return claude.RunnerFunc(func(context.Context, claude.Call) (claude.Result, error) {
			return claude.Result{}, fmt.Errorf("%s: the heuristic judge judges a change in the jury (run, review, calibrate), not a Stop turn; set tribunal.stop_hook.provider to a model provider", s.Key)
		})
	}
	return d.Claude
}

// locate finds a CLI: the user-level path, else the program on PATH.
func (d Deps) locate(program, explicit string) (string, error) {
	path, err := claude.LocateProgram(program, explicit, d.Getenv("PATH"))
	if err != nil {
		return "", &NotInstalledError{Program: program, Err: err}
	}
	return path, nil
}

// QualifiedModel is the model id recorded for a seat: the bare model for
// claude (whose names carry the family), else "<family>/<model>", so that
// the family survives in event fields that only hold a model id.
func (s Spec) QualifiedModel(claudeModel string) string {
	if s.IsClaude() {
		return claudeModel
	}
	if s.IsHeuristic() {
		return HeuristicModel
	}
	m := s.Model
	if m == "" {
		m = s.Name() + "-default"
	}
	return s.FamilyName() + "/" + m
}

// SuspectError is the reason recorded for a suspect answer (spec §4.8).
const SuspectError = "suspect: no token usage and no cost, from a client that always reports them — a stub's answer, not a verdict"

// NoUsage reports whether res says nothing of what it cost: no token
// count (or zero) and no cost (or zero). Every model client reports both,
// so such an answer is a stub's (spec §4.8); the one rule, used by the
// jury, the meta-judge and the Stop judge.
func NoUsage(res claude.Result) bool {
	return (res.Tokens == nil || *res.Tokens == 0) && (res.CostUSD == nil || *res.CostUSD == 0)
}

// Suspect reports whether an answer that came back without error is a
// stub's: s is a client that always reports usage, and res has none.
func (s Spec) Suspect(res claude.Result, err error) bool {
	return err == nil && s.ReportsUsage() && NoUsage(res)
}
