//go:build linux

package stress

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/testkit/schemacheck"
)

// logLine is what the checks need from one event.
type logLine struct {
	seq       int64
	sessionID string
	eventType string
	taskID    string
}

// readLog validates every line against the schemas (which also refuses a
// final line without its newline: a torn append) and decodes them.
func readLog(t *testing.T, path string) []logLine {
	t.Helper()
	n, err := schemacheck.ValidateLog(path)
	if err != nil {
		t.Fatalf("event log invalid after %d good lines: %v", n, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []logLine
	for _, l := range lines(string(data)) {
		r := gjson.Parse(l)
		out = append(out, logLine{
			seq:       r.Get("sequence").Int(),
			sessionID: r.Get("session_id").String(),
			eventType: r.Get("event_type").String(),
			taskID:    r.Get("payload.task_id").String(),
		})
	}
	if len(out) != n {
		t.Fatalf("decoded %d lines, validated %d", len(out), n)
	}
	return out
}

// checkSequences asserts that sequence numbers are unique and rise in line
// order (spec §10: among Go writers sequence order is line order) and returns
// how many numbers are missing between the first and the last; contiguous
// demands none.
func checkSequences(t *testing.T, log []logLine, contiguous bool) (gaps int64) {
	t.Helper()
	for i := 1; i < len(log); i++ {
		if log[i].seq <= log[i-1].seq {
			t.Fatalf("line %d has sequence %d after %d: duplicate or out of order", i+1, log[i].seq, log[i-1].seq)
		}
	}
	if len(log) == 0 {
		return 0
	}
	gaps = log[len(log)-1].seq - log[0].seq + 1 - int64(len(log))
	if contiguous && (gaps != 0 || log[0].seq != 0) {
		t.Fatalf("sequences run from %d to %d over %d lines: not contiguous from 0", log[0].seq, log[len(log)-1].seq, len(log))
	}
	return gaps
}

// chains groups the log by task id.
func chains(log []logLine) map[string][]string {
	out := map[string][]string{}
	for _, l := range log {
		out[l.taskID] = append(out[l.taskID], strings.TrimPrefix(l.eventType, "tribunal."))
	}
	return out
}

var stopChain = []string{"session.start", "iteration.start", "judge.start", "verdict", "gate.passed", "session.complete"}

// tree is what scanTree found under the Onlooker directory.
type tree struct {
	json  int      // JSON files, each of which parsed
	temps []string // temporary files left by interrupted atomic writes
}

// tempName matches the temporary files of store.WriteFileAtomic
// (.<name>.tmp-<random>), of the sequence counter (.event-sequence.tmp) and
// of the machine id (.machine_id-<random>.tmp).
var tempName = regexp.MustCompile(`^\.(.+\.tmp-[0-9]+|.+-[0-9]+\.tmp|event-sequence\.tmp)$`)

// scanTree checks every file under dir: JSON files parse whole, machine_id
// holds a UUID, the counter an integer, and the only hidden files are the
// lock and temporaries. Any partial file fails the test.
func scanTree(t *testing.T, dir string) tree {
	t.Helper()
	var tr tree
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "pool" && filepath.Base(filepath.Dir(path)) == "worktrees" {
			// The warm task worktrees hold the repository's own files, not
			// the store's; the next task proves a member clean or rebuilds it.
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		switch {
		case tempName.MatchString(name):
			tr.temps = append(tr.temps, path)
		case name == ".event-sequence.lock":
		case strings.HasPrefix(name, "."):
			t.Errorf("unexpected hidden file %s", path)
		case strings.HasSuffix(name, ".json"):
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if !json.Valid(data) {
				t.Errorf("%s is not whole JSON (%d bytes): %.80q", path, len(data), data)
			}
			tr.json++
		case name == "machine_id":
			data, _ := os.ReadFile(path)
			if !regexp.MustCompile(`^[0-9a-f-]{36}\n$`).Match(data) {
				t.Errorf("machine_id holds %q", data)
			}
		case name == "event-sequence":
			data, _ := os.ReadFile(path)
			if _, err := strconv.ParseInt(string(data), 10, 64); err != nil {
				t.Errorf("event-sequence holds %q", data)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// checkStopFile asserts that a stop file is complete and belongs to sid.
func checkStopFile(t *testing.T, path, sid string) gjson.Result {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(data) {
		t.Fatalf("%s is not JSON: %q", path, data)
	}
	doc := gjson.ParseBytes(data)
	for _, k := range []string{"task_id", "session_id", "outcome", "verdict.score", "verdict.passed", "verdict.task_id", "mode", "fingerprint", "written_at"} {
		if !doc.Get(k).Exists() {
			t.Fatalf("%s lacks %s: %s", path, k, data)
		}
	}
	if got := doc.Get("session_id").String(); got != sid {
		t.Fatalf("%s: session_id %q, want %q", path, got, sid)
	}
	if doc.Get("verdict.task_id").String() != doc.Get("task_id").String() {
		t.Fatalf("%s: verdict of another task", path)
	}
	return doc
}

// snapshot records the content of every regular file under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "pool" && filepath.Base(filepath.Dir(path)) == "worktrees" {
			// The warm task worktrees hold the repository's own files, not
			// the store's; the next task proves a member clean or rebuilds it.
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out[path] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// unchanged asserts that every file of before still exists with the same
// content; an append-only log (.jsonl: the events log, a ledger) may have
// grown but must still start with everything it held. State that exists to
// change is not a record: a session lock's holder description (rewritten by
// every judge) and a verdict waiting for its session's next prompt.
func unchanged(t *testing.T, before map[string]string, dir string) {
	t.Helper()
	after := snapshot(t, dir)
	for path, old := range before {
		now, ok := after[path]
		switch {
		case filepath.Base(filepath.Dir(path)) == "judges" && strings.HasSuffix(path, ".lock"),
			filepath.Base(filepath.Dir(path)) == "tribunal-pending":
			continue
		case !ok:
			t.Errorf("%s was lost", path)
		case strings.HasSuffix(path, ".jsonl"):
			if !strings.HasPrefix(now, old) {
				t.Errorf("%s lost or changed recorded lines (%d bytes before, %d after)", path, len(old), len(now))
			}
		case now != old:
			t.Errorf("%s was changed (%d bytes before, %d after)", path, len(old), len(now))
		}
	}
}

// verifyLedgers runs `tribunal-session verify` on every project ledger and
// returns how many entries they hold: a crash or a full disk must never
// leave a chain that fails verification.
func (w *world) verifyLedgers() (ledgers, entries int) {
	w.t.Helper()
	paths, _ := filepath.Glob(filepath.Join(w.onlooker, "tribunal", "*", "ledger.jsonl"))
	for _, path := range paths {
		p := w.run(spec{
			args: []string{filepath.Join(w.bin, "tribunal-session"), "verify", "--ledger", path},
			dir:  w.root,
			env:  w.env(),
		})
		if p.code != 0 {
			w.t.Errorf("verify %s: exit %d\n%s%s", path, p.code, p.stdout, p.stderr)
			continue
		}
		var n int
		if _, err := fmt.Sscanf(p.stdout, "ledger OK: %d entries", &n); err != nil {
			w.t.Errorf("verify %s: unexpected report %q", path, p.stdout)
		}
		ledgers++
		entries += n
	}
	return ledgers, entries
}

func validateLog(path string) (int, error) { return schemacheck.ValidateLog(path) }
