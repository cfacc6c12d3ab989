// Package stophook is the Stop-hook advisory judge: after a turn it asks one standard judge for a verdict, records it as events and a stop file, and never disturbs Claude Code.
package stophook

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/claude"
	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/events"
	"github.com/tribunal-cc/tribunal/internal/gitstate"
	"github.com/tribunal-cc/tribunal/internal/hookio"
	"github.com/tribunal-cc/tribunal/internal/projectkey"
	"github.com/tribunal-cc/tribunal/internal/prompts"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/transcript"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// transcriptTailBytes is how much of the transcript's end is hashed into
// the fingerprint when skip_if_no_file_changes is off (§8.4's tail size).
const transcriptTailBytes = 30000

// Deps is everything the hook touches outside its own memory.
type Deps struct {
	Getenv  func(string) string
	Environ []string // base environment for child processes
	Stdin   io.Reader
	Stderr  io.Writer
	Home    string
	Now     func() time.Time
	Rand    io.Reader
	// Claude runs the judge; nil means a real child process located by
	// claude.Locate.
	Claude claude.Runner
	// Git runs git; nil means projectkey.ExecGit("git", Environ).
	Git projectkey.GitRunner
}

// Run executes the hook. It always returns exit status 0 and never writes
// to stdout: a Stop hook's stdout is parsed by Claude Code, and a failing
// advisory judge must never block or disturb the user's session. Problems
// are reported as one stderr line each.
func Run(ctx context.Context, d Deps) int {
	// The guard comes first, before stdin is even read: inside a child that
	// tribunal started, this hook must cost nothing and do nothing.
	if hookio.Nested(d.Getenv) {
		return 0
	}
	h := &hook{Deps: d}
	h.run(ctx)
	return 0
}

type hook struct {
	Deps
	in   hookio.Input
	cfg  *config.Config
	stop config.StopHookSettings
}

func (h *hook) warn(format string, args ...any) {
	fmt.Fprintf(h.Stderr, "tribunal: stop-gate: "+format+"\n", args...)
}

func (h *hook) run(ctx context.Context) {
	h.in = hookio.Read(h.Stdin)
	if h.in.StopHookActive {
		return
	}
	if h.in.Cwd == "" {
		return
	}
	worktree, err := projectkey.FindWorktreeRoot(h.in.Cwd)
	if err != nil {
		return
	}
	h.cfg = config.Load(config.Sources{
		PluginRoot:   h.Getenv("CLAUDE_PLUGIN_ROOT"),
		Home:         h.Home,
		WorktreeRoot: worktree,
		Warn:         func(s string) { fmt.Fprintln(h.Stderr, s) },
	})
	h.stop = h.cfg.StopHook()
	if !h.stop.Enabled {
		return
	}
	git := h.Git
	if git == nil {
		git = projectkey.ExecGit("git", h.Environ)
	}
	repo, err := projectkey.Resolve(ctx, h.in.Cwd, git)
	if err != nil || repo.Key == "" {
		return
	}
	haveTranscript := hookio.IsRegularFile(h.in.TranscriptPath)
	if !haveTranscript && h.in.LastAssistantMessage == "" {
		// Nothing to judge: neither the transcript nor the final message.
		return
	}
	st, err := gitstate.Status(ctx, git, repo.WorktreeRoot)
	if err != nil {
		h.warn("cannot read the state of %q: %v", repo.WorktreeRoot, err)
		return
	}
	if h.stop.SkipIfNoFileChanges && !st.Dirty() {
		return
	}
	var tail []byte
	if haveTranscript {
		tail, err = hookio.Tail(h.in.TranscriptPath, transcriptTailBytes)
		if err != nil {
			h.warn("cannot read transcript %q: %v", h.in.TranscriptPath, err)
			tail = nil
		}
	}
	if len(tail) == 0 && h.in.LastAssistantMessage == "" {
		return
	}
	// One judgement per tree state (ADR-009): what a turn said is not part
	// of the fingerprint, unless the file-change filter is off, in which
	// case a turn that only talked is judged too.
	var extra [][]byte
	if !h.stop.SkipIfNoFileChanges {
		sum := sha256.Sum256(tail)
		extra = [][]byte{[]byte(h.in.LastAssistantMessage), sum[:]}
	}
	fp, err := gitstate.Fingerprint(ctx, git, repo.WorktreeRoot, st, extra...)
	if err != nil {
		h.warn("cannot fingerprint the working tree: %v", err)
		return
	}
	onlookerDir, logPath := events.ResolvePaths(h.Getenv, h.Home)
	project := store.ForKey(onlookerDir, repo.Key)
	stopPath := project.StopFile(h.in.SessionID)
	if previousFingerprint(stopPath) == fp {
		return
	}
	runner := h.Claude
	if runner == nil {
		path, err := claude.Locate(h.Getenv("TRIBUNAL_CLAUDE_BIN"), "")
		if err != nil && h.Getenv("TRIBUNAL_CLAUDE_BIN") == "" {
			path, err = claude.Locate(h.cfg.ClaudePath(), h.Getenv("PATH"))
		}
		if err != nil {
			// The reference skips silently when claude is missing; one
			// line on stderr costs nothing and explains an empty history.
			h.warn("no advisory verdict: %v", err)
			return
		}
		runner = claude.Exec{Path: path, Env: h.Environ}
	}
	changes, err := gitstate.Diff(ctx, git, repo.WorktreeRoot, st)
	if err != nil {
		h.warn("the judge gets no diff: %v", err)
		changes = nil
	}
	var turn transcript.Exchange
	if haveTranscript {
		// The transcript's problems were reported with the tail above.
		turn, _ = transcript.Read(h.in.TranscriptPath)
	}
	reply := h.in.LastAssistantMessage
	if reply == "" {
		reply = turn.Reply
	}
	adv, res, err := Judge(ctx, runner, h.stop, prompts.StopInput{
		Changes:              changes,
		UserRequest:          turn.Request,
		LastAssistantMessage: reply,
	}, repo.WorktreeRoot)
	if err != nil {
		h.warn("no advisory verdict: %v", err)
		return
	}
	h.record(adv, res, fp, onlookerDir, logPath, stopPath)
}

// responseObject picks the verdict object out of a result: the structured
// output of a --json-schema run, or, from a CLI or wrapper that printed
// plain text, the text itself with one surrounding code fence removed.
func responseObject(res claude.Result) (map[string]json.RawMessage, error) {
	text := res.Text
	if res.Structured != nil {
		text = string(res.Structured)
	} else if res.Envelope {
		return nil, claude.ErrNoStructuredOutput
	}
	obj, err := verdict.ParseOutput(text)
	if err != nil {
		return nil, fmt.Errorf("the judge's response is invalid: %w", err)
	}
	return obj, nil
}

// previousFingerprint reads the fingerprint stored in this session's stop
// file; "" when there is none or the file is unreadable.
func previousFingerprint(path string) string {
	// A missing, unreadable or oversized file simply means "no previous
	// verdict": the hook judges again rather than complaining every turn.
	data, ok := store.ReadOptional(path, 1<<20, func(string) {})
	if !ok {
		return ""
	}
	return gjson.GetBytes(data, "fingerprint").String()
}
