package retention_test

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/retention"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

var now = time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)

// store is a project directory with task directories made days ago.
type store struct {
	t                 testing.TB
	onlooker, project string
}

func newStore(t testing.TB) store {
	dir := t.TempDir()
	s := store{t: t, onlooker: dir, project: filepath.Join(dir, "tribunal", "0123456789ab")}
	if err := os.MkdirAll(s.project, 0o700); err != nil {
		t.Fatal(err)
	}
	return s
}

// task writes a task (or, with kind "review", a review) made days ago and
// returns its id.
func (s store) task(days int, kind string) string {
	id, err := events.NewULID(rand.Reader, now.Add(-time.Duration(days)*24*time.Hour))
	if err != nil {
		s.t.Fatal(err)
	}
	manifest := `{"task_id":"` + id + `"}`
	if kind != "" {
		manifest = `{"task_id":"` + id + `","kind":"` + kind + `"}`
	}
	testkit.WriteFile(s.t, filepath.Join(s.project, id, "manifest.json"), manifest)
	testkit.WriteFile(s.t, filepath.Join(s.project, id, "iteration-01", "calls", "01-actor.json"), strings.Repeat("x", 1000))
	return id
}

func (s store) opts(days int, keep ...string) retention.Options {
	return retention.Options{ProjectDir: s.project, OnlookerDir: s.onlooker, Cutoff: now.Add(-time.Duration(days) * 24 * time.Hour),
		OlderThan: "90d", Keep: func(id string) bool { return strings.Contains(strings.Join(keep, " "), id) }}
}

func ids(plan retention.Plan) []string {
	var out []string
	for _, r := range plan.Prune {
		out = append(out, r.Kind+" "+r.ID)
	}
	return out
}

// TestScanTakesOnlyOldRecords: the cutoff splits by a record's ULID time;
// kept tasks are listed apart; a review is named as one; the detached
// run's directory and the view page count with their task.
func TestScanTakesOnlyOldRecords(t *testing.T) {
	s := newStore(t)
	old, review, kept, fresh := s.task(120, ""), s.task(100, retention.KindReview), s.task(200, ""), s.task(10, "")
	testkit.WriteFile(t, filepath.Join(s.project, "runs", old, "output.txt"), "12345")
	testkit.WriteFile(t, filepath.Join(s.project, "view", old+".html"), "<p>")
	testkit.WriteFile(t, filepath.Join(s.project, "not-a-ulid", "x"), "kept")

	plan, err := retention.Scan(s.opts(90, kept))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(ids(plan), ", ")
	if want := "task " + old + ", review " + review; got != want {
		t.Fatalf("plan = %s, want %s", got, want)
	}
	if len(plan.Kept) != 1 || plan.Kept[0] != kept {
		t.Errorf("kept = %v, want [%s]", plan.Kept, kept)
	}
	if r := plan.Prune[0]; r.Files != 4 || r.Bytes != int64(len(`{"task_id":"`+old+`"}`))+1000+5+3 {
		t.Errorf("old task: %d files, %d bytes", r.Files, r.Bytes)
	}
	if strings.Contains(got, fresh) {
		t.Errorf("a 10-day-old task is in a 90-day plan: %s", got)
	}
}

// TestDigestIsOfTheRecordsFiles: the same files give the same digest, and
// one changed byte another.
func TestDigestIsOfTheRecordsFiles(t *testing.T) {
	s := newStore(t)
	id := s.task(100, "")
	digest := func() string {
		plan, err := retention.Scan(s.opts(90))
		if err != nil || len(plan.Prune) != 1 {
			t.Fatalf("plan %v, %v", plan, err)
		}
		if !strings.HasPrefix(plan.Prune[0].Digest, "sha256:") || len(plan.Prune[0].Digest) != 7+64 {
			t.Fatalf("digest %q", plan.Prune[0].Digest)
		}
		return plan.Prune[0].Digest
	}
	first := digest()
	if again := digest(); again != first {
		t.Errorf("digest changed between two scans: %s, %s", first, again)
	}
	testkit.WriteFile(t, filepath.Join(s.project, id, "manifest.json"), `{"task_id":"`+id+`","x":1}`)
	if changed := digest(); changed == first {
		t.Error("a changed file left the digest as it was")
	}
}

