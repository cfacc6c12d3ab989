package receipt

import (
	"context"
	"crypto/ed25519"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// repo is a testkit repository with the receipt package's view of it.
type repo struct {
	*testkit.Repo
	t *testing.T
}

// newRepo is an empty repository on branch main.
func newRepo(t *testing.T) *repo { return &repo{testkit.GitRepo(t), t} }

// commit writes file and commits every change, returning the commit.
func (r *repo) commit(file, content, msg string) string {
	r.t.Helper()
	r.WriteFile(file, content)
	return r.Commit(msg)
}

func (r *repo) g() Git { return Git{Path: "git", Env: r.Env, Dir: r.Dir} }

func (r *repo) verify(spec string, signers Signers) []Result {
	r.t.Helper()
	res, err := VerifyRange(context.Background(), r.g(), DefaultRef, spec, signers)
	if err != nil {
		r.t.Fatal(err)
	}
	return res
}

func keyDir(t *testing.T) (string, ed25519.PrivateKey) {
	dir := t.TempDir()
	k, err := ledger.LoadOrCreateKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, k
}

func verdict() Verdict {
	return Verdict{Outcome: "accepted", Passed: true, Score: f(0.9), Rubric: Rubric{ID: "default"}, TaskID: "01JREVIEW",
		Judges: []Judge{{ID: "j1", Type: "standard", Score: f(0.9), Passed: true}}}
}

// Two people sign the same commit in their own clones without seeing each
// other's receipt; the notes refs diverge, and git's cat_sort_uniq merge
// joins them into a note that holds both receipts, each valid. Then the
// merged ref travels back through the remote.
func TestTwoSignersThroughClones(t *testing.T) {
	ctx := context.Background()
	g := testkit.NewGit(t)
	top := t.TempDir()
	origin := g.Init(filepath.Join(top, "origin.git"), "--bare")
	g.Run(top, "clone", "-q", origin.Dir, "alice")
	alice := &repo{g.Repo(filepath.Join(top, "alice")), t}
	alice.commit("a.txt", "a\n", "base")
	head := alice.commit("b.txt", "b\n", "change")
	alice.Git("push", "-q", "origin", "main")
	g.Run(top, "clone", "-q", origin.Dir, "bob")
	bob := &repo{g.Repo(filepath.Join(top, "bob")), t}

	aliceKeys, aliceKey := keyDir(t)
	bobKeys, bobKey := keyDir(t)
	if _, err := ForReview(ctx, alice.g(), Options{Ref: DefaultRef, KeyDir: aliceKeys, Now: t0}, "HEAD~1", "HEAD", verdict()); err != nil {
		t.Fatal(err)
	}
	if _, err := ForReview(ctx, bob.g(), Options{Ref: DefaultRef, KeyDir: bobKeys, Now: t0}, "HEAD~1", "HEAD", verdict()); err != nil {
		t.Fatal(err)
	}
	// The documented sharing: push; the other side fetches into a
	// remote-tracking notes ref and merges with cat_sort_uniq.
	alice.Git("push", "-q", "origin", DefaultRef)
	bob.Git("fetch", "-q", "origin", DefaultRef+":refs/notes/remotes/origin/tribunal")
	bob.Git("notes", "--ref", DefaultRef, "merge", "-q", "-s", "cat_sort_uniq", "refs/notes/remotes/origin/tribunal")
	bob.Git("push", "-q", "origin", DefaultRef)
	alice.Git("fetch", "-q", "origin", DefaultRef+":"+DefaultRef)

	both := allow(t, "x", aliceKey, bobKey)
	for name, r := range map[string]*repo{"alice": alice, "bob": bob} {
		res := r.verify("HEAD", both)
		if len(res) != 1 || res[0].Status != Valid || len(res[0].Findings) != 2 {
			t.Fatalf("%s: %+v", name, res)
		}
		for _, f := range res[0].Findings {
			if f.Status != Valid || f.Receipt.Commit != head {
				t.Errorf("%s: %+v", name, f)
			}
		}
	}
	// git's merge gives the very note tribunal's own merge writes.
	note := alice.Git("notes", "--ref", DefaultRef, "show", "HEAD") + "\n"
	var lines [][]byte
	for _, e := range ParseNote([]byte(note)) {
		lines = append(lines, e.Text)
	}
	if got := string(Format(lines)); got != note {
		t.Errorf("cat_sort_uniq's note\n%s\ndiffers from Format's\n%s", note, got)
	}
	if !strings.HasPrefix(alice.Git("log", "-1", "--notes=tribunal", "--format=%N"), "tribunal: accepted 0.9 (standard 0.9) review 01JREVIEW") {
		t.Error("git log does not show the summary first")
	}
	// Alice alone in the allowed signers: still valid, Bob's is reported.
	res := alice.verify("HEAD", allow(t, "alice", aliceKey))
	if res[0].Status != Valid {
		t.Errorf("one allowed signer of two: %+v", res[0])
	}
}

// With notes.rewriteRef set, git's rebase carries receipts to the rewritten
// commits: a rebase that keeps the trees keeps them valid; one onto a
// moved base changes the tree, and verify says so — and `receipt` cannot
// sign the rebased commit afresh, as its tree was never judged (a
// receipt vouches only for the tree its judges saw).
func TestRebaseCarriesReceipts(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	base := r.commit("a.txt", "a\n", "base")
	r.Git("checkout", "-q", "-b", "topic")
	r.commit("b.txt", "b\n", "change")
	keys, key := keyDir(t)
	if _, err := ForReview(ctx, r.g(), Options{Ref: DefaultRef, KeyDir: keys, Now: t0}, base, "HEAD", verdict()); err != nil {
		t.Fatal(err)
	}
	signers := allow(t, "me", key)
	r.Git("config", "notes.rewriteRef", DefaultRef)

	r.Git("rebase", "-q", "--force-rebase", "main")
	if res := r.verify("HEAD", signers); res[0].Status != Valid {
		t.Fatalf("rebased in place: %+v", res[0])
	}
	r.Git("checkout", "-q", "main")
	r.commit("c.txt", "c\n", "upstream moves")
	r.Git("checkout", "-q", "topic")
	r.Git("rebase", "-q", "main")
	res := r.verify("HEAD", signers)
	if res[0].Status != TreeMismatch {
		t.Fatalf("rebased onto a moved base: %+v", res[0])
	}

	judged := Task{Verdict: verdict(), Snapshot: base, Head: res[0].Findings[0].Receipt.Judged.Head}
	commits, err := r.g().Commits(ctx, "main~1..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	ms, warns, err := MatchTasks(ctx, r.g(), commits, []Task{judged})
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	if len(ms) != 0 {
		t.Fatalf("a rebased tree no judge saw matches %+v", ms)
	}
}

// The tree rule: the commit holds exactly the tree the task produced. One
// that also holds the uncommitted work the task started from matches but
// is refused. A task whose commits are gone is named, not guessed at.
func TestMatchTasksByTree(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.commit("a.txt", "a\n", "base")
	// The task's snapshot: HEAD plus uncommitted work; its head adds b.
	r.Git("checkout", "-q", "-b", "task")
	snap := r.commit("wip.txt", "wip\n", "snapshot")
	head := r.commit("b.txt", "b\n", "iteration 1")
	r.Git("checkout", "-q", "main")
	r.Git("checkout", "-q", "task", "--", "wip.txt", "b.txt")
	user := r.commit("x", "", "wip and the change, together")
	r.Git("rm", "-q", "x")
	r.Git("commit", "-q", "-m", "drop x")
	commits, err := r.g().Commits(ctx, "HEAD~2..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	tasks := []Task{{Verdict: verdict(), Snapshot: snap, Head: head},
		{Verdict: Verdict{TaskID: "gone"}, Snapshot: strings.Repeat("1", 40), Head: strings.Repeat("2", 40)}}
	ms, warns, err := MatchTasks(ctx, r.g(), commits, tasks)
	if err != nil {
		t.Fatal(err)
	}
	// user's commit also has x; the next commit removes it: its tree is
	// the task's.
	if len(ms) != 1 || ms[0].Rule != MatchTree || ms[0].Commit.ID == user {
		t.Fatalf("matches %+v", ms)
	}
	// But the uncommitted work was the task's base, which no judge
	// diffed: the match is refused (issue 30 item 4).
	if !strings.Contains(ms[0].Refused, "is neither") {
		t.Errorf("refused: %q", ms[0].Refused)
	}
	if rs, err := Receipts(ctx, r.g(), ms); err != nil || len(rs) != 0 {
		t.Errorf("receipts for a refused match: %v %v", rs, err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "task gone: its commits") {
		t.Errorf("warnings %q", warns)
	}
}

// A writer that read the notes before another wrote them does not
// overwrite that write: fast-import refuses to move the ref, the error
// says to run again, and the other receipt is still there.
func TestWriteNeverOverwritesARacingWriter(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.commit("a.txt", "a\n", "base")
	head := r.commit("b.txt", "b\n", "change")
	aliceKeys, aliceKey := keyDir(t)
	if _, err := ForCommit(ctx, r.g(), Options{Ref: DefaultRef, KeyDir: aliceKeys, Now: t0}, "HEAD", verdict()); err != nil {
		t.Fatal(err)
	}
	stale, err := r.g().Tip(ctx, DefaultRef)
	if err != nil || stale == "" {
		t.Fatal(stale, err)
	}
	bobKeys, bobKey := keyDir(t)
	if _, err := ForCommit(ctx, r.g(), Options{Ref: DefaultRef, KeyDir: bobKeys, Now: t0}, "HEAD", verdict()); err != nil {
		t.Fatal(err)
	}
	err = r.g().WriteNotes(ctx, DefaultRef, stale, []NoteWrite{{Commit: head, Note: []byte("tribunal: stale\n")}})
	if err == nil || !strings.Contains(err.Error(), "run the command again") {
		t.Fatalf("a stale write: %v", err)
	}
	res := r.verify("HEAD", allow(t, "x", aliceKey, bobKey))
	if res[0].Status != Valid || len(res[0].Findings) != 2 {
		t.Fatalf("both receipts should remain: %+v", res[0])
	}
	if res[0].Findings[0].Receipt.Kind != KindAdvisory || res[0].Findings[0].Receipt.Judged.Base == "" {
		t.Errorf("an advisory receipt names the parent as its base: %+v", res[0].Findings[0].Receipt)
	}
}

// A root commit's change is judged from the empty tree, which git names
// for the repository's hash; its receipt has no base commit.
func TestForCommitOnARootCommit(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.commit("a.txt", "a\n", "root")
	keys, key := keyDir(t)
	w, err := ForCommit(ctx, r.g(), Options{Ref: DefaultRef, KeyDir: keys, Now: t0}, "HEAD", verdict())
	if err != nil {
		t.Fatal(err)
	}
	if j := w.Receipt.Judged; j.Base != "" || j.BaseTree != "4b825dc642cb6eb9a060e54bf8d69288fbee4904" || len(j.DiffSHA256) != 64 {
		t.Errorf("judged %+v", j)
	}
	if res := r.verify("HEAD", allow(t, "me", key)); res[0].Status != Valid {
		t.Errorf("%+v", res[0])
	}
}
