package config

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/severity"
)

// Settings beyond tribunal 1.2.7: judge reps, the trust gate over
// reps, the severity policy and command judges (docs/adr/007).

// Reps returns how many independent calls a judge seat of type t makes:
// judges.<t>.reps, else judges.reps, else 1.
func (c *Config) Reps(t string) int {
	if n := c.count(0, "judges", t, "reps"); n > 0 {
		return n
	}
	return c.count(1, "judges", "reps")
}

// RepModel is the model of rep i of a type-t seat: judges.<t>.models[i mod
// len] when that list has non-empty strings, else the type's model (spec §2.5).
func (c *Config) RepModel(t string, i int) string {
	var models []string
	if n := c.tree.at("judges", t, "models"); !n.isNull() && !n.isObject() {
		var raw []json.RawMessage
		if json.Unmarshal(n.raw, &raw) == nil {
			for _, r := range raw {
				var s string
				if json.Unmarshal(r, &s) == nil && s != "" {
					models = append(models, s)
				}
			}
		}
	}
	if len(models) == 0 {
		return c.JudgeModel(t)
	}
	return models[i%len(models)]
}

// ChangeLimits returns session.max_file_mb and session.max_change_mb in
// bytes: how large one file a task writes, and all the files it adds or
// rewrites together, may be. 0 means unset (internal/git/worktree's defaults,
// 50 and 200 MiB, apply).
func (c *Config) ChangeLimits() (file, change int64) {
	return int64(c.count(0, "session", "max_file_mb")) << 20, int64(c.count(0, "session", "max_change_mb")) << 20
}

// WorktreePool is session.worktree_pool: the warm task worktrees kept per
// repository (internal/git/worktree.Pool). Zero values mean the defaults.
type WorktreePool struct {
	Off         bool          // enabled: false
	Size        int           // size
	MaxIdle     time.Duration // max_idle_hours
	KeepIgnored bool          // keep_ignored
}

// WorktreePool returns session.worktree_pool.
func (c *Config) WorktreePool() WorktreePool {
	return WorktreePool{
		Off:         !c.boolean(true, "session", "worktree_pool", "enabled"),
		Size:        c.count(0, "session", "worktree_pool", "size"),
		MaxIdle:     c.hours(0, "session", "worktree_pool", "max_idle_hours"),
		KeepIgnored: c.boolean(false, "session", "worktree_pool", "keep_ignored"),
	}
}

// TrustSettings configure the trust gate over a seat's reps.
type TrustSettings struct {
	// Block makes an untrustworthy jury block the gate; otherwise the
	// result is recorded and shown only.
	Block      bool
	Thresholds rules.TrustThresholds
}

// Trust returns the trust-gate settings; out-of-range values fall back to
// the defaults with a warning.
func (c *Config) Trust() TrustSettings {
	th := rules.DefaultTrustThresholds()
	th.MinSurvivors = c.count(th.MinSurvivors, "trust", "min_survivors")
	if f, ok := number(c.tree.at("trust", "spread_ceiling")); ok {
		if f >= 0 && f <= 1 {
			th.SpreadCeiling = f
		} else {
			c.warn(fmt.Sprintf("tribunal.trust.spread_ceiling %s is outside [0,1]; using %s", rules.Num(f), rules.Num(th.SpreadCeiling)))
		}
	}
	if f, ok := number(c.tree.at("trust", "irr_floor")); ok {
		if f >= -1 && f <= 1 {
			th.IRRFloor = f
		} else {
			c.warn(fmt.Sprintf("tribunal.trust.irr_floor %s is outside [-1,1]; using %s", rules.Num(f), rules.Num(th.IRRFloor)))
		}
	}
	return TrustSettings{Block: c.boolean(false, "trust", "block"), Thresholds: th}
}

// RetentionDays returns tribunal.retention_days: the age in days past
// which `tribunal-session gc --records` prunes a record when it is given
// no --older-than. 0, the default, is off. Nothing else prunes: no hook
// and no run reads it, so keeping records costs no one a wait.
func (c *Config) RetentionDays() int { return c.count(0, "retention_days") }

// LedgerKey returns tribunal.trust.ledger_key, the fingerprint (or public
// key) the ledger's entries must be signed by, or "" when no anchor is
// set. Only the plugin defaults and the user's own settings can set it
// (Load drops and reports a repository's).
func (c *Config) LedgerKey() string {
	s, _ := str(c.tree.at("trust", "ledger_key"))
	return strings.TrimSpace(s)
}

// ReceiptsRef returns tribunal.receipts.notes_ref, the notes ref receipts
// are written to and read from, or "" for the default. Only the plugin
// defaults and the user's own settings can set it: a repository choosing
// where its receipts are looked for could point verify at notes it
// planted.
func (c *Config) ReceiptsRef() string {
	s, _ := str(c.tree.at("receipts", "notes_ref"))
	return strings.TrimSpace(s)
}

