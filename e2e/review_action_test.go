package e2e

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/store/receipt"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakeapi"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakegithub"
)

// A finding whose text tries to mention, link and inject HTML: the comment
// must carry it inert.
const reviewFlaw = "Retry loops forever on 500 @octocat <b>see</b> [here](https://evil.example) (E2E-REVIEW-FLAW)"

// TestReviewAction runs the GitHub Action's script (ci/github/review.sh
// run, what action.yml runs) as GitHub would on two pushes to one pull
// request: a pull_request payload in GITHUB_EVENT_PATH, the output and
// summary files, the real tribunal-session and Claude Code CLI judging
// against the fake Messages API, and a fake GitHub API on loopback that
// records the comment calls. The first push's review creates the comment,
// the second's edits it.
func TestReviewAction(t *testing.T) {
	t.Parallel()
	w, root, base, heads := reviewWorld(t)
	gh := fakegithub.Start("ghs_e2e")
	defer gh.Close()
	for i, head := range heads {
		start := time.Now()
		code, out, job := actionJob(t, w, root, gh, base, head)
		if code != 0 {
			t.Fatalf("push %d: review.sh run: exit %d\n%s\n%s", i+1, code, out, w.api.Summary())
		}
		t.Logf("push %d reviewed in %v", i+1, time.Since(start).Round(time.Millisecond))
		outputs, _ := os.ReadFile(filepath.Join(job, "output"))
		summary, _ := os.ReadFile(filepath.Join(job, "summary.md"))
		for _, want := range []string{"base<<", "outcome<<", "review-id<<", "sarif<<", "comment-url<<"} {
			if !strings.Contains(string(outputs), want) {
				t.Errorf("push %d: $GITHUB_OUTPUT lacks %s:\n%s\n%s", i+1, want, outputs, out)
			}
		}
		if !strings.HasPrefix(string(summary), reviewfmt.Marker) {
			t.Errorf("push %d: the job summary is not the review:\n%s", i+1, summary)
		}
	}
	comments := gh.Comments(7)
	if len(comments) != 1 {
		t.Fatalf("%d comments on the pull request, want one kept up to date", len(comments))
	}
	var calls []fakegithub.Call // the summary comment's writes, not the review threads'
	for _, c := range gh.Calls() {
		if strings.Contains(c.Path, "/issues/") {
			calls = append(calls, c)
		}
	}
	if len(calls) != 2 || calls[0].Method != "POST" || calls[1].Method != "PATCH" {
		t.Errorf("comment writes = %+v, want one POST then one PATCH", calls)
	}
	// inline (on by default): the finding on a changed line is a thread.
	threads := 0
	for _, c := range gh.ReviewComments(7) {
		if c.InReplyTo == 0 && c.Path == "retry.go" && strings.Contains(c.Body, "E2E-REVIEW-FLAW") && reviewfmt.ThreadFingerprint(c.Body) != "" {
			threads++
		}
	}
	if threads == 0 || len(gh.Reviews()) == 0 {
		t.Errorf("no review thread for the finding on retry.go: reviews %+v, comments %+v", gh.Reviews(), gh.ReviewComments(7))
	}
	body := comments[0].Body
	if !strings.Contains(body, "E2E-REVIEW-FLAW") || strings.Contains(body, "<b>") || !strings.Contains(body, "](https://github.example/acme/widgets/blob/"+heads[1]+"/retry.go#L4)") {
		t.Errorf("the comment lacks the second review's finding, linked at its head:\n%s", body)
	}
	// Outside fenced blocks (where GitHub makes nothing of it) the
	// mention must be broken.
	fenced := false
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
		}
		if !fenced && strings.Contains(l, "@octocat") {
			t.Errorf("a live mention in the comment: %q", l)
		}
	}
}

