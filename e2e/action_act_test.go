package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// stubAction is an action.yml standing in for a remote action under act's
// --local-repository: it says in the log that it ran.
const stubAction = `name: stub
description: stands in for a remote action in the act-driven tests
inputs:
  path: {default: ""}
  key: {default: ""}
  restore-keys: {default: ""}
  go-version-file: {default: ""}
  cache-dependency-path: {default: ""}
  sarif_file: {default: ""}
  category: {default: ""}
runs:
  using: composite
  steps:
    - shell: bash
      run: echo "STUB-ACTION-RAN ${{ github.action_repository }}"
`

// actWorkflow copies the test's repository into act's workspace, checks
// out $CHECKOUT and runs the action (tribunal-cc/tribunal@e2e, this
// checkout) as a pull_request_target workflow would.
const actWorkflow = `on: pull_request_target
jobs:
  review:
    runs-on: ubuntu-latest
    steps:
      - run: cp -a "$E2E_REPO/." . && git checkout -q "$CHECKOUT"
      - uses: tribunal-cc/tribunal@e2e
        with:
          setup-go: "false"
          comment: "false"
          anthropic-api-key: dummy-e2e-key
          cache-secret: ${{ env.CACHE_SECRET }}
          allow-pull-request-target-head: ${{ env.ALLOW }}
`

// TestReviewActionUnderAct runs action.yml itself under nektos/act (host
// executor, offline; actions/cache, setup-go and upload-sarif are stubs
// that log when they run) on a pull_request_target event: the head
// checked out is refused with the error and hint, the cache step skipped
// for want of a secret; the base checked out is reviewed; the head with
// allow-pull-request-target-head is reviewed, the risk in the summary;
// a cache-secret runs the cache step. The first job builds tribunal-session
// into the runner's tool cache and saves it (actions/cache/save); the
// second takes it from there, building and restoring nothing. Needs act: $ACT_BIN (.ci/run sets it
// from scripts/build-act.sh), else act on PATH.
func TestReviewActionUnderAct(t *testing.T) {
	t.Parallel()
	w, root, base, heads := reviewWorld(t)
	act := os.Getenv("ACT_BIN")
	if act == "" {
		act, _ = exec.LookPath("act")
	}
	if act == "" {
		testtier.Missing(t, testtier.E2E, "act (nektos/act, pinned in tools/act)", "scripts/build-act.sh builds it; set ACT_BIN to its path")
	}
	head := heads[1]
	dir := t.TempDir()
	stub := filepath.Join(dir, "stub")
	for _, d := range []string{stub, filepath.Join(stub, "upload-sarif"), filepath.Join(stub, "restore"), filepath.Join(stub, "save")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "action.yml"), []byte(toolCacheStub(stubAction, filepath.Base(d))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wf := filepath.Join(dir, "review.yml")
	event := filepath.Join(dir, "event.json")
	payload := `{"action":"synchronize","pull_request":{"number":7,"title":"Add retry","body":"Retry sends up to 3 times.",` +
		`"base":{"sha":"` + base + `","repo":{"full_name":"acme/widgets"}},"head":{"sha":"` + head + `","repo":{"full_name":"mallory/widgets"}}}}`
	if err := os.WriteFile(wf, []byte(actWorkflow), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(event, []byte(payload), 0o644); err != nil {
		t.Fatal(err)
	}
	runAct := func(checkout string, env ...string) (bool, string) {
		t.Helper()
		envFile := filepath.Join(dir, "env")
		// The host's Go caches: the action builds tribunal-session in each
		// job, and the world's fresh HOME would download and compile anew.
		lines := append(w.environ(), "E2E_REPO="+w.repo, "CHECKOUT="+checkout, "TRIBUNAL_CLAUDE_BIN="+w.claude,
			"GOMODCACHE="+goEnv(t, "GOMODCACHE"), "GOCACHE="+goEnv(t, "GOCACHE"), "GOFLAGS=-mod=mod", "GOPROXY=off")
		if err := os.WriteFile(envFile, []byte(strings.Join(append(lines, env...), "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(act, "pull_request_target", "-W", wf, "-e", event, "--env-file", envFile,
			"-P", "ubuntu-latest=-self-hosted", "--action-offline-mode",
			"--local-repository", "tribunal-cc/tribunal@e2e="+root,
			"--local-repository", "actions/setup-go@v5="+stub,
			"--local-repository", "actions/cache@v4="+stub,
			"--local-repository", "github/codeql-action@v3="+stub)
		cmd.Dir = w.repo
		cmd.Env = append(w.environ(), "HOME="+w.home)
		out, err := cmd.CombinedOutput()
		return err == nil, string(out)
	}

	ok, out := runAct(head, "ALLOW=false", "CACHE_SECRET=")
	// The first job on this runner (act keeps RUNNER_TOOL_CACHE under the
	// world's HOME) builds tribunal-session and saves the tool cache at once.
	if !strings.Contains(out, "STUB-TOOLS-CACHE restore") || !strings.Contains(out, "tribunal: tribunal-session installed in the tool cache") ||
		!strings.Contains(out, "STUB-TOOLS-CACHE save") {
		t.Errorf("first job: want the tool cache restored, tribunal-session built into it, then saved:\n%s", out)
	}
	if ok || !strings.Contains(out, "tribunal: error: refused to review: pull_request_target with the pull request's head checked out") ||
		!strings.Contains(out, "hint: check out the base (actions/checkout with no ref), or set allow-pull-request-target-head: true") {
		t.Fatalf("head checked out: the job did not fail with the refusal:\n%s", out)
	}
	if strings.Contains(out, "STUB-ACTION-RAN actions/cache") || len(w.api.Requests()) != 0 {
		t.Errorf("refused job: the cache step ran or a model was called (%d requests)\n%s", len(w.api.Requests()), out)
	}

	ok, out = runAct(base, "ALLOW=false", "CACHE_SECRET=")
	// The second job finds the entry in the runner's tool cache: no build,
	// nothing restored or saved.
	if !strings.Contains(out, "tribunal: tribunal-session from the tool cache") || strings.Contains(out, "installed in the tool cache") ||
		strings.Contains(out, "STUB-TOOLS-CACHE") {
		t.Errorf("second job: want tribunal-session from the runner's tool cache, no build, no actions/cache step:\n%s", out)
	}
	if !ok || len(w.api.Requests()) == 0 || !strings.Contains(out, "tribunal: the verdict cache is off: no cache-secret input") ||
		strings.Contains(out, "STUB-ACTION-RAN actions/cache") {
		t.Fatalf("base checked out, no cache secret: ok=%v, %d model requests, want a review without the cache step\n%s", ok, len(w.api.Requests()), out)
	}

	ok, out = runAct(head, "ALLOW=true", "CACHE_SECRET=s3cret-for-act-e2e-tests")
	if !ok || !strings.Contains(out, "accepted by the input allow-pull-request-target-head") ||
		!strings.Contains(out, "STUB-ACTION-RAN actions/cache") || strings.Contains(out, "verdict cache is off") {
		t.Fatalf("head checked out, risk accepted, cache secret: ok=%v\n%s", ok, out)
	}
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// toolCacheStub is the stub for actions/cache/restore and /save, which
// log their own line so that the verdict cache's actions/cache step stays
// told apart; any other stub is left as it is.
func toolCacheStub(stub, dir string) string {
	if dir != "restore" && dir != "save" {
		return stub
	}
	return strings.Replace(stub, `echo "STUB-ACTION-RAN ${{ github.action_repository }}"`, `echo "STUB-TOOLS-CACHE `+dir+` ${{ inputs.key }}"`, 1)
}
