package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/review/gitlabmr"
	"github.com/tribunal-cc/tribunal/internal/testkit"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakegitlab"
	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// glRetry is retry.go at the base, at the first head (a loop that never
// ends at line 4, an empty send at line 9) and at the second head (send
// fixed; the loop, and the lines around it, as they were).
const (
	glRetryBase  = "package retry\n\nfunc Retry() {\n}\n"
	glRetryHead1 = "package retry\n\nfunc Retry() {\n\tfor {\n\t\tsend()\n\t}\n}\n\nfunc send() {}\n"
	glRetryHead2 = "package retry\n\nfunc Retry() {\n\tfor {\n\t\tsend()\n\t}\n}\n\nfunc send() { println(\"sent\") }\n"
)

// glJudges are the fake claude's replies: a rejecting standard judge with
// the findings given, an adversarial judge that runs shell (in the
// judged tree) when given, and a meta-judge.
func glJudges(findings, shell string) string {
	sh, _ := json.Marshal(shell)
	return `{"rules":[
 {"role":"standard","reply":{"structured":{"score":0.3,"passed":false,"feedback_summary":"Retry never stops.","findings":[` + findings + `]}}},
 {"role":"adversarial","reply":{"structured":{"score":0.4,"passed":false},"shell":` + string(sh) + `}},
 {"role":"meta","reply":{"structured":{"verdict_quality":"sound","bias_detected":false}}}
]}`
}

const (
	glLoop  = `{"severity":"major","message":"the loop never ends","file":"retry.go","line":4,"criterion":"correctness"}`
	glSend  = `{"severity":"minor","message":"send does nothing","file":"retry.go","line":9,"criterion":"maintainability"}`
	glPkg   = `{"severity":"minor","message":"the package has no doc comment","file":"retry.go","line":1,"criterion":"documentation"}`
	glToken = "glpat-e2e-token"
)

