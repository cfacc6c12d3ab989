// Package e2e drives the real Claude Code CLI (pinned in package.json)
// against a fake Messages API, with tribunal's built plugin loaded, to
// prove the hooks, the /tribunal skill and the nested judge calls work end
// to end.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakeapi"
	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tribunal-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	suiteDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// claudeBin finds the real CLI the way a user's shell would, unless
// $CLAUDE_BIN names one (CI sets it to the pinned copy): `claude` on PATH,
// else the copy package.json pins, node_modules/.bin/claude. Without one
// the test skips with one line, or fails under CI (testtier.Missing).
func claudeBin(t *testing.T) string {
	t.Helper()
	testtier.Require(t, testtier.E2E)
	return findCLI(t, "claude", os.Getenv("CLAUDE_BIN"))
}

// findCLI is the lookup of every real CLI the tests drive: explicit (an
// environment override), else name on PATH, else the pinned copy under
// node_modules/.bin. A CLI found on PATH whose version is not the pinned
// one is used, with a note (the tests are written against the pinned
// version's behaviour).
func findCLI(t *testing.T, name, explicit string) string {
	t.Helper()
	if explicit != "" {
		if abs, ok := executable(explicit); ok {
			return abs
		}
		t.Fatalf("%s names %s, which is not an executable file", strings.ToUpper(name)+"_BIN", explicit)
	}
	pinned := ""
	if root, err := repoRoot(); err == nil {
		pinned = filepath.Join(root, "node_modules", ".bin", name)
	}
	if p, err := exec.LookPath(name); err == nil {
		if abs, ok := executable(p); ok {
			if want := pinnedVersion(name); want != "" && !strings.Contains(cliVersion(abs), want) {
				t.Log(testtier.NotePrefix + fmt.Sprintf("%s on PATH (%s) is not the pinned version %s; the end-to-end tests ran against it", name, abs, want))
			}
			return abs
		}
	}
	if abs, ok := executable(pinned); ok && pinned != "" {
		return abs
	}
	testtier.Missing(t, testtier.E2E, "the "+name+" CLI on PATH or in node_modules/.bin",
		"run scripts/install-claude.sh to install the pinned copies")
	return ""
}

// executable returns p's absolute path when p is an executable file.
func executable(p string) (string, bool) {
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return "", false
	}
	abs, err := filepath.Abs(p)
	return abs, err == nil
}

// pinnedPackages maps each CLI to its npm package in package.json.
var pinnedPackages = map[string]string{
	"claude": "@anthropic-ai/claude-code",
	"codex":  "@openai/codex",
	"gemini": "@google/gemini-cli",
	// The MCP Inspector's launcher (its CLI mode drives tribunal-session mcp).
	"mcp-inspector": "@modelcontextprotocol/inspector",
}

// pinnedVersion is the version package.json pins for the CLI name, or ""
// when it cannot be read.
func pinnedVersion(name string) string {
	root, err := repoRoot()
	if err != nil {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(root, "package.json"))
	if err != nil {
		return ""
	}
	var pkg struct {
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return ""
	}
	return pkg.DevDependencies[pinnedPackages[name]]
}

var (
	versionsMu sync.Mutex
	versions   = map[string]string{}
)

// cliVersion is what `bin --version` prints, asked once per binary.
func cliVersion(bin string) string {
	versionsMu.Lock()
	defer versionsMu.Unlock()
	if v, ok := versions[bin]; ok {
		return v
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, bin, "--version").Output()
	versions[bin] = strings.TrimSpace(string(out))
	return versions[bin]
}

// world is one test's isolated machine: a fresh HOME, git repository and
// Onlooker directory, a fake API, and the built plugin.
type world struct {
	t        *testing.T
	claude   string
	api      *fakeapi.Server
	plugin   *builtPlugin
	home     string
	repo     string
	onlooker string
	pathDir  string // holds a "claude" link to the real CLI, first on PATH
	probeLog string // see probe_test.go
	// extra environment entries, appended last.
	extra []string
}

