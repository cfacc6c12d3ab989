package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/rules"
)

// Built-in defaults, the last step of every precedence chain. They equal
// the values in defaults.json (a test holds them together) and apply only
// if the merged tree somehow lacks a key.
const (
	DefaultJudgeModel         = "claude-opus-4-7"
	DefaultActorModel         = "claude-sonnet-4-6"
	DefaultMetaModel          = "claude-opus-4-7"
	DefaultActorMaxTokens     = 4096
	DefaultJudgeMaxTokens     = 2048
	DefaultMetaMaxTokens      = 1024
	DefaultRubricID           = "default"
	DefaultStopHookTimeout    = 60 * time.Second
	DefaultSessionStartMaxAge = 72 * time.Hour
	DefaultJudgeTimeout       = 600 * time.Second
	DefaultActorTimeout       = 1800 * time.Second
	DefaultMetaTimeout        = 600 * time.Second
	// DefaultBudgetUSD is a task's cost cap unless the settings say
	// otherwise (null: none): a newcomer's first tasks run on strong
	// models, and the cap is stated in every summary (issue 22).
	DefaultBudgetUSD             = 5.0
	defaultSkipIfNoFileChanges   = true
	defaultStopHookEnabled       = false
	defaultSessionJudgeTypesJSON = `["standard","adversarial"]`
)

// StopHookSettings is what the Stop-hook advisory judge reads (spec §8).
type StopHookSettings struct {
	// Enabled is true only for a JSON true (spec §A.1).
	Enabled bool
	// ReadTools lets the judge use the read-only tools in the worktree
	// (tribunal.stop_hook.tools "read"; see StopHookTools).
	ReadTools           bool
	SkipIfNoFileChanges bool
	// ScoreThreshold is tribunal.session.score_threshold; an invalid value
	// falls back to 0.75 with a warning (spec §2.3).
	ScoreThreshold float64
	// Model is the judge model for "standard" (spec §2.5).
	Model           string
	MaxOutputTokens int
	Timeout         time.Duration
	// Mode is StopModeAdvisory (the judge runs detached, nobody waits) or
	// StopModeFix (a failing verdict is handed back to the model).
	Mode string
	// MaxFixRounds bounds fix mode's rewakes per session and tree state.
	MaxFixRounds int
	// EscalateModel is the stronger model of the cheap-first cascade
	// (tribunal.stop_hook.escalate_model): the judge asks Model first and
	// asks EscalateModel again when that verdict fails or its confidence
	// is below EscalateBelow. "" is no cascade.
	EscalateModel string `json:",omitempty"`
	EscalateBelow float64
	// DailyBudgetUSD caps what the Stop judge spends per day (UTC) in a
	// project (tribunal.stop_hook.daily_budget_usd); 0 is no cap.
	DailyBudgetUSD float64 `json:",omitempty"`
	// SecretFiles are the patterns the settings add to the built-in list of
	// untracked files that look like secrets (Config.SecretFiles): the
	// judge's diff leaves those files out.
	SecretFiles []string `json:",omitempty"`
}

// Stop-hook modes (tribunal.stop_hook.mode).
const (
	StopModeAdvisory = "advisory"
	StopModeFix      = "fix"
)

// DefaultEscalateBelow is tribunal.stop_hook.escalate_below's default: a
// passing cheap verdict less confident than this is asked again of the
// stronger model.
const DefaultEscalateBelow = 0.7

// DefaultMaxFixRounds is tribunal.stop_hook.max_fix_rounds' default.
const DefaultMaxFixRounds = 1

// SessionStartSettings is what the SessionStart reader reads (spec §8.10).
type SessionStartSettings struct {
	// Enabled follows tribunal.stop_hook.enabled unless
	// tribunal.session_start.enabled is a boolean.
	Enabled bool
	// MaxAge is how old an advisory verdict may be and still be surfaced.
	MaxAge time.Duration
}

