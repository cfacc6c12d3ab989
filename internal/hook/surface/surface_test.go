package surface

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

const tid = "01HZ0000000000000000000001"

// env is one isolated world: a repository directory (a .git with a HEAD is
// enough for the pure-Go walk), a home, an Onlooker directory and a git
// runner that counts its calls and reports no remote.
type env struct {
	t        *testing.T
	repo     string
	home     string
	onlooker string
	gitCalls atomic.Int32
	now      time.Time
	vars     map[string]string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{
		t:        t,
		repo:     filepath.Join(root, "repo"),
		home:     filepath.Join(root, "home"),
		onlooker: filepath.Join(root, "onlooker"),
		now:      time.Date(2026, 5, 24, 12, 0, 0, 0, time.UTC),
	}
	testkit.WriteFile(t, filepath.Join(e.repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	if err := os.MkdirAll(filepath.Join(e.repo, ".git", "objects"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(e.repo, ".git", "refs"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(e.home, 0o700); err != nil {
		t.Fatal(err)
	}
	e.vars = map[string]string{"ONLOOKER_DIR": e.onlooker}
	e.settings(`{"tribunal":{"stop_hook":{"enabled":true}}}`)
	return e
}

func (e *env) settings(s string) {
	testkit.WriteFile(e.t, filepath.Join(e.repo, ".claude", "settings.json"), s)
}

// git fakes a repository without a remote: `config --list` succeeds (no
// entries), `remote get-url origin` fails.
func (e *env) git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	e.gitCalls.Add(1)
	if len(args) > 0 && args[0] == "config" {
		return nil, nil
	}
	return nil, errors.New("no remote")
}

// project is the directory Resolve derives for the repository.
func (e *env) project() string {
	e.t.Helper()
	repo, err := projectkey.Resolve(context.Background(), e.repo, func(context.Context, string, ...string) ([]byte, error) {
		return nil, errors.New("no remote")
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return store.ForKey(e.onlooker, repo.Key).Dir
}

func (e *env) stop(sid, task string, score float64, writtenAt time.Time) string {
	e.t.Helper()
	p := records.StopPath(store.ForKey(e.onlooker, "").Dir, sid)
	p = filepath.Join(e.project(), filepath.Base(p))
	outcome := "rejected"
	if score >= 0.75 {
		outcome = "accepted"
	}
	testkit.WriteFile(e.t, p, fmt.Sprintf(`{"task_id":%q,"session_id":%q,"outcome":%q,"verdict":{"score":%v,"passed":%v,"feedback_summary":"fb %s"},"mode":"stop-advisory","written_at":%q}`,
		task, sid, outcome, score, score >= 0.75, sid, writtenAt.UTC().Format(time.RFC3339)))
	return p
}

// diagnostics collects the hook's diagnostics in b, one line each.
func diagnostics(b *bytes.Buffer) func(string, ...any) {
	return func(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }
}

// start runs the hook for session sid and returns stdout and its
// diagnostics (what the binary prints on stderr, without the prefixes).
func (e *env) start(sid string, stdin *bytes.Reader) (string, string) {
	e.t.Helper()
	if stdin == nil {
		in, _ := json.Marshal(map[string]string{"session_id": sid, "cwd": e.repo, "hook_event_name": "SessionStart", "source": "startup"})
		stdin = bytes.NewReader(in)
	}
	var out, errb bytes.Buffer
	code := Run(context.Background(), Deps{
		Getenv: func(k string) string { return e.vars[k] },
		Stdin:  stdin, Stdout: &out, Warnf: diagnostics(&errb), Warn: func(s string) { diagnostics(&errb)("warning: %s", s) },
		Home: e.home, Now: func() time.Time { return e.now }, Git: e.git,
	})
	if code != 0 {
		e.t.Fatalf("exit %d", code)
	}
	return out.String(), errb.String()
}

func context0(t *testing.T, out string) string {
	t.Helper()
	var o struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		t.Fatalf("stdout is not the hook object: %v\n%s", err, out)
	}
	if dec.More() {
		t.Fatalf("stdout holds more than one value: %s", out)
	}
	if o.HookSpecificOutput.HookEventName != "SessionStart" {
		t.Fatalf("hookEventName %q", o.HookSpecificOutput.HookEventName)
	}
	return o.HookSpecificOutput.AdditionalContext
}

const (
	t1 = "01HZ0000000000000000000001"
	t2 = "01HZ0000000000000000000002"
	t3 = "01HZ0000000000000000000003"
)

func TestSurfacesOnceAndOnlyOnce(t *testing.T) {
	e := newEnv(t)
	e.stop("s1", t1, 0.42, e.now.Add(-2*time.Hour))
	out, errs := e.start("s2", nil)
	if errs != "" {
		t.Errorf("stderr: %s", errs)
	}
	note := context0(t, out)
	if !strings.Contains(note, "- rejected, score 0.42 (2 h ago, session s1), the judge wrote:\n> fb s1\n") {
		t.Errorf("note: %s", note)
	}
	if e.gitCalls.Load() != 2 {
		t.Errorf("git ran %d times, want 2 (config --list and remote get-url, cold cache)", e.gitCalls.Load())
	}
	m, ok := records.ReadMark(e.project(), records.Advisory{Name: "stop-s1", TaskID: t1})
	if !ok || m.SessionID != "s2" || !m.SurfacedAt.Equal(e.now) {
		t.Errorf("mark %+v %v", m, ok)
	}
	for _, sid := range []string{"s2", "s3"} {
		if out, errs := e.start(sid, nil); out != "" || errs != "" {
			t.Errorf("second start %s: stdout %q stderr %q", sid, out, errs)
		}
	}
	if e.gitCalls.Load() != 2 {
		t.Errorf("git ran %d times in all, want 2: later starts take the origin from the cache", e.gitCalls.Load())
	}
	// A new verdict of the same session is a new thing to surface.
	e.stop("s1", t2, 0.9, e.now.Add(-time.Minute))
	if note := context0(t, first(e.start("s4", nil))); !strings.Contains(note, "accepted, score 0.90 (1 min ago, session s1)") {
		t.Errorf("new verdict: %s", note)
	}
}

func first(a, _ string) string { return a }

func TestSelectionRules(t *testing.T) {
	cases := []struct {
		name     string
		settings string
		setup    func(e *env)
		sid      string
		want     []string // substrings of the note, in order; nil = no output
		gitCalls int32
	}{
		{
			// No project has a recent stop file: the project key, and so
			// git, is not needed.
			name:  "nothing on disk",
			setup: func(*env) {}, sid: "me", gitCalls: 0,
		},
		{
			name: "only old files anywhere",
			setup: func(e *env) {
				old := e.now.Add(-100 * time.Hour)
				for _, p := range []string{
					e.stop("s1", t1, 0.5, old),
					filepath.Join(e.onlooker, "tribunal", "otherproject", "stop-x.json"),
				} {
					testkit.WriteFile(e.t, p, "{}")
					if err := os.Chtimes(p, old, old); err != nil {
						e.t.Fatal(err)
					}
				}
			},
			sid: "me", gitCalls: 0,
		},
		{
			name: "a recent file in another project still needs the key",
			setup: func(e *env) {
				testkit.WriteFile(e.t, filepath.Join(e.onlooker, "tribunal", "otherproject", "stop-x.json"), "{}")
			},
			sid: "me", gitCalls: 2,
		},
		{
			// The own file is the only recent one: no git either.
			name: "own session skipped",
			setup: func(e *env) {
				e.stop("me", t1, 0.5, e.now)
			},
			sid: "me", gitCalls: 0,
		},
		{
			name: "own session skipped among others",
			setup: func(e *env) {
				e.stop("me", t1, 0.5, e.now)
				e.stop("other", t2, 0.6, e.now.Add(-time.Minute))
			},
			sid: "me", want: []string{"session other"}, gitCalls: 2,
		},
		{
			name: "own session skipped by sanitised name",
			setup: func(e *env) {
				e.stop("a/b", t1, 0.5, e.now)
			},
			sid: "a/b", gitCalls: 0,
		},
		{
			name: "no session id surfaces everything",
			setup: func(e *env) {
				e.stop("", t1, 0.5, e.now)
			},
			sid: "", want: []string{"session unknown"}, gitCalls: 2,
		},
		{
			name: "stale by written_at (default 72 h)",
			setup: func(e *env) {
				e.stop("old", t1, 0.5, e.now.Add(-73*time.Hour))
				e.stop("edge", t2, 0.6, e.now.Add(-72*time.Hour))
			},
			sid: "me", want: []string{"score 0.60 (3 d ago, session edge)"}, gitCalls: 2,
		},
		{
			name:     "configured max age",
			settings: `{"tribunal":{"stop_hook":{"enabled":true},"session_start":{"max_age_hours":1}}}`,
			setup: func(e *env) {
				e.stop("old", t1, 0.5, e.now.Add(-61*time.Minute))
				e.stop("new", t2, 0.6, e.now.Add(-59*time.Minute))
			},
			sid: "me", want: []string{"session new"}, gitCalls: 2,
		},
		{
			name: "future written_at counts as now",
			setup: func(e *env) {
				e.stop("skew", t1, 0.5, e.now.Add(time.Hour))
			},
			sid: "me", want: []string{"just now, session skew"}, gitCalls: 2,
		},
		{
			name: "newest first, ties by task id",
			setup: func(e *env) {
				e.stop("a", t1, 0.1, e.now.Add(-time.Hour))
				e.stop("b", t2, 0.2, e.now.Add(-time.Hour))
				e.stop("c", t3, 0.3, e.now.Add(-3*time.Hour))
			},
			sid: "me", want: []string{"session b", "session a", "session c"}, gitCalls: 2,
		},
		{
			name:     "disabled: no git at all",
			settings: `{}`,
			setup: func(e *env) {
				e.stop("s1", t1, 0.5, e.now)
			},
			sid: "me", gitCalls: 0,
		},
		{
			name:     "reader off over stop hook on",
			settings: `{"tribunal":{"stop_hook":{"enabled":true},"session_start":{"enabled":false}}}`,
			setup: func(e *env) {
				e.stop("s1", t1, 0.5, e.now)
			},
			sid: "me", gitCalls: 0,
		},
		{
			name:     "reader on over stop hook off",
			settings: `{"tribunal":{"session_start":{"enabled":true}}}`,
			setup: func(e *env) {
				e.stop("s1", t1, 0.5, e.now)
			},
			sid: "me", want: []string{"session s1"}, gitCalls: 2,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			if c.settings != "" {
				e.settings(c.settings)
			}
			c.setup(e)
			out, errs := e.start(c.sid, nil)
			if errs != "" {
				t.Errorf("stderr: %s", errs)
			}
			if got := e.gitCalls.Load(); got != c.gitCalls {
				t.Errorf("git calls %d, want %d", got, c.gitCalls)
			}
			if c.want == nil {
				if out != "" {
					t.Errorf("stdout %q, want nothing", out)
				}
				return
			}
			note := context0(t, out)
			at := 0
			for _, w := range c.want {
				i := strings.Index(note[at:], w)
				if i < 0 {
					t.Fatalf("note lacks %q after byte %d:\n%s", w, at, note)
				}
				at += i + len(w)
			}
		})
	}
}

// failReader fails the test if the hook reads stdin.
type failReader struct{ t *testing.T }

func (f failReader) Read([]byte) (int, error) {
	f.t.Error("stdin was read")
	return 0, errors.New("unexpected read")
}

func TestNestedGuardPrecedesStdin(t *testing.T) {
	e := newEnv(t)
	e.stop("s1", t1, 0.5, e.now)
	var out, errb bytes.Buffer
	code := Run(context.Background(), Deps{
		Getenv: func(k string) string {
			if k == "TRIBUNAL_NESTED" {
				return "1"
			}
			return e.vars[k]
		},
		Stdin: failReader{t}, Stdout: &out, Warnf: diagnostics(&errb), Home: e.home, Git: e.git,
	})
	if code != 0 || out.Len() != 0 || errb.Len() != 0 || e.gitCalls.Load() != 0 {
		t.Errorf("code %d stdout %q stderr %q git %d", code, out.String(), errb.String(), e.gitCalls.Load())
	}
	if _, err := os.Stat(filepath.Join(e.project(), records.MarkerDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("marker directory created: %v", err)
	}
}

func TestBadInputIsSilent(t *testing.T) {
	e := newEnv(t)
	e.stop("s1", t1, 0.5, e.now)
	outside := t.TempDir()
	for _, in := range []string{
		``, `not json`, `[]`, `{"session_id":"x"}`, `{"cwd":5}`,
		`{"cwd":"` + outside + `","session_id":"x"}`,
		`{"cwd":"` + filepath.Join(outside, "missing") + `"}`,
	} {
		out, errs := e.start("", bytes.NewReader([]byte(in)))
		if out != "" || errs != "" {
			t.Errorf("input %q: stdout %q stderr %q", in, out, errs)
		}
	}
	if e.gitCalls.Load() != 0 {
		t.Errorf("git ran %d times", e.gitCalls.Load())
	}
}

func TestCorruptFilesWarnOnceEachAndStillSurface(t *testing.T) {
	e := newEnv(t)
	e.stop("good", t1, 0.8, e.now)
	testkit.WriteFile(t, filepath.Join(e.project(), "stop-bad.json"), "{")
	old := filepath.Join(e.project(), "stop-oldbad.json")
	testkit.WriteFile(t, old, "{")
	past := e.now.Add(-100 * time.Hour)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	out, errs := e.start("me", nil)
	if !strings.Contains(context0(t, out), "session good") {
		t.Errorf("good verdict not surfaced: %s", out)
	}
	if strings.Count(errs, "\n") != 1 || !strings.Contains(errs, `skipping "`+filepath.Join(e.project(), "stop-bad.json")+`": not a valid advisory verdict`) {
		t.Errorf("stderr: %q", errs)
	}
}

func TestUnwritableMarkerDirectoryDoesNotSurface(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	e := newEnv(t)
	e.stop("s1", t1, 0.5, e.now)
	marks := filepath.Join(e.project(), records.MarkerDir)
	if err := os.Mkdir(marks, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(marks, 0o700) })
	out, errs := e.start("me", nil)
	if out != "" {
		t.Errorf("surfaced without a marker: %s", out)
	}
	if !strings.Contains(errs, "not surfacing") {
		t.Errorf("stderr: %q", errs)
	}
}

func TestClaimIsExclusiveUnderConcurrency(t *testing.T) {
	dir := t.TempDir()
	a := records.Advisory{Name: "stop-s1", TaskID: t1}
	var wins atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ok, err := records.MarkShown(dir, a, records.Mark{SessionID: fmt.Sprint(i)})
			if err != nil {
				t.Error(err)
			}
			if ok {
				wins.Add(1)
			}
		}(i)
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Errorf("%d claims won, want 1", wins.Load())
	}
	fi, err := os.Stat(records.MarkerPath(dir, a))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("marker: %v %v", fi, err)
	}
}

func TestRetain(t *testing.T) {
	now := time.Now()
	dir := t.TempDir()
	mk := func(name string, age time.Duration) string {
		p := filepath.Join(dir, name)
		testkit.WriteFile(t, p, "{}")
		at := now.Add(-age)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fresh := mk("stop-fresh.json", time.Hour)
	old := mk("stop-old.json", 31*24*time.Hour)
	edge := mk("stop-edge.json", 29*24*time.Hour)
	own := mk("stop-own.json", 60*24*time.Hour)
	long := mk("stop-long.json", 40*24*time.Hour)
	markers := map[string]bool{ // marker name → kept
		"stop-fresh." + t1: true,
		"stop-old." + t1:   false,
		"stop-gone." + t1:  false,
		"stop-own." + t1:   true,
		"notes.txt":        true,
		"stop-fresh":       true,
	}
	for n := range markers {
		testkit.WriteFile(t, filepath.Join(dir, records.MarkerDir, n), "{}")
	}
	stops := []string{fresh, old, edge, own, long}
	if p := retain(dir, stops, "stop-own.json", 45*24*time.Hour, now); len(p) != 0 {
		t.Errorf("problems: %v", p)
	}
	for p, kept := range map[string]bool{fresh: true, old: true, edge: true, own: true, long: true} {
		if _, err := os.Stat(p); (err == nil) != kept {
			t.Errorf("45-day retention: %s kept=%v", p, err == nil)
		}
	}
	if p := retain(dir, stops, "stop-own.json", MinRetention, now); len(p) != 0 {
		t.Errorf("problems: %v", p)
	}
	for p, kept := range map[string]bool{fresh: true, old: false, edge: true, own: true, long: false} {
		if _, err := os.Stat(p); (err == nil) != kept {
			t.Errorf("30-day retention: %s kept=%v, want %v", p, err == nil, kept)
		}
	}
	for n, kept := range markers {
		if _, err := os.Stat(filepath.Join(dir, records.MarkerDir, n)); (err == nil) != kept {
			t.Errorf("marker %s kept=%v, want %v", n, err == nil, kept)
		}
	}
}
