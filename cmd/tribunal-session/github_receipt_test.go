package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/store/receipt"
	"github.com/tribunal-cc/tribunal/internal/testkit"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakegithub"
)

// prRepo is a pull request's repository: a base commit with an
// allowed-signers file, and a head commit that adds mallory to its own
// copy of the file (which must not count).
type prRepo struct {
	t               *testing.T
	repo            *testkit.Repo
	dir, base, head string
	alice, mallory  ed25519.PrivateKey
	env             []string
	notesTip        string
	// judgedBase is the judged base receipts name (the base when "").
	judgedBase string
}

func (r *prRepo) git(args ...string) string {
	r.t.Helper()
	return r.repo.Git(args...)
}

func (r *prRepo) commit(file, content string) string {
	r.t.Helper()
	r.repo.WriteFile(file, content)
	return r.repo.Commit(file)
}

// newPRRepo builds the repository; signers makes the base's
// allowed-signers file from the keys ("" for none).
func newPRRepo(t *testing.T, signers func(r *prRepo) string) *prRepo {
	repo := testkit.GitRepo(t)
	r := &prRepo{t: t, repo: repo, dir: repo.Dir, env: repo.Env}
	_, r.alice, _ = ed25519.GenerateKey(rand.Reader)
	_, r.mallory, _ = ed25519.GenerateKey(rand.Reader)
	r.commit("README", "hello\n")
	atBase := signers(r)
	if atBase != "" {
		r.commit(receipt.SignersFile, atBase)
	}
	r.base = r.git("rev-parse", "HEAD")
	r.commit("retry.go", "package retry\n")
	r.head = r.commit(receipt.SignersFile, atBase+receipt.SignerLine("mallory@example.com", r.mallory.Public().(ed25519.PublicKey))+"\n")
	return r
}

// sign writes a receipt for the head by key (tree: the head's, unless
// another is given; tamper edits the line after signing).
func (r *prRepo) sign(key ed25519.PrivateKey, tree string, passed bool, tamper bool) {
	r.t.Helper()
	if tree == "" {
		tree = r.git("rev-parse", r.head+"^{tree}")
	}
	outcome := "accepted"
	if !passed {
		outcome = "rejected"
	}
	base := r.base
	if r.judgedBase != "" {
		base = r.judgedBase
	}
	rc, err := receipt.Sign(receipt.Receipt{Kind: receipt.KindReview, Commit: r.head, Tree: tree,
		Judged: receipt.Judged{Base: base, BaseTree: r.git("rev-parse", base+"^{tree}"), Head: r.head, Tree: tree,
			Match: receipt.MatchReview},
		Verdict: receipt.Verdict{Outcome: outcome, Passed: passed, TaskID: "01JREVIEW", Rubric: receipt.Rubric{ID: "default"}}},
		key, time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC))
	if err != nil {
		r.t.Fatal(err)
	}
	note, _, err := receipt.Merge(nil, rc)
	if err != nil {
		r.t.Fatal(err)
	}
	if tamper {
		note = []byte(strings.Replace(string(note), `"outcome":"accepted"`, `"outcome":"accepted "`, 1))
	}
	g := receipt.Git{Path: "git", Env: r.env, Dir: r.dir}
	if err := g.WriteNotes(context.Background(), receipt.DefaultRef, r.notesTip, []receipt.NoteWrite{{Commit: r.head, Note: note}}); err != nil {
		r.t.Fatal(err)
	}
	r.notesTip = r.git("rev-parse", receipt.DefaultRef)
}