// StopHook returns the Stop-hook settings.
func (c *Config) StopHook() StopHookSettings {
	return StopHookSettings{
		Enabled:             c.boolean(defaultStopHookEnabled, "stop_hook", "enabled"),
		ReadTools:           c.StopHookTools() == StopToolsRead,
		SkipIfNoFileChanges: c.boolean(defaultSkipIfNoFileChanges, "stop_hook", "skip_if_no_file_changes"),
		ScoreThreshold:      c.stopHookThreshold(),
		Model:               c.model(c.JudgeModel("standard"), "stop_hook", "model"),
		EscalateModel:       c.model("", "stop_hook", "escalate_model"),
		EscalateBelow:       c.unit(DefaultEscalateBelow, "stop_hook", "escalate_below"),
		DailyBudgetUSD:      c.positive("stop_hook", "daily_budget_usd"),
		MaxOutputTokens:     c.count(DefaultJudgeMaxTokens, "judges", "max_output_tokens"),
		Timeout:             c.stopHookTimeout(),
		Mode:                c.stopHookMode(),
		MaxFixRounds:        c.count(DefaultMaxFixRounds, "stop_hook", "max_fix_rounds"),
		SecretFiles:         c.SecretFiles(),
	}
}

// stopHookMode reads tribunal.stop_hook.mode; anything but the two modes
// falls back to advisory with a warning: an unknown mode must never start
// handing verdicts back to the model.
func (c *Config) stopHookMode() string {
	n := c.tree.at("stop_hook", "mode")
	m, ok := str(n)
	if n.isNull() || !ok {
		return StopModeAdvisory
	}
	if m != StopModeAdvisory && m != StopModeFix {
		c.warn(fmt.Sprintf("%s: tribunal.stop_hook.mode %q is neither %q nor %q; using %q",
			n.src, m, StopModeAdvisory, StopModeFix, StopModeAdvisory))
		return StopModeAdvisory
	}
	return m
}

// MaxStopHookTimeout keeps the judge's deadline inside the hook's own
// registration timeout (90 s in hooks/hooks.json): Claude Code kills a hook
// that overruns, silently, so a longer deadline would only lose verdicts.
const MaxStopHookTimeout = 80 * time.Second

func (c *Config) stopHookTimeout() time.Duration {
	d := c.seconds(DefaultStopHookTimeout, "stop_hook", "timeout_seconds")
	if d > MaxStopHookTimeout {
		c.warn(fmt.Sprintf("tribunal.stop_hook.timeout_seconds %s is above the hook's own limit; using %s", rules.Num(d.Seconds()), rules.Num(MaxStopHookTimeout.Seconds())))
		return MaxStopHookTimeout
	}
	return d
}

// stopHookThreshold applies spec §2.3's rule for the hook: it has no run to
// abort, so a bad threshold degrades to the default with a warning.
func (c *Config) stopHookThreshold() float64 {
	n := c.tree.at("session", "score_threshold")
	if n.isNull() {
		return rules.DefaultScoreThreshold
	}
	v, err := rubric.ScoreThreshold(n.raw)
	if err != nil {
		c.warn(fmt.Sprintf("%s: %s; using %s", n.src,
			invalid("tribunal.session.score_threshold", n, err), rules.Num(rules.DefaultScoreThreshold)))
		return rules.DefaultScoreThreshold
	}
	return v
}

// SessionStart returns the SessionStart reader settings.
func (c *Config) SessionStart() SessionStartSettings {
	enabled := c.boolean(defaultStopHookEnabled, "stop_hook", "enabled")
	if n := c.tree.at("session_start", "enabled"); !n.isNull() {
		enabled = string(n.raw) == "true"
	}
	return SessionStartSettings{
		Enabled: enabled,
		MaxAge:  c.hours(DefaultSessionStartMaxAge, "session_start", "max_age_hours"),
	}
}

// JudgeModel returns the model for an effective judge type (spec §2.5):
// tribunal.judges.<t>.model, else tribunal.judges.model, else the built-in
// default. An empty string counts as unset at every step.
func (c *Config) JudgeModel(t string) string {
	if n := c.tree.at("judges", t); n.isObject() {
		if m, ok := str(n.get("model")); ok && m != "" {
			return m
		}
	}
	return c.model(DefaultJudgeModel, "judges", "model")
}

