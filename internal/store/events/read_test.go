package events

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/rules"
)

// TestReadLogRoundTrip: every payload type written by Emit reads back as
// the same typed value, with its envelope; a payload the schema refuses
// and a line that is not an envelope are told apart.
func TestReadLogRoundTrip(t *testing.T) {
	dir := t.TempDir()
	em := &Emitter{Dir: dir, LogPath: filepath.Join(dir, "log.jsonl"), SessionID: "s"}
	const task, it, j = "01JQ3000000000000000000000", "01JQ3000000000000000000001", "01JQ3000000000000000000002"
	all := []Payload{
		SessionStart{TaskID: task, GatePolicy: rules.Majority}, IterationStart{TaskID: task, IterationID: it, Trigger: "initial"},
		ActorStart{TaskID: task, IterationID: it}, ActorComplete{TaskID: task, Success: true},
		JuryEmpaneled{TaskID: task, IterationID: it, Judges: []JuryMember{}}, JudgeStart{TaskID: task, IterationID: it, JudgeID: j, JudgeType: "standard"},
		Verdict{TaskID: task, Score: 0.5, JudgeType: "standard"},
		ConsensusReached{TaskID: task, IterationID: it, AggregationMethod: rules.WeightedMean, Judges: []ConsensusJudge{}},
		DissentRecorded{TaskID: task, IterationID: it, Judges: []DissentJudge{}}, MetaStart{TaskID: task, IterationID: it},
		MetaComplete{TaskID: task, VerdictQuality: "sound"}, GatePassed{TaskID: task, IterationID: it, FinalScore: 1},
		GateBlocked{TaskID: task, IterationID: it, Reason: rules.ReasonLowScore}, SessionComplete{TaskID: task, Outcome: "accepted"},
	}
	for _, p := range all {
		if err := em.Emit(p, WithCost(0.5)); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(em.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, skipped, err := ReadLog(f, nil)
	if err != nil || skipped != 0 || len(recs) != len(all) {
		t.Fatalf("ReadLog: %d records, %d skipped, %v", len(recs), skipped, err)
	}
	for i, r := range recs {
		p, err := r.Decode()
		if err != nil || !reflect.DeepEqual(p, all[i]) || r.TaskID != task || r.SessionID != "s" || *r.CostUSD != 0.5 || r.Sequence != recs[0].Sequence+int64(i) {
			t.Errorf("record %d: %+v → %#v, %v; want %#v", i, r, p, err, all[i])
		}
	}
	bad := recs[6]
	bad.Payload = []byte(`{"task_id":"` + task + `","score":2,"passed":true,"judge_type":"standard"}`)
	if _, err := bad.Decode(); err == nil || !strings.Contains(err.Error(), "score") {
		t.Errorf("an out-of-range score decoded: %v", err)
	}
	bad.EventType = "tribunal.unknown"
	if _, err := bad.Decode(); err == nil || !strings.Contains(err.Error(), "unknown event type") {
		t.Errorf("an unknown type decoded: %v", err)
	}
}
