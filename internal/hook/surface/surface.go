// Package surface is the SessionStart hook: it tells a new session about
// the project's advisory verdicts that no session has been shown yet, each
// exactly once.
package surface

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/hook/hookio"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Deps is everything the hook touches outside its own memory.
type Deps struct {
	Getenv  func(string) string
	Environ []string // environment for the git child process
	Stdin   io.Reader
	Stdout  io.Writer
	Home    string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Git runs git; nil means projectkey.ExecGit("git", Environ).
	Git projectkey.GitRunner
	// The hook's diagnostics, one stderr line each, handed over as plain
	// text: the binary's output code adds the prefixes. Warnf is a problem
	// of the hook, Warn a warning about the settings or a record it read.
	// nil discards.
	Warnf func(format string, args ...any)
	Warn  func(string)
}

// withDefaults fills the clock and the diagnostics a caller left unset.
func (d Deps) withDefaults() Deps {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Warnf == nil {
		d.Warnf = func(string, ...any) {}
	}
	if d.Warn == nil {
		d.Warn = func(string) {}
	}
	return d
}

// Run executes the hook and returns its exit status, which is always 0: a
// SessionStart hook must never fail or block the session (spec §8.10). Its
// stdout is either empty or exactly one hookSpecificOutput JSON object;
// every diagnostic is one stderr line.
func Run(ctx context.Context, d Deps) int {
	// The guard comes before stdin is read: inside a child that tribunal
	// started, the hook must cost nothing and say nothing.
	if hookio.Nested(d.Getenv) {
		return 0
	}
	h := &hook{Deps: d.withDefaults()}
	h.run(ctx)
	return 0
}

type hook struct {
	Deps
	in hookio.Input
	// configNote is the user's message about a broken configuration,
	// said with the verdicts' note or alone (see configNotice).
	configNote string
	emitted    bool
}

func (h *hook) warn(format string, args ...any) { h.Warnf(format, args...) }

func (h *hook) run(ctx context.Context) {
	h.in = hookio.Read(h.Stdin)
	if h.in.Cwd == "" {
		return
	}
	// Everything up to the enabled check is pure Go file reads: a disabled
	// hook starts no process (the cheapest path, benchmarked).
	worktree, err := projectkey.FindWorktreeRoot(h.in.Cwd)
	if err != nil {
		return
	}
	settings, onlookerDir, on := h.settings(worktree)
	if !on {
		return
	}
	if h.configNote != "" {
		defer h.emitConfigNote()
	}
	if !settings.Enabled {
		return
	}
	now := h.Now()
	own := ""
	if h.in.SessionID != "" {
		own = records.StopFileName(h.in.SessionID)
	}
	if !anyRecent(filepath.Join(onlookerDir, "tribunal"), own, settings.MaxAge, now) {
		// No project has a verdict young enough to surface (the session's
		// own never counts): the git child the project key needs would be
		// wasted.
		return
	}
	git := h.Git
	if git == nil {
		git = projectkey.ExecGit("git", h.Environ)
	}
	cache := projectkey.OriginCache{Dir: store.OriginCacheDir(onlookerDir), Env: h.Environ}
	repo, err := projectkey.ResolveCached(ctx, h.in.Cwd, git, cache)
	if err != nil || repo.Key == "" {
		return
	}
	project := store.ForKey(onlookerDir, repo.Key)
	stops, err := records.ListStopFiles(project.Dir)
	if err != nil {
		h.warn("%v", err)
		return
	}
	if len(stops) == 0 {
		return
	}
	fresh := h.candidates(stops, own, settings.MaxAge, now)
	shown := h.claimAll(project.Dir, fresh, now)
	if len(shown) > 0 {
		h.emit(Note(shown, now))
	}
	for _, p := range retain(project.Dir, stops, own, max(MinRetention, settings.MaxAge), now) {
		h.warn("%s", p)
	}
}