// ClaudePath returns tribunal.claude.path, or "" to mean "find claude on
// PATH". Only the plugin defaults and the user's own settings can set it:
// a repository's settings are written by whoever wrote the repository, and
// must not choose what tribunal executes (Load drops and reports them). A
// leading "~/" is expanded with the home directory.
func (c *Config) ClaudePath() string {
	p, ok := str(c.tree.at("claude", "path"))
	if !ok || p == "" {
		return ""
	}
	if rest, found := strings.CutPrefix(p, "~/"); found && c.home != "" {
		return filepath.Join(c.home, rest)
	}
	return p
}

// DefaultRubricID returns tribunal.rubric.default_id, the rubric used when
// none is named; an empty string counts as unset.
func (c *Config) DefaultRubricID() string {
	if id, ok := str(c.tree.at("rubric", "default_id")); ok && id != "" {
		return id
	}
	return DefaultRubricID
}

// BuiltinRubrics returns tribunal.rubric.builtins from the merged
// configuration, or nil when it is unset.
func (c *Config) BuiltinRubrics() json.RawMessage {
	n := c.tree.at("rubric", "builtins")
	if n.isNull() || n.isObject() {
		return nil
	}
	return append(json.RawMessage(nil), n.raw...)
}

// Raw returns the merged tribunal object as compact JSON, for snapshots and
// debugging. Unknown and mistyped keys have already been dropped from it.
func (c *Config) Raw() json.RawMessage {
	var buf bytes.Buffer
	c.tree.appendJSON(&buf)
	return buf.Bytes()
}

func (c *Config) boolean(def bool, path ...string) bool {
	n := c.tree.at(path...)
	if n.isNull() || n.isObject() {
		return def
	}
	switch string(n.raw) {
	case "true":
		return true
	case "false":
		return false
	}
	return def
}

func (c *Config) model(def string, path ...string) string {
	if m, ok := str(c.tree.at(path...)); ok && m != "" {
		return m
	}
	return def
}

// unit reads a number in [0,1] at path, def when it is absent or not one
// (the schema check has warned).
func (c *Config) unit(def float64, path ...string) float64 {
	if f, ok := number(c.tree.at(path...)); ok && f >= 0 && f <= 1 {
		return f
	}
	return def
}

// positive reads a number > 0 at path, 0 when it is absent or not one
// (the schema check has warned).
func (c *Config) positive(path ...string) float64 {
	n := c.tree.at(path...)
	if f, ok := number(n); ok && fits(n, kindPositive) {
		return f
	}
	return 0
}

func (c *Config) count(def int, path ...string) int {
	n := c.tree.at(path...)
	if f, ok := number(n); ok && fits(n, kindCount) {
		return int(f)
	}
	return def
}

func (c *Config) seconds(def time.Duration, path ...string) time.Duration {
	return c.duration(def, time.Second, path...)
}

func (c *Config) hours(def time.Duration, path ...string) time.Duration {
	return c.duration(def, time.Hour, path...)
}

func (c *Config) duration(def, unit time.Duration, path ...string) time.Duration {
	n := c.tree.at(path...)
	f, ok := number(n)
	if !ok || !fits(n, kindPositive) {
		return def
	}
	d := f * float64(unit)
	if d >= math.MaxInt64 {
		return time.Duration(math.MaxInt64)
	}
	return max(time.Duration(d), 1)
}

// invalid words an out-of-range effective value, naming the key first.
func invalid(key string, n *node, err error) string {
	return fmt.Sprintf("%s: invalid value %s: %v", key, excerpt(n), err)
}

// Disabled reports whether tribunal.enabled, the master switch (spec
// §2.13), is false, and the layer that set it: a user who turned tribunal
// off in one settings file and wonders why nothing runs is told which.
// Anything but JSON false leaves tribunal on: a mistyped value was already
// dropped with a warning, and the switch only ever turns things off.
func (c *Config) Disabled() (bool, string) {
	n := c.tree.at("enabled")
	if n.isNull() || n.isObject() || string(n.raw) != "false" {
		return false, ""
	}
	return true, n.src
}
