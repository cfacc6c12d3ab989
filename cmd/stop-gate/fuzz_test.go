package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/hook/hookio"
	"github.com/tribunal-cc/tribunal/internal/hook/stophook"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/testkit"
	"github.com/tribunal-cc/tribunal/internal/testkit/schemacheck"
)

// Placeholders that seeds use for the paths of the fixture, which differ
// on every run.
const (
	repoToken       = "@REPO@"
	transcriptToken = "@TRANSCRIPT@"
)

// The section labels of the Stop prompt. Each section is fenced by marker
// lines carrying the prompt's boundary token; content must never be able
// to repeat one.
var stopLabels = []string{"WORKING TREE DIFF", "USER REQUEST", "ASSISTANT FINAL MESSAGE"}

// fenceToken finds the boundary token in the prompt's notice line.
var fenceToken = regexp.MustCompile("Only lines carrying the token `([0-9a-f]{16})`")

// FuzzStopHook runs the whole Stop hook in process with fuzzed stdin, a
// fuzzed transcript and a fuzzed judge reply (what `claude -p` printed),
// against a dirty repository whose settings enable the hook. Whatever the
// input, the hook returns 0, writes nothing to stdout, writes only whole
// "tribunal: " lines to stderr, calls the judge only when the skip rules of
// spec §8.3 allow it and with a prompt in which no content repeats a section
// marker, and records either nothing or the complete six-event chain plus a
// stop file that parses and names the raw session id.
func FuzzStopHook(f *testing.F) {
	f.Add([]byte(`{"session_id":"s","cwd":"@REPO@","transcript_path":"@TRANSCRIPT@","last_assistant_message":"done"}`),
		[]byte(`{"type":"user","message":{"content":"add a file"}}`+"\n"),
		[]byte(`{"type":"result","structured_output":{"score":0.9,"passed":true,"judge_type":"standard"}}`))
	fx := newStopFixture(f)
	f.Fuzz(func(t *testing.T, stdin, transcript, reply []byte) {
		fx.run(t, stdin, transcript, reply)
	})
}

type stopFixture struct {
	root, repo, transcript, home, scratch string
	stdout                                *os.File
	environ                               []string
	git                                   projectkey.GitRunner
}

func newStopFixture(f *testing.F) *stopFixture {
	root := f.TempDir()
	fx := &stopFixture{
		root:       root,
		repo:       filepath.Join(root, "repo"),
		transcript: filepath.Join(root, "transcript.jsonl"),
		home:       filepath.Join(root, "home"),
		scratch:    scratchDir(f),
	}
	fx.environ = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + fx.home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com",
	}
	for _, d := range []string{fx.home, filepath.Join(fx.repo, ".claude")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	r := testkit.NewGit(f).Init(fx.repo)
	r.WriteFile(".claude/settings.json", `{"tribunal":{"stop_hook":{"enabled":true}}}`)
	r.WriteFile("README.md", "# demo\n")
	r.Commit("initial")
	// Dirty the tree with a tracked change and an untracked file.
	r.WriteFile("README.md", "# demo\nmore\n")
	r.WriteFile("new.txt", "hello\n")

	out, err := os.CreateTemp(root, "stdout-*")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { out.Close() })
	fx.stdout = out
	fx.git = cachedGit(projectkey.ExecGit("git", fx.environ))
	return fx
}

// scratchDir holds each run's Onlooker directory. tmpfs makes the stop
// file's fsyncs free, which keeps one run well under a millisecond of I/O.
func scratchDir(f *testing.F) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "stop-gate-fuzz-"); err == nil {
			f.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return f.TempDir()
}

// cachedGit memoises git's answers: the fixture never changes while the
// fuzzer runs, so a repeated question has the same answer, and the judge
// path stays fast enough to explore.
func cachedGit(git projectkey.GitRunner) projectkey.GitRunner {
	type answer struct {
		out []byte
		err error
	}
	var mu sync.Mutex
	cache := map[string]answer{}
	return func(ctx context.Context, dir string, args ...string) ([]byte, error) {
		key := dir + "\x00" + strings.Join(args, "\x00")
		mu.Lock()
		a, ok := cache[key]
		mu.Unlock()
		if !ok {
			a.out, a.err = git(ctx, dir, args...)
			mu.Lock()
			cache[key] = a
			mu.Unlock()
		}
		return bytes.Clone(a.out), a.err
	}
}