// TestGitHubReceipt runs the Action's receipt step on one pull request
// in each state a head can be in. The allowed signers come from the base
// commit: mallory, whom only the pull request's own copy lists, is never
// allowed.
func TestGitHubReceipt(t *testing.T) {
	gh := fakegithub.Start("ghs_test")
	defer gh.Close()
	aliceLine := func(r *prRepo) string {
		return receipt.SignerLine("alice@example.com", r.alice.Public().(ed25519.PublicKey)) + "\n"
	}
	noSigners := func(*prRepo) string { return "" }
	malformed := func(*prRepo) string { return "alice@example.com ssh-ed25519\n" }
	for _, tc := range []struct {
		name     string
		setup    func(r *prRepo)
		signers  func(r *prRepo) string
		code     int
		output   string
		stderr   string
		markdown string
	}{
		{name: "valid", setup: func(r *prRepo) { r.sign(r.alice, "", true, false) }, code: 0, output: "valid",
			markdown: "## tribunal receipt: valid"},
		{name: "missing", code: exitReceiptMissing, output: "missing", markdown: "This job requires one."},
		{name: "not passed", setup: func(r *prRepo) { r.sign(r.alice, "", false, false) }, code: exitReceiptNotPassed, output: "not-passed"},
		{name: "tree mismatch", setup: func(r *prRepo) { r.sign(r.alice, r.git("rev-parse", r.base+"^{tree}"), true, false) },
			code: exitReceiptTree, output: "tree-mismatch"},
		// The judges saw only the head's last commit, not retry.go before
		// it: the receipt cannot vouch for the pull request (issue 30
		// item 4).
		{name: "judged from inside the pull request", setup: func(r *prRepo) {
			r.judgedBase = r.git("rev-parse", r.head+"~1")
			r.sign(r.alice, "", true, false)
		}, code: exitReceiptTree, output: "tree-mismatch", stderr: "hint: a receipt vouches only for the change its judges saw"},
		// Judged from further back than the merge base, but the base's
		// last commit added the allowed-signers file the pull request
		// changes: the judges saw the file added whole, never the pull
		// request's edit of it (an ancestor whose later changes the pull
		// request does not touch vouches: internal/store/receipt TestJudgedBase).
		{name: "judged from an ancestor of the merge base", setup: func(r *prRepo) {
			r.judgedBase = r.git("rev-parse", r.base+"~1")
			r.sign(r.alice, "", true, false)
		}, code: exitReceiptTree, output: "tree-mismatch"},
		{name: "signer only the PR allows", setup: func(r *prRepo) { r.sign(r.mallory, "", true, false) },
			code: exitReceiptSigner, output: "signer-not-allowed"},
		{name: "edited receipt", setup: func(r *prRepo) { r.sign(r.alice, "", true, true) }, code: exitReceiptBad, output: "signature-bad"},
		{name: "base allows no one", signers: noSigners, code: exitUsage,
			stderr: "hint: commit .tribunal/allowed_signers on the base branch"},
		{name: "malformed signers at base", signers: malformed, code: exitUsage,
			stderr: ":.tribunal/allowed_signers:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			signers := aliceLine
			if tc.signers != nil {
				signers = tc.signers
			}
			r := newPRRepo(t, signers)
			if tc.setup != nil {
				tc.setup(r)
			}
			t.Chdir(r.dir)
			j := newJob(t, gh, strings.Replace(prEvent(r.head, "acme/widgets"), strings.Repeat("1", 40), r.base, 1))
			j.env["HOME"] = t.TempDir()
			md := filepath.Join(j.dir, "receipt.md")
			code, out, errOut := j.run("github", "receipt", "--markdown", md)
			if code != tc.code {
				t.Fatalf("github receipt = %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			if tc.stderr != "" && !strings.Contains(errOut, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, errOut)
			}
			if tc.output == "" {
				return
			}
			if outputs := j.read("output"); !strings.Contains(outputs, "receipt<<TRIBUNAL_EOF\n"+tc.output+"\n") {
				t.Errorf("$GITHUB_OUTPUT lacks receipt=%s:\n%s", tc.output, outputs)
			}
			body, _ := os.ReadFile(md)
			if !strings.HasPrefix(string(body), reviewfmt.Marker) || !strings.Contains(string(body), tc.markdown) {
				t.Errorf("comment body lacks %q:\n%s", tc.markdown, body)
			}
		})
	}
}