// newWorld sets up a world whose repository has one commit and, when
// settings is non-empty, that text as .claude/settings.json (committed, as
// a team would).
func newWorld(t *testing.T, settings string) *world {
	t.Helper()
	bin := claudeBin(t)
	p, err := buildPlugin()
	if err != nil {
		t.Fatalf("build the plugin: %v", err)
	}
	w := &world{t: t, claude: bin, plugin: p}
	base := t.TempDir()
	w.home = filepath.Join(base, "home")
	w.repo = filepath.Join(base, "project")
	w.onlooker = filepath.Join(base, "onlooker")
	w.probeLog = filepath.Join(base, "probe.log")
	w.pathDir = filepath.Join(base, "path")
	for _, d := range []string{w.home, w.repo, w.onlooker, w.pathDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Hooks locate claude on PATH, by that name.
	if err := os.Symlink(bin, filepath.Join(w.pathDir, "claude")); err != nil {
		t.Fatal(err)
	}
	w.api = fakeapi.Start(t)
	w.api.Log = t.Logf
	// Registered after the server, so it runs before the server closes.
	t.Cleanup(w.stopDetachedRuns)
	t.Cleanup(w.killJudges)
	w.git("init", "-q", "-b", "main")
	w.writeFile("README.md", "# project\n")
	if settings != "" {
		w.writeFile(".claude/settings.json", settings)
	}
	w.git("add", "-A")
	w.git("commit", "-q", "-m", "initial")
	return w
}

// stopDetachedRuns kills what a failed /tribunal test may have left
// running: a detached run is a session leader of its own (so the outer
// claude's group kill misses it) and would otherwise keep starting claude
// children and writing into the test's directories.
func (w *world) stopDetachedRuns() {
	pids, _ := filepath.Glob(filepath.Join(w.onlooker, "tribunal", "*", "runs", "*", "pid"))
	for _, f := range pids {
		if _, err := os.Stat(filepath.Join(filepath.Dir(f), "exit")); err == nil {
			continue // finished
		}
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 1 {
			syscall.Kill(-pid, syscall.SIGKILL)
		}
	}
}

// environ is the environment of every process the test starts: the
// parent's, minus everything that could reach a real account or another
// tribunal setup, plus the fake API and the isolated directories.
func (w *world) environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "CLAUDE"), strings.HasPrefix(k, "ANTHROPIC"),
			strings.HasPrefix(k, "TRIBUNAL_"), strings.HasPrefix(k, "ONLOOKER_"),
			strings.HasPrefix(k, "GIT_"), k == "HOME", k == "PATH", k == "API_TIMEOUT_MS",
			k == "CI": // the suite's CI marker (internal/testkit/testtier), not the CLI's
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+w.home,
		"PATH="+w.pathDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"ANTHROPIC_BASE_URL="+w.api.URL,
		"ANTHROPIC_API_KEY=dummy-e2e-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_MAX_RETRIES=0",
		"DISABLE_AUTOUPDATER=1",
		"ONLOOKER_DIR="+w.onlooker,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=E2E", "GIT_AUTHOR_EMAIL=e2e@example.com",
		"GIT_COMMITTER_NAME=E2E", "GIT_COMMITTER_EMAIL=e2e@example.com",
		"GIT_TERMINAL_PROMPT=0",
	)
	return append(env, w.extra...)
}

// withPluginEverywhere loads the plugin, and the probe plugin beside it,
// into every claude process, nested ones included, as installed plugins
// would be: the recursion guard is only tested when a nested judge would
// see the hooks too.
func (w *world) withPluginEverywhere() {
	w.t.Helper()
	probe, err := probePlugin()
	if err != nil {
		w.t.Fatalf("write the probe plugin: %v", err)
	}
	w.extra = append(w.extra,
		"CLAUDE_CODE_PLUGIN_DIRS="+w.plugin.Dir+string(os.PathListSeparator)+probe,
		probeLogEnv+"="+w.probeLog)
}