func (fx *stopFixture) run(t *testing.T, stdin, transcript, reply []byte) {
	stdin = bytes.ReplaceAll(stdin, []byte(repoToken), []byte(fx.repo))
	stdin = bytes.ReplaceAll(stdin, []byte(transcriptToken), []byte(fx.transcript))
	if err := os.WriteFile(fx.transcript, transcript, 0o600); err != nil {
		t.Fatal(err)
	}
	onlooker, err := os.MkdirTemp(fx.scratch, "onlooker-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(onlooker)
	env := map[string]string{"ONLOOKER_DIR": onlooker, "HOME": fx.home}

	var calls []claude.Call
	runner := claude.RunnerFunc(func(ctx context.Context, c claude.Call) (claude.Result, error) {
		calls = append(calls, c)
		return fakeExec(c, reply)
	})

	// A relative cwd in stdin resolves against the process's directory:
	// make that one outside any repository while the hook runs. (f.Chdir
	// cannot be used: the fuzzer reads the seed corpus relative to the
	// package directory after the setup.)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(fx.root); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)

	// Anything the hook printed through os.Stdout would land in this file.
	if err := fx.stdout.Truncate(0); err != nil {
		t.Fatal(err)
	}
	realStdout := os.Stdout
	os.Stdout = fx.stdout
	var stderr bytes.Buffer
	code := stophook.Run(context.Background(), say(&stderr, stophook.Deps{
		Getenv:  func(k string) string { return env[k] },
		Environ: fx.environ,
		Stdin:   bytes.NewReader(stdin),
		Stderr:  &stderr,
		Home:    fx.home,
		Claude:  runner,
		Git:     fx.git,
	}))
	os.Stdout = realStdout

	if code != 0 {
		t.Fatalf("exit status %d", code)
	}
	if fi, err := fx.stdout.Stat(); err != nil || fi.Size() != 0 {
		t.Fatalf("the hook wrote to stdout (%v, %v)", fi.Size(), err)
	}
	checkStderr(t, stderr.String())

	in := hookio.Read(bytes.NewReader(stdin))
	if len(calls) > 1 {
		t.Fatalf("judge called %d times", len(calls))
	}
	if len(calls) == 1 {
		checkCall(t, calls[0], in, fx.repo)
	}
	checkRecord(t, onlooker, in, len(calls) == 1)
}

// fakeExec answers as claude.Exec would for a child whose stdout was reply
// and whose exit status was 0.
func fakeExec(c claude.Call, reply []byte) (claude.Result, error) {
	var res claude.Result
	if err := claude.Parse(reply, &res); err != nil {
		return res, err
	}
	if res.IsError {
		return res, &claude.APIError{TerminalReason: res.TerminalReason, Message: res.Text}
	}
	if c.JSONSchema != "" && res.Envelope && res.Structured == nil {
		return res, claude.ErrNoStructuredOutput
	}
	return res, nil
}

func checkStderr(t *testing.T, s string) {
	t.Helper()
	if s == "" {
		return
	}
	if !strings.HasSuffix(s, "\n") {
		t.Fatalf("stderr does not end in a newline: %q", s)
	}
	for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if !strings.HasPrefix(line, "tribunal: ") {
			t.Fatalf("stderr line without the tribunal prefix: %q", line)
		}
		// Messages quote model and CLI output; control characters in it
		// must not reach the terminal.
		if i := strings.IndexFunc(line, func(r rune) bool { return unicode.IsControl(r) && r != '\t' }); i >= 0 {
			t.Fatalf("stderr carries control character %q: %q", line[i], line)
		}
	}
}