// TestPruneAppendsThenRemoves: each pruned record gets a prune entry, the
// ledger's earlier lines stay byte for byte and it verifies; the record's
// files are gone, the new one's and the kept one's are not; Find names a
// pruned id, whole or by part, and nothing else.
func TestPruneAppendsThenRemoves(t *testing.T) {
	s := newStore(t)
	old, kept, fresh := s.task(120, ""), s.task(200, ""), s.task(10, "")
	path, keys := ledger.PathFor(s.project), ledger.KeyDir(s.onlooker)
	if _, err := ledger.Append(path, keys, ledger.KindGate, ledger.Fields{TaskID: old}, map[string]any{"passed": true}, now); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	opts := s.opts(90, kept)
	plan, err := retention.Scan(opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := retention.Prune(plan, opts, now)
	if err != nil || len(res.Pruned) != 1 {
		t.Fatalf("pruned %v, %v", res.Pruned, err)
	}
	after, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(after), string(before)) {
		t.Error("the ledger's earlier lines changed")
	}
	if rep, err := ledger.Verify(path); err != nil || rep.Entries != 2 {
		t.Errorf("verify after the prune: %+v, %v", rep, err)
	}
	if _, err := os.Stat(filepath.Join(s.project, old)); !os.IsNotExist(err) {
		t.Errorf("the pruned task's directory is still there: %v", err)
	}
	for _, id := range []string{kept, fresh} {
		if _, err := os.Stat(filepath.Join(s.project, id, "manifest.json")); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
	for _, typed := range []string{old, strings.ToLower(old), old[len(old)-6:]} {
		p, ok := retention.Find(s.project, typed)
		if !ok || p.ID != old || p.Entry.By != "gc" || p.Entry.Digest != plan.Prune[0].Digest {
			t.Errorf("Find(%q) = %+v, %v", typed, p, ok)
		}
	}
	for _, typed := range []string{fresh, "last", old[:2]} {
		if p, ok := retention.Find(s.project, typed); ok {
			t.Errorf("Find(%q) found %+v", typed, p)
		}
	}
}

// TestPruneStopsWithoutItsEntry: a ledger that no longer matches its head
// refuses the append, and then nothing of the record goes.
func TestPruneStopsWithoutItsEntry(t *testing.T) {
	s := newStore(t)
	old := s.task(120, "")
	path, keys := ledger.PathFor(s.project), ledger.KeyDir(s.onlooker)
	if _, err := ledger.Append(path, keys, ledger.KindGate, ledger.Fields{TaskID: old}, map[string]any{"passed": true}, now); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(ledger.HeadPath(path)); err != nil {
		t.Fatal(err)
	}
	opts := s.opts(90)
	plan, err := retention.Scan(opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := retention.Prune(plan, opts, now); err == nil {
		t.Fatal("a prune with a ledger that cannot be appended to succeeded")
	}
	if _, err := os.Stat(filepath.Join(s.project, old, "manifest.json")); err != nil {
		t.Errorf("the record went without its ledger entry: %v", err)
	}
}

// TestMeasureCountsTheStore: config's figures.
func TestMeasureCountsTheStore(t *testing.T) {
	s := newStore(t)
	s.task(1, "")
	s.task(400, retention.KindReview)
	s.task(2, retention.KindAnswer) // judge's: an answer, not a task
	u, err := retention.Measure(s.project, now)
	if err != nil {
		t.Fatal(err)
	}
	if u.Tasks != 1 || u.Reviews != 1 || u.Answers != 1 || u.Advisories != 0 || u.RecordBytes < 3000 || u.LedgerBytes != 0 {
		t.Errorf("usage = %+v", u)
	}
}