// reviewWorld is a world whose PATH has the built tribunal-session and
// whose repository has a branch "retry" of two commits (two pushes) on
// top of base, judged by scriptReviewJudges.
func reviewWorld(t *testing.T) (w *world, root, base string, heads []string) {
	w = newWorld(t, "")
	sessionBin := filepath.Join(w.plugin.Dir, "bin", "tribunal-session")
	if err := os.Symlink(sessionBin, filepath.Join(w.pathDir, "tribunal-session")); err != nil {
		t.Fatal(err)
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	scriptReviewJudges(w.api)
	base = strings.TrimSpace(w.git("rev-parse", "HEAD"))
	w.git("checkout", "-q", "-b", "retry")
	for i, body := range []string{"for {\n\tsend()\n}\n", "for i := 0; i < 3; i++ {\n\tsend()\n}\n"} {
		w.writeFile("retry.go", "package retry\n\nfunc Retry() {\n"+body+"}\n")
		w.git("add", "-A")
		w.git("commit", "-q", "-m", fmt.Sprintf("retry, push %d", i+1))
		heads = append(heads, strings.TrimSpace(w.git("rev-parse", "HEAD")))
	}
	return w, root, base, heads
}

// TestReviewGitLab runs the GitLab job's script as a merge request
// pipeline would: the Code Quality report it leaves is the finding at
// retry.go, and the job is advisory (exit 0) although the review rejects.
func TestReviewGitLab(t *testing.T) {
	t.Parallel()
	w, root, base, heads := reviewWorld(t)
	job := t.TempDir()
	cmd := exec.Command("bash", filepath.Join(root, "ci", "gitlab", "review.sh"))
	cmd.Dir = w.repo
	cmd.Env = append(w.environ(), "GITLAB_CI=true", "CI_MERGE_REQUEST_IID=7", "CI_MERGE_REQUEST_DIFF_BASE_SHA="+base,
		"CI_COMMIT_SHA="+heads[1], "CI_MERGE_REQUEST_TITLE=Add retry", "CI_MERGE_REQUEST_DESCRIPTION=Up to 3 times.", "TRIBUNAL_OUT="+job)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ci/gitlab/review.sh: %v\n%s", err, out)
	}
	var issues []struct {
		CheckName, Severity string
		Location            struct{ Path string }
	}
	data, _ := os.ReadFile(filepath.Join(job, "gl-code-quality-report.json"))
	if err := json.Unmarshal(data, &issues); err != nil || len(issues) == 0 || issues[0].Location.Path != "retry.go" || issues[0].Severity != "major" {
		t.Errorf("Code Quality report = %s (%v)\n%s", data, err, out)
	}
	if !strings.Contains(string(out), reviewfmt.Marker) {
		t.Errorf("the job log lacks the review:\n%s", out)
	}
}

// TestReviewPreCommitHook runs ci/hooks/pre-commit as git does: the staged
// change is judged and a major finding blocks the commit at
// TRIBUNAL_FAIL_ON=major.
func TestReviewPreCommitHook(t *testing.T) {
	t.Parallel()
	w, root, _, _ := reviewWorld(t)
	w.writeFile("retry.go", "package retry\n\nfunc Retry() {\n\tfor {\n\t}\n}\n")
	w.git("add", "retry.go")
	cmd := exec.Command("git", "-c", "core.hooksPath="+filepath.Join(root, "ci", "hooks"), "commit", "-q", "-m", "loop")
	cmd.Dir = w.repo
	cmd.Env = append(w.environ(), "TRIBUNAL_FAIL_ON=major")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "commit blocked by the review") {
		t.Errorf("the pre-commit hook let a change with a major finding through (%v):\n%s", err, out)
	}
}

// scriptReviewJudges answers every judge of the review with a verdict that
// fails the change and cites retry.go, and the meta-judge with "sound".
func scriptReviewJudges(api *fakeapi.Server) {
	api.Add(fakeapi.Rule{Name: "meta-judge", Match: fakeapi.Match{SystemContains: roleMarkers["meta"]},
		Replies: []fakeapi.Reply{fakeapi.Structured(map[string]any{"verdict_quality": "sound", "bias_detected": false, "confidence": 0.7})}})
	api.Add(fakeapi.Rule{Name: "review judge", Match: fakeapi.Match{Tool: fakeapi.StructuredOutputTool},
		Respond: func(*fakeapi.Request) fakeapi.Reply {
			return fakeapi.Structured(map[string]any{
				"score": 0.4, "passed": false, "confidence": 0.8, "feedback_summary": "The retry never stops.",
				"criterion_scores": map[string]float64{"correctness": 0.4, "completeness": 0.6, "safety": 0.9, "clarity": 0.7},
				"findings":         []map[string]any{{"severity": "major", "file": "retry.go", "line": 4, "message": reviewFlaw, "criterion": "correctness"}},
			})
		}})
}

