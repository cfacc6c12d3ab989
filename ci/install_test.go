// Package ci holds the CI scripts (the GitHub Action's review.sh, the
// GitLab template, ci/install.sh); its tests run them as a runner does.
package ci

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// shim is a go or npm on PATH that records each call in $SHIM_LOG and
// then does the real thing (go), or what `npm install` of the pinned
// Claude Code leaves behind, offline (npm).
const (
	goShim = `#!/bin/sh
echo "go $*" >>"$SHIM_LOG"
exec "$REAL_GO" "$@"
`
	npmShim = `#!/bin/sh
echo "npm $*" >>"$SHIM_LOG"
prefix=$(echo "$@" | sed -n 's/.*--prefix \([^ ]*\).*/\1/p')
mkdir -p "$prefix/node_modules/.bin"
printf '#!/bin/sh\necho "%s (Claude Code)"\n' "$FAKE_CLAUDE_VERSION" >"$prefix/node_modules/.bin/claude"
chmod +x "$prefix/node_modules/.bin/claude"
`
)

// runner is one self-hosted runner: its tool cache survives jobs, each
// job gets a fresh RUNNER_TEMP and GITHUB_PATH/GITHUB_ENV files.
type runner struct {
	t                *testing.T
	root, dir, cache string
	env              []string
	jobs             int
}

func newRunner(t *testing.T) *runner {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("the install builds with go, which is not on PATH")
	}
	var pkg struct {
		DevDependencies map[string]string `json:"devDependencies"`
	}
	data, err := os.ReadFile(filepath.Join(root, "package.json"))
	if err != nil || json.Unmarshal(data, &pkg) != nil {
		t.Fatalf("package.json: %v", err)
	}
	dir := t.TempDir()
	shims := filepath.Join(dir, "shims")
	for name, body := range map[string]string{"go": goShim, "npm": npmShim, "node": "#!/bin/sh\nexit 0\n"} {
		if err := os.MkdirAll(shims, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shims, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := &runner{t: t, root: root, dir: dir, cache: filepath.Join(dir, "tool-cache")}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(k, "RUNNER_") && !strings.HasPrefix(k, "GITHUB_") && !strings.HasPrefix(k, "TRIBUNAL_") && k != "PATH" {
			r.env = append(r.env, kv)
		}
	}
	r.env = append(r.env, "PATH="+shims+string(os.PathListSeparator)+os.Getenv("PATH"), "REAL_GO="+realGo,
		"FAKE_CLAUDE_VERSION="+pkg.DevDependencies["@anthropic-ai/claude-code"],
		"RUNNER_TOOL_CACHE="+r.cache, "GITHUB_ACTION_PATH="+root, "GITHUB_ACTIONS=true", "CI=true")
	return r
}

// job runs the Action's install step (review.sh install) in a new job and
// returns its stderr, the go and npm calls it made, and the bin directory
// it put on GITHUB_PATH.
func (r *runner) job() (log string, calls []string, bin string) {
	r.t.Helper()
	r.jobs++
	job := filepath.Join(r.dir, "job"+string(rune('0'+r.jobs)))
	temp := filepath.Join(job, "temp")
	if err := os.MkdirAll(temp, 0o755); err != nil {
		r.t.Fatal(err)
	}
	files := map[string]string{"GITHUB_PATH": "path", "GITHUB_ENV": "env", "GITHUB_OUTPUT": "output", "SHIM_LOG": "calls"}
	env := append([]string{"RUNNER_TEMP=" + temp}, r.env...)
	for k, f := range files {
		files[k] = filepath.Join(job, f)
		if err := os.WriteFile(files[k], nil, 0o644); err != nil {
			r.t.Fatal(err)
		}
		env = append(env, k+"="+files[k])
	}
	cmd := exec.Command(filepath.Join(r.root, "ci", "github", "review.sh"), "install")
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		r.t.Fatalf("job %d: review.sh install: %v\n%s", r.jobs, err, stderr.String())
	}
	c, _ := os.ReadFile(files["SHIM_LOG"])
	p, _ := os.ReadFile(files["GITHUB_PATH"])
	return stderr.String(), strings.Split(strings.TrimSpace(string(c)), "\n"), strings.TrimSpace(string(p))
}