// SeverityFailAt returns the severity.fail_at_or_above policy; severity.None
// means off. An unknown level is an error naming the key, like any other
// invalid effective value (spec §2.3).
func (c *Config) SeverityFailAt() (severity.Level, error) {
	n := c.tree.at("severity", "fail_at_or_above")
	s, ok := str(n)
	if !ok || s == "" {
		return severity.None, nil
	}
	l, ok := severity.Parse(s)
	if !ok {
		return severity.None, fmt.Errorf("tribunal.severity.fail_at_or_above: invalid value %q: must be one of %s", s, strings.Join(severity.Names(), ", "))
	}
	return l, nil
}

// CommandJudge is one configured command judge as plain data;
// internal/judging/cmdjudge validates it and runs it.
type CommandJudge struct {
	// Key is the judge's settings key (tribunal.command_judges.<name>),
	// for messages.
	Key       string
	Name      string
	Command   []string
	Timeout   time.Duration
	PassScore float64
	FailScore float64
	MaxOutput int
	Required  bool
	// TimeBudget (0: none) and ExpectOutput (nil: any) are the command's
	// evaluators (spec §3.4): it fails when slower, or when its output is
	// not exactly the expected text.
	TimeBudget   time.Duration
	ExpectOutput *string
}

// CommandJudges returns the enabled command judges, sorted by name, with
// defTimeout where none is set. A command that is not an array of strings,
// or scores out of order, are errors naming the key.
func (c *Config) CommandJudges(defTimeout time.Duration) ([]CommandJudge, error) {
	root := c.tree.get("command_judges")
	if !root.isObject() {
		return nil, nil
	}
	names := append([]string(nil), root.keys...)
	sort.Strings(names)
	var out []CommandJudge
	for _, name := range names {
		n := root.get(name)
		key := "tribunal.command_judges." + name
		if !c.boolean(true, "command_judges", name, "enabled") {
			continue
		}
		j := CommandJudge{
			Key: key, Name: name,
			Timeout:   c.seconds(defTimeout, "command_judges", name, "timeout_seconds"),
			PassScore: 1, FailScore: 0,
			MaxOutput:  c.count(0, "command_judges", name, "max_output_bytes"),
			Required:   c.boolean(true, "command_judges", name, "required"),
			TimeBudget: c.seconds(0, "command_judges", name, "time_budget_seconds"),
		}
		if e, ok := str(n.get("expect_output")); ok {
			j.ExpectOutput = &e
		}
		if a := n.get("command"); !a.isNull() {
			if err := json.Unmarshal(a.raw, &j.Command); err != nil {
				return nil, fmt.Errorf("%s.command: must be an array of strings", key)
			}
		}
		if f, ok := number(n.get("pass_score")); ok {
			j.PassScore = f
		}
		if f, ok := number(n.get("fail_score")); ok {
			j.FailScore = f
		}
		if j.PassScore < 0 || j.PassScore > 1 || j.FailScore < 0 || j.FailScore > 1 || j.FailScore >= j.PassScore {
			return nil, fmt.Errorf("%s: pass_score and fail_score must be in [0,1] with fail_score < pass_score", key)
		}
		out = append(out, j)
	}
	return out, nil
}

// allowedRepos reads the user-level command_judge_repositories allowlist
// from the layers merged so far, as cleaned physical paths.
func allowedRepos(tree *node, home string) map[string]bool {
	out := map[string]bool{}
	n := tree.get("command_judge_repositories")
	if n.isNull() || n.isObject() {
		return out
	}
	var paths []string
	if json.Unmarshal(n.raw, &paths) != nil {
		return out
	}
	for _, p := range paths {
		if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
			p = filepath.Join(home, rest)
		}
		if !filepath.IsAbs(p) {
			continue
		}
		p = filepath.Clean(p)
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		out[p] = true
	}
	return out
}

// guardCommandJudges enforces the trust boundary on a repository layer t:
// command judges run arbitrary programs, so a repository may define them
// only when the user has listed its root in command_judge_repositories,
// and it may never touch that list.
func guardCommandJudges(t *node, path, worktreeRoot string, allowed map[string]bool, warn func(string)) {
	if t == nil {
		return
	}
	if !t.get("command_judge_repositories").isNull() {
		warn(fmt.Sprintf("%s: repository settings may not change %q; key ignored", path, "tribunal.command_judge_repositories"))
		t.del("command_judge_repositories")
	}
	if t.get("command_judges").isNull() {
		return
	}
	root := filepath.Clean(worktreeRoot)
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	if !allowed[root] {
		warn(fmt.Sprintf("%s: repository settings may not define command judges unless %q is listed in the user-level %q; key %q ignored",
			path, root, "tribunal.command_judge_repositories", "tribunal.command_judges"))
		t.del("command_judges")
	}
}