// actionJob runs the Action's two steps, ci/github/review.sh review then
// publish, as GitHub would for one push of pull request 7 (base → head,
// head checked out), with the given extra inputs, and returns the exit
// code, output and the job directory.
func actionJob(t *testing.T, w *world, root string, gh *fakegithub.Server, base, head string, inputs ...string) (int, string, string) {
	t.Helper()
	return actionJobAt(t, w, root, gh, base, head, head, inputs...)
}

// actionJobAt is actionJob with checkout checked out in the workspace.
// As in action.yml, the review step gets no GITHUB_TOKEN and the publish
// step no model key; the inputs go to both (a later one wins).
func actionJobAt(t *testing.T, w *world, root string, gh *fakegithub.Server, base, head, checkout string, inputs ...string) (int, string, string) {
	t.Helper()
	job := t.TempDir()
	event := filepath.Join(job, "event.json")
	payload := `{"action":"synchronize","pull_request":{"number":7,"title":"Add retry","body":"Retry sends up to 3 times.",` +
		`"base":{"sha":"` + base + `","repo":{"full_name":"acme/widgets"}},"head":{"sha":"` + head + `","repo":{"full_name":"acme/widgets"}}}}`
	if err := os.WriteFile(event, []byte(payload), 0o644); err != nil {
		t.Fatal(err)
	}
	w.git("checkout", "-q", checkout)
	common := append(w.environ(),
		"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request", "GITHUB_EVENT_PATH="+event,
		"GITHUB_OUTPUT="+filepath.Join(job, "output"), "GITHUB_STEP_SUMMARY="+filepath.Join(job, "summary.md"),
		"GITHUB_API_URL="+gh.URL, "GITHUB_SERVER_URL=https://github.example", "GITHUB_REPOSITORY=acme/widgets",
		"RUNNER_TEMP="+job, "INPUT_COMMENT=true", "INPUT_GATE=false")
	var all strings.Builder
	for _, step := range []struct{ name, env string }{{"dismissals", "ANTHROPIC_API_KEY="}, {"review", "GITHUB_TOKEN="}, {"publish", "ANTHROPIC_API_KEY="}} {
		cmd := exec.Command("bash", filepath.Join(root, "ci", "github", "review.sh"), step.name)
		cmd.Dir = w.repo
		cmd.Env = append(append(append([]string{}, common...), "GITHUB_TOKEN=ghs_e2e"), inputs...)
		cmd.Env = append(cmd.Env, step.env)
		out, err := cmd.CombinedOutput()
		all.Write(out)
		if err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatalf("review.sh %s: %v\n%s", step.name, err, out)
			}
			return ee.ExitCode(), all.String(), job
		}
	}
	return 0, all.String(), job
}