func called(calls []string, prefix string) bool {
	for _, c := range calls {
		if strings.HasPrefix(c, prefix) {
			return true
		}
	}
	return false
}

// version runs bin/name --version as the job's later steps would.
func version(t *testing.T, bin, name string) string {
	t.Helper()
	out, err := exec.Command(filepath.Join(bin, name), "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("%s --version from %s: %v\n%s", name, bin, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestInstallReusesTheToolCache: the first job on a runner builds
// tribunal-session and npm-installs Claude Code into $RUNNER_TOOL_CACHE;
// the second builds nothing and runs no npm install; a corrupt binary and
// a partial CLI entry are each rebuilt with one line saying why, never
// used.
func TestInstallReusesTheToolCache(t *testing.T) {
	t.Parallel()
	r := newRunner(t)

	log, calls, bin := r.job()
	if !called(calls, "go build") || !called(calls, "npm install") {
		t.Fatalf("cold job: want a go build and an npm install, got calls %q\n%s", calls, log)
	}
	if !strings.HasPrefix(bin, r.cache) && !strings.HasPrefix(bin, r.dir) {
		t.Fatalf("cold job put %q on GITHUB_PATH", bin)
	}
	sessionWant, claudeWant := version(t, bin, "tribunal-session"), version(t, bin, "claude")
	// The helpers are found beside the binary the link resolves to.
	if real, err := filepath.EvalSymlinks(filepath.Join(bin, "tribunal-session")); err != nil {
		t.Fatal(err)
	} else if st, err := os.Stat(filepath.Join(filepath.Dir(real), "tribunal-schema")); err != nil || st.Mode()&0o111 == 0 {
		t.Errorf("no tribunal-schema beside %s: %v", real, err)
	}
	helperFound(t, bin)

	log, calls, bin = r.job()
	if called(calls, "go build") || called(calls, "npm") {
		t.Errorf("warm job built or npm-installed again: calls %q\n%s", calls, log)
	}
	if strings.Count(log, "from the tool cache") != 2 {
		t.Errorf("warm job does not say both came from the tool cache:\n%s", log)
	}
	if got := version(t, bin, "tribunal-session"); got != sessionWant {
		t.Errorf("warm job's tribunal-session --version = %q, want %q", got, sessionWant)
	}
	if got := version(t, bin, "claude"); got != claudeWant {
		t.Errorf("warm job's claude --version = %q, want %q", got, claudeWant)
	}

	session, _ := filepath.Glob(filepath.Join(r.cache, "tribunal", "session-*", "tribunal-session"))
	claude, _ := filepath.Glob(filepath.Join(r.cache, "tribunal", "claude-code-*", ".complete"))
	if len(session) != 1 || len(claude) != 1 {
		t.Fatalf("tool cache entries: sessions %q, claude %q", session, claude)
	}
	if err := os.WriteFile(session[0], []byte("\x7fELF truncated"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(claude[0]); err != nil {
		t.Fatal(err)
	}
	log, calls, bin = r.job()
	if !called(calls, "go build") || !called(calls, "npm install") {
		t.Errorf("corrupt entries: want both installed again, got calls %q\n%s", calls, log)
	}
	notUsed := regexp.MustCompile(`(?m)^tribunal: the tool cache's (tribunal-session|Claude Code) \(.*\) is not used: .*; installing it again$`)
	if n := len(notUsed.FindAllString(log, -1)); n != 2 {
		t.Errorf("corrupt entries: want one line for each, got %d:\n%s", n, log)
	}
	if got := version(t, bin, "tribunal-session"); got != sessionWant {
		t.Errorf("rebuilt tribunal-session --version = %q, want %q", got, sessionWant)
	}
	if got := version(t, bin, "claude"); got != claudeWant {
		t.Errorf("reinstalled claude --version = %q, want %q", got, claudeWant)
	}
}

// helperFound: tribunal-session, reached through the job's bin link,
// finds its helper tribunal-otel in the cached build's directory (export
// gets as far as asking for a collector, not as far as a missing helper).
func helperFound(t *testing.T, bin string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "tribunal-session"), "export", "--otlp")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "OTEL_EXPORTER_OTLP_ENDPOINT=", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "export: no collector is configured") {
		t.Errorf("tribunal-session export from %s does not reach tribunal-otel:\n%s", bin, out)
	}
}
