package records

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// pendingWorld is an Onlooker directory with one project holding n stop
// files, each with a pending entry pointing at it.
func pendingWorld(tb testing.TB, n int, now time.Time) (onlooker, project string) {
	tb.Helper()
	onlooker = tb.TempDir()
	project = filepath.Join(onlooker, "tribunal", "0123456789ab")
	for i := range n {
		sid := fmt.Sprintf("s%d", i)
		task := fmt.Sprintf("01M8YSP07PRWPZ3VPMXTFW%04d", i)
		stop := filepath.Join(project, "stop-"+sid+".json")
		testkit.WriteFile(tb, stop, fmt.Sprintf(`{"task_id":%q,"session_id":%q,"outcome":"rejected","verdict":{"score":0.4,"passed":false},"mode":"stop-advisory","written_at":%q}`,
			task, sid, now.UTC().Format(time.RFC3339)))
		testkit.WriteFile(tb, PendingPath(onlooker, sid), fmt.Sprintf(`{"project_dir":%q,"stop_file":%q,"task_id":%q}`, project, stop, task))
	}
	return onlooker, project
}

// TestPrunePending: what can never be shown goes (expired, shown,
// replaced, its verdict deleted, a stale claim); what a prompt may still
// show stays, and so does what its session's prompt should report.
func TestPrunePending(t *testing.T) {
	now := time.Now()
	onlooker, project := pendingWorld(t, 5, now)
	// s0 stays. s1 expired. s2 shown by a session start. s3 replaced by a
	// later verdict. s4's stop file deleted.
	old := now.Add(-PendingExpiry - time.Minute)
	os.Chtimes(PendingPath(onlooker, "s1"), old, old)
	testkit.WriteFile(t, filepath.Join(project, MarkerDir, "stop-s2.01M8YSP07PRWPZ3VPMXTFW0002"), `{}`)
	testkit.WriteFile(t, filepath.Join(project, "stop-s3.json"), `{"task_id":"01M8YSP07PRWPZ3VPMXTFW9999","session_id":"s3","outcome":"rejected","verdict":{"score":0.4},"mode":"stop-advisory"}`)
	os.Remove(filepath.Join(project, "stop-s4.json"))
	bad := PendingPath(onlooker, "bad")
	testkit.WriteFile(t, bad, `{"project_dir":"/etc"}`)
	stale, fresh := PendingPath(onlooker, "s7")+".42.shown", PendingPath(onlooker, "s8")+".43.shown"
	testkit.WriteFile(t, stale, `{}`)
	testkit.WriteFile(t, fresh, `{}`)
	hour := now.Add(-2 * time.Hour)
	os.Chtimes(stale, hour, hour)

	if n := PrunePending(onlooker, now); n != 5 {
		t.Errorf("pruned %d entries, want 5", n)
	}
	for path, want := range map[string]bool{
		PendingPath(onlooker, "s0"): true, PendingPath(onlooker, "s1"): false, PendingPath(onlooker, "s2"): false,
		PendingPath(onlooker, "s3"): false, PendingPath(onlooker, "s4"): false, bad: true, stale: false, fresh: true,
	} {
		if _, err := os.Stat(path); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(path), err == nil, want)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(onlooker, PendingDirName))
	if len(entries) != 3 {
		t.Errorf("%d entries left, want 3 (no .prune leftovers)", len(entries))
	}
}

// BenchmarkPrunePending: the cost WritePending adds to the judge that
// writes an entry, with 100 live entries (the worst case: each is read,
// its stop file read and its marker looked up, and each stays).
func BenchmarkPrunePending(b *testing.B) {
	now := time.Now()
	onlooker, _ := pendingWorld(b, 100, now)
	for b.Loop() {
		if n := PrunePending(onlooker, now); n != 0 {
			b.Fatalf("pruned %d", n)
		}
	}
}