// settings reads the reader's settings and the store's directory; on is
// false when the master switch (spec §2.13) turned tribunal off: then not
// even the warnings or the note about broken settings are said, since the
// user asked for silence. Otherwise a broken setting becomes the note
// (h.configNote) for the caller to emit.
func (h *hook) settings(worktree string) (_ config.SessionStartSettings, onlookerDir string, on bool) {
	var problems []string
	hold := true
	src := config.Sources{
		PluginRoot:   h.Getenv("CLAUDE_PLUGIN_ROOT"),
		Home:         h.Home,
		WorktreeRoot: worktree,
		Warn: func(m string) {
			problems = append(problems, m)
			if !hold {
				h.Warn(m)
			}
		},
	}
	cfg := config.Load(src)
	if off, _ := cfg.Disabled(); off {
		return config.SessionStartSettings{}, "", false
	}
	hold = false
	for _, m := range problems {
		h.Warn(m)
	}
	settings := cfg.SessionStart()
	onlookerDir, _ = events.ResolvePaths(h.Getenv, h.Home)
	if len(problems) > 0 {
		// Before the enabled check: a typo can be what turned it off.
		h.configNote = configNotice(onlookerDir, config.Layers(src), problems)
	}
	return settings, onlookerDir, true
}

// anyRecent reports whether any project under root has a stop file other
// than own modified within maxAge. It reads directories only (one per
// project), so it is much cheaper than the git child it can save.
func anyRecent(root, own string, maxAge time.Duration, now time.Time) bool {
	projects, err := os.ReadDir(root)
	if err != nil {
		return false
	}
	for _, p := range projects {
		if !p.IsDir() {
			continue
		}
		entries, err := os.ReadDir(filepath.Join(root, p.Name()))
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !records.IsStopFileName(e.Name()) || e.Name() == own {
				continue
			}
			if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) <= maxAge {
				return true
			}
		}
	}
	return false
}

// candidates reads every stop file but the session's own and keeps those
// written within maxAge that no session has surfaced yet, newest first. A
// corrupt file costs one stderr line, unless it is old enough to be stale
// by its modification time: then it is not worth a line at every start.
func (h *hook) candidates(stops []string, own string, maxAge time.Duration, now time.Time) []records.Advisory {
	var out []records.Advisory
	for _, p := range stops {
		if filepath.Base(p) == own {
			continue
		}
		a, err := records.ReadStopFile(p)
		if err != nil {
			if !a.ModTime.IsZero() && now.Sub(a.ModTime) > maxAge {
				continue
			}
			if errors.Is(err, records.ErrCorrupt) {
				h.warn("skipping %q: %v", p, err)
			} else {
				h.warn("cannot read %q: %v", p, err)
			}
			continue
		}
		if now.Sub(a.WrittenAt) > maxAge {
			continue
		}
		out = append(out, a)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].WrittenAt.Equal(out[j].WrittenAt) {
			return out[i].WrittenAt.After(out[j].WrittenAt)
		}
		// Task ids are ULIDs: a later id is a later verdict.
		return out[i].TaskID > out[j].TaskID
	})
	return out
}

// claimAll claims each candidate; the ones this process claimed are the
// ones it surfaces. Every claimed verdict is marked, including those the
// note only counts ("and N more"): the note told the user they exist and
// where to read them, and a backlog must not trickle into every following
// session. A verdict whose marker cannot be created is not surfaced:
// showing it without a record would show it again at every start.
func (h *hook) claimAll(projectDir string, fresh []records.Advisory, now time.Time) []records.Advisory {
	var shown []records.Advisory
	mark := records.Mark{SurfacedAt: now.UTC().Truncate(time.Second), SessionID: h.in.SessionID}
	for _, a := range fresh {
		ok, err := records.MarkShown(projectDir, a, mark)
		if err != nil {
			h.warn("not surfacing %q: %v", a.Path, err)
			continue
		}
		if ok {
			shown = append(shown, a)
		}
	}
	return shown
}

// output is the SessionStart hook's JSON.
type output struct {
	SystemMessage      string              `json:"systemMessage,omitempty"`
	HookSpecificOutput *hookSpecificOutput `json:"hookSpecificOutput,omitempty"`
}

type hookSpecificOutput struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

// emit writes the one JSON object, in one write.
func (h *hook) emit(note string) {
	o := output{SystemMessage: h.configNote}
	if note != "" {
		o.HookSpecificOutput = &hookSpecificOutput{HookEventName: "SessionStart", AdditionalContext: note}
	}
	h.emitted = true
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o); err != nil {
		h.warn("cannot encode the note: %v", err)
		return
	}
	if _, err := h.Stdout.Write(buf.Bytes()); err != nil {
		h.warn("cannot write the note: %v", err)
	}
}
