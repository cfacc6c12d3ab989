package surface

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/hook/hookio"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// maxPromptFeedback bounds the concern quoted in the user's message.
const maxPromptFeedback = 200

// RunPrompt is the UserPromptSubmit hook: when the session's last advisory
// verdict finished after its turn ended and nobody has seen it, it shows it
// once, to the user as a one-line systemMessage and to the model as
// additionalContext. With nothing pending it costs one failed open: no
// configuration, no git. It always returns 0; its stdout is empty or one
// JSON object.
func RunPrompt(_ context.Context, d Deps) int {
	if hookio.Nested(d.Getenv) {
		return 0
	}
	h := &hook{Deps: d.withDefaults()}
	h.in = hookio.Read(h.Stdin)
	if h.in.SessionID == "" {
		return 0
	}
	onlookerDir, _ := events.ResolvePaths(h.Getenv, h.Home)
	path := records.PendingPath(onlookerDir, h.in.SessionID)
	fi, err := os.Lstat(path)
	if err != nil {
		return 0
	}
	if h.Now().Sub(fi.ModTime()) > records.PendingExpiry {
		// Too old to interrupt a prompt for (a session resumed days
		// later): dropped unseen; session start and show still list it.
		os.Remove(path)
		return 0
	}
	if h.disabled() {
		// Left unclaimed: turned back on, the user still sees it.
		return 0
	}
	// Renaming the pending file away is the claim: of two prompts racing,
	// one gets it. The file is gone afterwards whatever happens, so a
	// broken one is reported once, not at every prompt.
	claimed := path + "." + strconv.Itoa(os.Getpid()) + ".shown"
	if err := os.Rename(path, claimed); err != nil {
		return 0
	}
	data, ok := store.ReadOptional(claimed, records.MaxPending, h.Warn)
	os.Remove(claimed)
	if !ok {
		return 0
	}
	p, err := records.DecodePending(onlookerDir, data)
	if err != nil {
		h.warn("ignoring the pending verdict %q: %v", path, err)
		return 0
	}
	if p.Paused != nil {
		h.emitPrompt(PauseLine(*p.Paused, p.BudgetUSD), "")
		return 0
	}
	a, err := records.ReadStopFile(p.StopFile)
	if err != nil {
		h.warn("cannot read the pending verdict %q: %v", p.StopFile, err)
		return 0
	}
	if a.TaskID != p.TaskID {
		// A later verdict replaced it; that one has its own pending file.
		return 0
	}
	ok, err = records.MarkShown(p.ProjectDir, a, records.Mark{SurfacedAt: h.Now().UTC().Truncate(time.Second), SessionID: h.in.SessionID})
	if err != nil {
		h.warn("not showing %q: %v", a.Path, err)
		return 0
	}
	if !ok {
		return 0 // already shown (by fix mode, or a session start)
	}
	h.emitPrompt(PromptLine(a), PromptContext(a))
	return 0
}

// PromptLine is the user's message about a verdict: tribunal's line with
// the verdict and score from the stop file's typed fields, then the
// judge's words as a quoted block under it.
func PromptLine(a records.Advisory) string {
	verdict := "FAIL"
	if a.Passed {
		verdict = "pass"
	}
	line := fmt.Sprintf("tribunal: advisory verdict on the last turn's changes: %s, score %.2f", verdict, a.Score)
	if q := Quote(a, maxPromptFeedback); q != "" {
		line += "; the judge wrote:\n" + q
	}
	return line
}

// PauseLine tells the user, once, that the Stop judge paused for the day
// because it reached tribunal.stop_hook.daily_budget_usd.
func PauseLine(s records.StopSpend, budget float64) string {
	return fmt.Sprintf("tribunal: the advisory Stop judge paused for today (%s UTC): it spent $%.2f of its daily budget of $%.2f (tribunal.stop_hook.daily_budget_usd). Turns are not judged until tomorrow, or until the budget is raised.", s.Day, s.USD, budget)
}

// PromptContext is what the model reads about a verdict: tribunal's line,
// the judge's words as a quoted block, and tribunal's sentence after it.
func PromptContext(a records.Advisory) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "tribunal: the advisory judge reviewed the changes of the previous turn after it ended: %s, score %.2f.", a.Outcome, a.Score)
	if q := Quote(a, maxFeedback*2); q != "" {
		fmt.Fprintf(&b, " Its main concern, quoted (%s):\n%s\n", quotedNote, q)
	} else {
		b.WriteString(" ")
	}
	fmt.Fprintf(&b, "The user has been shown this verdict. Take it into account if it bears on their request. Details: `tribunal-session show %s`.", a.TaskID)
	return b.String()
}

// promptOutput is the UserPromptSubmit hook's JSON.
type promptOutput struct {
	SystemMessage      string `json:"systemMessage"`
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

func (h *hook) emitPrompt(line, context string) {
	var o promptOutput
	o.SystemMessage = line
	o.HookSpecificOutput.HookEventName = "UserPromptSubmit"
	o.HookSpecificOutput.AdditionalContext = context
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o); err != nil {
		h.warn("cannot encode the verdict: %v", err)
		return
	}
	if _, err := h.Stdout.Write(buf.Bytes()); err != nil {
		h.warn("cannot write the verdict: %v", err)
	}
}

// disabled reports whether the master switch (spec §2.13) is off for the
// prompt's directory. Only a pending verdict pays for reading the
// settings; a prompt with nothing to show never does.
func (h *hook) disabled() bool {
	if h.in.Cwd == "" {
		return false
	}
	src := config.Sources{PluginRoot: h.Getenv("CLAUDE_PLUGIN_ROOT"), Home: h.Home}
	if root, err := projectkey.FindWorktreeRoot(h.in.Cwd); err == nil {
		src.WorktreeRoot = root
	}
	off, _ := config.Load(src).Disabled()
	return off
}