// TestReviewActionReceipt runs the Action with a receipt standing in for
// the review. The allowed signers are on the base branch (a commit beside
// the pull request's merge base); the receipt is pushed to origin's
// refs/notes/tribunal and fetched by the script. With receipt: require a
// valid receipt passes and no model is called; with or-review a head
// without one gets a fresh review, gated, which rejects it (exit 10); a
// bad input is refused before anything runs.
func TestReviewActionReceipt(t *testing.T) {
	t.Parallel()
	w, root, base, heads := reviewWorld(t)
	head := heads[1]
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	w.git("checkout", "-q", "-b", "main2", base)
	w.writeFile(".tribunal/allowed_signers", receipt.SignerLine("alice@example.com", key.Public().(ed25519.PublicKey))+"\n")
	w.git("add", "-A")
	w.git("commit", "-q", "-m", "allowed signers")
	signersBase := strings.TrimSpace(w.git("rev-parse", "HEAD"))
	origin := filepath.Join(t.TempDir(), "origin.git")
	w.git("init", "-q", "--bare", origin)
	w.git("remote", "add", "origin", origin)
	gh := fakegithub.Start("ghs_e2e")
	defer gh.Close()

	// or-review, no receipt anywhere: a fresh review decides, gated.
	code, out, job := actionJob(t, w, root, gh, signersBase, head, "INPUT_RECEIPT=or-review")
	outputs, _ := os.ReadFile(filepath.Join(job, "output"))
	if code != 10 || !strings.Contains(string(outputs), "receipt<<TRIBUNAL_EOF\nmissing\n") || len(w.api.Requests()) == 0 {
		t.Fatalf("or-review without a receipt: exit %d (want 10, the gated review's rejection), %d model requests\n%s\n%s", code, len(w.api.Requests()), outputs, out)
	}
	if c := gh.Comments(7); len(c) != 1 || !strings.Contains(c[0].Body, "E2E-REVIEW-FLAW") {
		t.Fatalf("the comment is not the review's: %+v", c)
	}

	// A valid receipt, shared through origin: require passes without a model call.
	tree := strings.TrimSpace(w.git("rev-parse", head+"^{tree}"))
	rc, err := receipt.Sign(receipt.Receipt{Kind: receipt.KindReview, Commit: head, Tree: tree,
		Judged: receipt.Judged{Base: base, BaseTree: strings.TrimSpace(w.git("rev-parse", base+"^{tree}")), Head: head, Tree: tree,
			Match: receipt.MatchReview},
		Verdict: receipt.Verdict{Outcome: "accepted", Passed: true, TaskID: "01JREVIEW", Rubric: receipt.Rubric{ID: "default"}}},
		key, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	note, _, err := receipt.Merge(nil, rc)
	if err != nil {
		t.Fatal(err)
	}
	g := receipt.Git{Path: "git", Env: w.environ(), Dir: w.repo}
	if err := g.WriteNotes(context.Background(), receipt.DefaultRef, "", []receipt.NoteWrite{{Commit: head, Note: note}}); err != nil {
		t.Fatal(err)
	}
	w.git("push", "-q", "origin", receipt.DefaultRef)
	w.git("update-ref", "-d", receipt.DefaultRef)
	before := len(w.api.Requests())
	code, out, job = actionJob(t, w, root, gh, signersBase, head, "INPUT_RECEIPT=require", "ANTHROPIC_API_KEY=")
	outputs, _ = os.ReadFile(filepath.Join(job, "output"))
	if code != 0 || !strings.Contains(string(outputs), "receipt<<TRIBUNAL_EOF\nvalid\n") || len(w.api.Requests()) != before {
		t.Fatalf("require with a valid receipt: exit %d, %d model requests (want 0)\n%s\n%s", code, len(w.api.Requests())-before, outputs, out)
	}
	if c := gh.Comments(7); len(c) != 1 || !strings.Contains(c[0].Body, "tribunal receipt: valid") || !strings.Contains(c[0].Body, "alice") {
		t.Errorf("the one comment does not show the receipt: %+v", c)
	}

	// The previous head has no receipt: require fails with verify's code.
	code, out, _ = actionJob(t, w, root, gh, signersBase, heads[0], "INPUT_RECEIPT=require")
	if code != 30 || !strings.Contains(out, "requires one (receipt: require)") {
		t.Errorf("require without a receipt: exit %d, want 30\n%s", code, out)
	}
	code, out, _ = actionJob(t, w, root, gh, signersBase, head, "INPUT_RECEIPT=sometimes")
	if code != 2 || !strings.Contains(out, `input receipt is "sometimes"`) || !strings.Contains(out, "hint: use off, require or or-review") {
		t.Errorf("a bad receipt input: exit %d, want 2\n%s", code, out)
	}
}

// TestReviewActionPullRequestTarget runs the Action's steps on a
// pull_request_target event: with the head checked out the review step
// fails with one error and its hint before any model call, the job
// summary naming the risk; with the base checked out (the safe pattern)
// it reviews; with the head and allow-pull-request-target-head it
// reviews and the summary names the accepted risk.
func TestReviewActionPullRequestTarget(t *testing.T) {
	t.Parallel()
	w, root, base, heads := reviewWorld(t)
	head := heads[1]
	gh := fakegithub.Start("ghs_e2e")
	defer gh.Close()
	target := "GITHUB_EVENT_NAME=pull_request_target"

	code, out, job := actionJobAt(t, w, root, gh, base, head, head, target)
	summary, _ := os.ReadFile(filepath.Join(job, "summary.md"))
	if code != 2 || !strings.Contains(out, "tribunal: error: refused to review: pull_request_target with the pull request's head checked out") ||
		!strings.Contains(out, "hint: check out the base (actions/checkout with no ref), or set allow-pull-request-target-head: true") {
		t.Fatalf("head checked out: exit %d, want 2 with the refusal\n%s", code, out)
	}
	if !strings.Contains(string(summary), "tribunal refused to review") || len(w.api.Requests()) != 0 || len(gh.Comments(7)) != 0 {
		t.Fatalf("the refusal: summary %q, %d model requests, %d comments (want the risk, 0, 0)", summary, len(w.api.Requests()), len(gh.Comments(7)))
	}

	code, out, job = actionJobAt(t, w, root, gh, base, head, base, target)
	summary, _ = os.ReadFile(filepath.Join(job, "summary.md"))
	if code != 0 || len(w.api.Requests()) == 0 || !strings.HasPrefix(string(summary), reviewfmt.Marker) {
		t.Fatalf("base checked out: exit %d, %d model requests, summary %.80q\n%s", code, len(w.api.Requests()), summary, out)
	}

	code, out, job = actionJobAt(t, w, root, gh, base, head, head, target, "INPUT_ALLOW_PULL_REQUEST_TARGET_HEAD=true")
	summary, _ = os.ReadFile(filepath.Join(job, "summary.md"))
	if code != 0 || !strings.Contains(string(summary), "### tribunal: risk accepted") || !strings.Contains(string(summary), reviewfmt.Marker) ||
		!strings.Contains(out, "accepted by the input allow-pull-request-target-head") {
		t.Fatalf("head checked out, risk accepted: exit %d, summary:\n%s\n%s", code, summary, out)
	}
}

// TestReviewActionCacheSecret: without a cache secret the review step
// keeps no verdict cache (says so in one line, nothing written to the
// directory actions/cache would save); with one it uses the directory.
func TestReviewActionCacheSecret(t *testing.T) {
	t.Parallel()
	w, root, base, heads := reviewWorld(t)
	gh := fakegithub.Start("ghs_e2e")
	defer gh.Close()
	cacheDir := filepath.Join(t.TempDir(), "tribunal-review-cache")
	code, out, _ := actionJob(t, w, root, gh, base, heads[1], "INPUT_CACHE=true", "INPUT_CACHE_DIR="+cacheDir, "TRIBUNAL_CACHE_SECRET=")
	if code != 0 || strings.Count(out, "tribunal: the verdict cache is off: no cache-secret input") != 1 {
		t.Fatalf("no secret: exit %d, want 0 and one line saying the cache is off\n%s", code, out)
	}
	if entries, _ := os.ReadDir(cacheDir); len(entries) != 0 {
		t.Fatalf("no secret, yet the cache directory has %d entries", len(entries))
	}
	code, out, _ = actionJob(t, w, root, gh, base, heads[1], "INPUT_CACHE=true", "INPUT_CACHE_DIR="+cacheDir, "TRIBUNAL_CACHE_SECRET=s3cret-for-the-e2e-tier")
	if entries, _ := os.ReadDir(cacheDir); code != 0 || len(entries) == 0 || strings.Contains(out, "verdict cache is off") {
		t.Fatalf("with a secret: exit %d, %d cache entries (want some)\n%s", code, len(entries), out)
	}
}