// checkCall holds the judge call to the skip rules and the call shape.
func checkCall(t *testing.T, c claude.Call, in hookio.Input, repo string) {
	t.Helper()
	if in.Malformed || in.StopHookActive || in.Cwd == "" {
		t.Fatalf("judge called for input %+v", in)
	}
	if c.Dir != repo {
		t.Fatalf("judge ran in %q, not the repository %q", c.Dir, repo)
	}
	if c.Tools == nil || len(c.Tools) != 0 || len(c.AllowedTools) != 0 || c.PermissionMode != "" {
		t.Fatalf("advisory judge given tools: %+v %+v %q", c.Tools, c.AllowedTools, c.PermissionMode)
	}
	if c.JSONSchema == "" || c.Timeout <= 0 || c.MaxTurns <= 0 {
		t.Fatalf("judge call without schema, deadline or turn cap: %+v", c)
	}
	tok := fenceToken.FindStringSubmatch(c.Prompt)
	if tok == nil {
		t.Fatalf("prompt without a boundary token:\n%s", c.Prompt)
	}
	for _, label := range stopLabels {
		for _, m := range []string{"<<<BEGIN " + label + " " + tok[1] + ">>>", "<<<END " + label + " " + tok[1] + ">>>"} {
			if n := strings.Count(c.Prompt, m); n > 1 {
				t.Fatalf("marker %q occurs %d times: content forged a section boundary", m, n)
			}
		}
	}
}

// checkRecord: nothing recorded, or six valid events and a complete stop
// file, and a record only when the judge ran.
func checkRecord(t *testing.T, onlooker string, in hookio.Input, called bool) {
	t.Helper()
	logPath := filepath.Join(onlooker, "logs", "onlooker-events.jsonl")
	n, err := schemacheck.ValidateLog(logPath)
	if errors.Is(err, os.ErrNotExist) {
		n, err = 0, nil
	}
	if err != nil {
		t.Fatalf("event log: %v", err)
	}
	stops, _ := filepath.Glob(filepath.Join(onlooker, "tribunal", "*", "stop-*.json"))
	if !called && (n != 0 || len(stops) != 0) {
		t.Fatalf("recorded %d events and %d stop files without a judge call", n, len(stops))
	}
	if n != 0 && n != 6 {
		t.Fatalf("%d events, want 0 or 6", n)
	}
	if (n == 6) != (len(stops) == 1) || len(stops) > 1 {
		t.Fatalf("%d events but stop files %v", n, stops)
	}
	if len(stops) == 0 {
		return
	}
	data, err := os.ReadFile(stops[0])
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(data) {
		t.Fatalf("stop file is not JSON: %q", data)
	}
	doc := gjson.ParseBytes(data)
	for _, k := range []string{"task_id", "session_id", "outcome", "verdict", "mode", "fingerprint", "written_at"} {
		if !doc.Get(k).Exists() {
			t.Fatalf("stop file lacks %q: %s", k, data)
		}
	}
	if doc.Get("session_id").String() != jsonCoerced(in.SessionID) {
		t.Fatalf("stop file session_id %q, stdin said %q", doc.Get("session_id").String(), in.SessionID)
	}
	if s := doc.Get("verdict.score").Float(); s < 0 || s > 1 {
		t.Fatalf("stop file score %v", s)
	}
	sids := map[string]bool{}
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		sids[gjson.Get(sc.Text(), "session_id").String()] = true
		if tid := gjson.Get(sc.Text(), "payload.task_id").String(); tid != doc.Get("task_id").String() {
			t.Fatalf("event of task %q in a chain of %q", tid, doc.Get("task_id").String())
		}
	}
	want := jsonCoerced(in.SessionID)
	if want == "" {
		want = "unknown"
	}
	if len(sids) != 1 || !sids[want] {
		t.Fatalf("envelope session ids %v, want only %q", sids, want)
	}
}

// jsonCoerced is s as encoding/json writes it: each byte that is not part
// of valid UTF-8 becomes U+FFFD.
func jsonCoerced(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String()
}