// TestGitLabTemplateUnderGitLabCILocal runs ci/gitlab/tribunal-review.yml
// with the real gitlab-ci-local (shell executor, isolated: the job has a
// build directory and a cache, as a runner gives it) as a merge request
// pipeline, against internal/testkit/fakegitlab with the fake claude as the
// model: the first pipeline builds and caches tribunal, writes the note
// and one discussion per finding on a changed line; the second (send
// fixed) installs from the cache, resolves send's discussion and posts
// nothing twice; TRIBUNAL_GATE=1 with a major finding fails the job.
func TestGitLabTemplateUnderGitLabCILocal(t *testing.T) {
	testtier.Require(t, testtier.E2E)
	gcl := gitlabCILocal(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := glSourceSnapshot(t, root, filepath.Join(dir, "src"))
	mrRepo := testkit.NewGit(t).Init(filepath.Join(dir, "mr"))
	mr := mrRepo.Dir
	mrRepo.Git("remote", "add", "origin", "https://gitlab.example/acme/widgets.git")
	tmpl, err := os.ReadFile(filepath.Join(root, "ci", "gitlab", "tribunal-review.yml"))
	if err != nil {
		t.Fatal(err)
	}
	mrRepo.WriteFile("tribunal-review.yml", string(tmpl))
	mrRepo.WriteFile(".gitlab-ci.yml", "include:\n  - local: tribunal-review.yml\n")
	mrRepo.WriteFile("retry.go", glRetryBase)
	base := mrRepo.Commit("base")
	mrRepo.Git("checkout", "-q", "-b", "retry")
	mrRepo.WriteFile("retry.go", glRetryHead1)
	head1 := mrRepo.Commit("retry")

	if err := os.MkdirAll(filepath.Join(dir, "home"), 0o755); err != nil {
		t.Fatal(err)
	}
	api := fakegitlab.Start(glToken)
	defer api.Close()
	api.SetMergeRequest("42", 7, fakegitlab.Refs{BaseSHA: base, StartSHA: base, HeadSHA: head1}, glDiffs(t, mrRepo, base, head1))
	fake, err := exec.LookPath("claude") // testscript.Main's fake claude
	if err != nil {
		t.Fatal(err)
	}
	// ci/install.sh checks the CLI with --version outside tribunal, where
	// the fake refuses to run for want of the recursion guard.
	claudeBin := filepath.Join(dir, "claude-bin", "claude")
	if err := os.MkdirAll(filepath.Dir(claudeBin), 0o755); err != nil {
		t.Fatal(err)
	}
	testkit.WriteFileMode(t, claudeBin, "#!/bin/sh\nif [ \"$1\" = --version ]; then TRIBUNAL_NESTED=${TRIBUNAL_NESTED:-1} exec "+fake+" \"$@\"; fi\nexec "+fake+" \"$@\"\n", 0o755)
	run := func(name, judges string, vars ...string) (bool, string, time.Duration) {
		t.Helper()
		script := filepath.Join(dir, name+".json")
		testkit.WriteFile(t, filepath.Join(dir, name+".json"), judges)
		args := []string{"--force-shell-executor", "--shell-isolation", "--no-color",
			"--variable", "CI_PIPELINE_SOURCE=merge_request_event", "--variable", "CI_MERGE_REQUEST_IID=7",
			"--variable", "CI_PROJECT_ID=42", "--variable", "CI_API_V4_URL=" + api.URL,
			"--variable", "CI_MERGE_REQUEST_DIFF_BASE_SHA=" + base, "--variable", "CI_MERGE_REQUEST_TITLE=Add retry",
			"--variable", "TRIBUNAL_REPO=file://" + src, "--variable", "TRIBUNAL_REF=e2e",
			"--variable", "TRIBUNAL_GITLAB_TOKEN=" + glToken, "--variable", "FAKE_CLAUDE_SCRIPT=" + script,
			"--variable", "TRIBUNAL_CLAUDE_BIN=" + claudeBin}
		for _, v := range vars {
			args = append(args, "--variable", v)
		}
		cmd := exec.Command(gcl, append(args, "tribunal-review")...)
		cmd.Dir = mr
		// The host's Go caches, offline: the job builds tribunal-session.
		cmd.Env = append(os.Environ(), "HOME="+filepath.Join(dir, "home"), "FAKE_CLAUDE_LOG="+filepath.Join(dir, "claude.jsonl"),
			"GOMODCACHE="+glGoEnv(t, "GOMODCACHE"), "GOCACHE="+glGoEnv(t, "GOCACHE"), "GOFLAGS=-mod=mod", "GOPROXY=off", "ONLOOKER_DIR="+filepath.Join(dir, "onlooker"))
		start := time.Now()
		out, err := cmd.CombinedOutput()
		return err == nil, string(out), time.Since(start)
	}

	ok, out, cold := run("first", glJudges(glLoop+","+glSend+","+glPkg, ""))
	if !ok || !strings.Contains(out, "tribunal: built and cached") {
		t.Fatalf("first pipeline: ok=%v\n%s", ok, out)
	}
	notes, ds := api.Notes("42", 7), api.Discussions("42", 7)
	if len(notes) != 1 || len(ds) != 2 || !strings.Contains(notes[0].Body, "the package has no doc comment") {
		t.Fatalf("first pipeline: %d notes, %d discussions, want 1 and 2 (lines 4 and 9)\n%+v\n%s", len(notes), len(ds), ds, out)
	}
	loopFP := gitlabmr.MarkedFingerprint(ds[0].Notes[0].Body)
	if ds[0].Notes[0].Position["new_line"] != float64(4) || ds[1].Notes[0].Position["new_line"] != float64(9) || loopFP == "" {
		t.Fatalf("first pipeline's discussions: %+v", ds)
	}

	mrRepo.WriteFile("retry.go", glRetryHead2)
	head2 := mrRepo.Commit("fix send")
	api.SetMergeRequest("42", 7, fakegitlab.Refs{BaseSHA: base, StartSHA: base, HeadSHA: head2}, glDiffs(t, mrRepo, base, head2))
	ok, out, warm := run("second", glJudges(glLoop+","+glPkg, ""))
	if !ok || !strings.Contains(out, "tribunal: installed from the job cache") {
		t.Fatalf("second pipeline: ok=%v, want the install from the cache\n%s", ok, out)
	}
	notes, ds = api.Notes("42", 7), api.Discussions("42", 7)
	if len(notes) != 1 || len(ds) != 2 || ds[0].Notes[0].Resolved || !ds[1].Notes[0].Resolved ||
		gitlabmr.MarkedFingerprint(ds[0].Notes[0].Body) != loopFP {
		t.Fatalf("second pipeline: %d notes, discussions %+v; want the loop's open, send's resolved, nothing new\n%s", len(notes), ds, out)
	}
	t.Logf("%sgitlab-ci-local job, cold install (build) %s, warm (job cache) %s", testtier.NotePrefix, cold.Round(time.Second), warm.Round(time.Second))

	ok, out, _ = run("gate", glJudges(glLoop, ""), "TRIBUNAL_GATE=1")
	if ok || !strings.Contains(out, "rejected") {
		t.Fatalf("TRIBUNAL_GATE=1 with a major finding: the job passed\n%s", out)
	}
	if n := len(api.Notes("42", 7)); n != 1 {
		t.Errorf("gate pipeline: %d notes, want the one note edited", n)
	}
}