func (w *world) git(args ...string) string {
	w.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = w.repo
	cmd.Env = w.environ()
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (w *world) writeFile(rel, content string) {
	w.t.Helper()
	path := filepath.Join(w.repo, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// run is one finished CLI process.
type run struct {
	Stdout, Stderr string
	Code           int
	Took           time.Duration
	// Stamps is when each stdout line was complete, since the start: the
	// timeline of a stream-json run, for diagnosing a slow hook.
	Stamps []time.Duration
}

// timeline renders each stdout line's arrival time and its start, for
// failure messages.
func (r run) timeline() string {
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n") {
		var at time.Duration
		if i < len(r.Stamps) {
			at = r.Stamps[i]
		}
		if len(line) > 160 {
			line = line[:160] + "…"
		}
		fmt.Fprintf(&b, "%8s %s\n", at.Round(time.Millisecond), line)
	}
	return b.String()
}

// stampedWriter keeps stdout and the arrival time of each line end.
type stampedWriter struct {
	start  time.Time
	buf    bytes.Buffer
	stamps []time.Duration
}

func (s *stampedWriter) Write(p []byte) (int, error) {
	now := time.Since(s.start)
	for _, c := range p {
		if c == '\n' {
			s.stamps = append(s.stamps, now)
		}
	}
	return s.buf.Write(p)
}

// claudeRun runs the real CLI in the repository with a hard deadline; the
// whole process group is killed at the deadline, hooks and judges included.
func (w *world) claudeRun(timeout time.Duration, stdin string, args ...string) run {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.claude, args...)
	cmd.Dir = w.repo
	cmd.Env = w.environ()
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	stdout := &stampedWriter{start: time.Now()}
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	r := run{Stdout: stdout.buf.String(), Stderr: stderr.String(), Took: time.Since(start), Stamps: stdout.stamps}
	if cmd.ProcessState != nil {
		r.Code = cmd.ProcessState.ExitCode()
	}
	w.t.Logf("claude %s: exit %d after %s", strings.Join(shorten(args), " "), r.Code, r.Took.Round(time.Millisecond))
	if ctx.Err() != nil {
		w.t.Fatalf("claude %s did not finish within %s\nstderr:\n%s\nfake API requests:\n%s",
			strings.Join(shorten(args), " "), timeout, r.Stderr, w.api.Summary())
	}
	if err != nil && cmd.ProcessState == nil {
		w.t.Fatalf("claude could not run: %v", err)
	}
	return r
}

func shorten(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if len(a) > 60 {
			a = a[:60] + "…"
		}
		out[i] = a
	}
	return out
}

// streamArgs are the flags for a headless turn whose output is the
// stream-json event list, hooks included.
func streamArgs(extra ...string) []string {
	return append([]string{"-p", "--output-format", "stream-json", "--verbose", "--include-hook-events"}, extra...)
}

// stream is the parsed stream-json output of one run.
type stream struct {
	Events []map[string]any
}

func parseStream(t *testing.T, stdout string) stream {
	t.Helper()
	var s stream
	for _, line := range strings.Split(stdout, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("stream-json line is not JSON: %v\n%s", err, line)
		}
		s.Events = append(s.Events, ev)
	}
	return s
}

// find returns the events of a type (and subtype, when non-empty).
func (s stream) find(typ, subtype string) []map[string]any {
	var out []map[string]any
	for _, ev := range s.Events {
		if ev["type"] == typ && (subtype == "" || ev["subtype"] == subtype) {
			out = append(out, ev)
		}
	}
	return out
}

// one returns the single event of a type and subtype.
func (s stream) one(t *testing.T, typ, subtype string) map[string]any {
	t.Helper()
	evs := s.find(typ, subtype)
	if len(evs) != 1 {
		t.Fatalf("want one %s/%s event, got %d", typ, subtype, len(evs))
	}
	return evs[0]
}

// hookResponses returns the hook_response events of one hook event
// ("Stop", "SessionStart").
func (s stream) hookResponses(event string) []map[string]any {
	var out []map[string]any
	for _, ev := range s.find("system", "hook_response") {
		if ev["hook_event"] == event {
			out = append(out, ev)
		}
	}
	return out
}

// result is the final result event.
func (s stream) result(t *testing.T) map[string]any {
	t.Helper()
	return s.one(t, "result", "")
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
