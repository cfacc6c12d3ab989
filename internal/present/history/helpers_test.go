package history

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// id makes a valid ULID-shaped id from a number; ids compare in number
// order, as ULIDs of later moments do.
func id(prefix string, n int) string {
	return prefix + fmt.Sprintf("%0*d", 26-len(prefix), n)
}

// ulidAt makes a task id whose timestamp is t (the first 10 characters of a
// ULID are its millisecond time in Crockford base 32).
func ulidAt(t time.Time, n int) string {
	const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	ms := uint64(t.UnixMilli())
	var ts [10]byte
	for i := 9; i >= 0; i-- {
		ts[i] = alphabet[ms&31]
		ms >>= 5
	}
	return string(ts[:]) + fmt.Sprintf("%016d", n)
}

// iter describes one iteration's files; an empty string omits the file.
type iter struct {
	verdicts  []string // verdict objects without judge_id; ids are assigned
	noJury    bool
	consensus string
	dissent   string
	meta      string
	gate      string
	actor     string
}

const defaultRubric = `{"id":"default","criteria":[
 {"name":"correctness","weight":0.5,"min_pass":0.7},
 {"name":"safety","weight":0.5,"min_pass":0.8}]}`

func manifest(taskID, summary, params string) string {
	return fmt.Sprintf(`{"task_id":%q,"task_summary":%q,"rubric_id":"default","rubric":%s,"started_at":"2026-05-24T10:00:00Z","session_id":"sess-1",
 "effective":{"params":%s,"actor_model_id":"a","judge_model_ids":["j"],"meta_model_id":"m","worktree_root":"/r"}}`,
		taskID, summary, defaultRubric, params)
}

func params(policy string, threshold float64) string {
	return fmt.Sprintf(`{"score_threshold":%v,"max_iterations":3,"gate_policy":%q,"aggregation_method":"mean","judge_types":["standard","adversarial"],"dissent_threshold":0.25,"min_criterion_coverage":0.6}`, threshold, policy)
}

// writeTask writes a task directory with a manifest (unless manifestJSON
// is empty) and the given iterations; it returns the iteration ids.
func writeTask(t *testing.T, projectDir, taskID, manifestJSON, completeJSON string, its []iter) []string {
	t.Helper()
	dir := filepath.Join(projectDir, taskID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if manifestJSON != "" {
		testkit.WriteFile(t, filepath.Join(dir, "manifest.json"), manifestJSON)
	}
	if completeJSON != "" {
		testkit.WriteFile(t, filepath.Join(dir, "session-complete.json"), completeJSON)
	}
	var ids []string
	for i, it := range its {
		itID := id("01HZ1", 100*(i+1))
		ids = append(ids, itID)
		d := filepath.Join(dir, "iteration-"+itID)
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		var seats []string
		for j, v := range it.verdicts {
			jid := id("01HZ2", 100*(i+1)+j)
			seats = append(seats, fmt.Sprintf(`{"judge_id":%q,"judge_type":"t%d","subagent":"x","model":"m%d"}`, jid, j, j))
			if v != "" {
				testkit.WriteFile(t, filepath.Join(d, "verdicts", jid+".json"), v)
			}
		}
		if !it.noJury {
			testkit.WriteFile(t, filepath.Join(d, "jury.json"), "["+strings.Join(seats, ",")+"]")
		}
		for name, content := range map[string]string{
			"consensus.json": it.consensus, "dissent.json": it.dissent,
			"meta.json": it.meta, "gate.json": it.gate, "actor.md": it.actor,
		} {
			if content != "" {
				testkit.WriteFile(t, filepath.Join(d, name), content)
			}
		}
	}
	return ids
}

func stopFile(t *testing.T, projectDir, name, taskID, outcome string, score float64, writtenAt string) string {
	t.Helper()
	wa := ""
	if writtenAt != "" {
		wa = fmt.Sprintf(`,"written_at":%q`, writtenAt)
	}
	p := filepath.Join(projectDir, "stop-"+name+".json")
	testkit.WriteFile(t, p, fmt.Sprintf(`{"task_id":%q,"session_id":%q,"outcome":%q,"verdict":{"score":%v,"passed":%v,"judge_type":"standard","feedback_summary":"fb %s"},"mode":"stop-advisory","fingerprint":"f"%s,"cost_usd":0.01}`,
		taskID, name, outcome, score, outcome == "accepted", name, wa))
	return p
}

func problemText(ps []records.Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Error() + "\n")
	}
	return b.String()
}
