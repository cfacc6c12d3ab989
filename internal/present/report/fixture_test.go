package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// The fixture is a three-iteration task shaped like what the loop writes:
// iteration 1 blocked by dissent with a low safety score, iteration 2
// blocked on the safety floor, iteration 3 accepted; two judges, a
// meta-judge, trust over reps, findings, and a ledger entry per gate.
var (
	fixtureTask  = "01JAAAAAAAAAAAAAAAAAAAAAAA"
	fixtureIters = []string{"01JAAAAAAAAAAAAAAAAAAAAAB1", "01JAAAAAAAAAAAAAAAAAAAAAB2", "01JAAAAAAAAAAAAAAAAAAAAAB3"}
	fixtureNow   = time.Date(2026, 5, 24, 10, 0, 0, 0, time.UTC)
)

type fixtureJudge struct {
	id, typ  string
	score    float64
	passed   bool
	criteria map[string]float64
	feedback string
	findings string // JSON array or ""
}

type fixtureIter struct {
	judges    []fixtureJudge
	aggregate float64
	dissent   *float64
	meta      string
	gate      string
	actor     string
}

func fixtureIterations() []fixtureIter {
	half := 0.5
	return []fixtureIter{{
		judges: []fixtureJudge{
			{id: "01JBJ0000000000000000000S1", typ: "standard", score: 0.9, passed: true,
				criteria: map[string]float64{"correctness": 0.9, "completeness": 0.9, "safety": 0.3, "clarity": 0.9},
				feedback: "Good start."},
			{id: "01JBJ0000000000000000000A1", typ: "adversarial", score: 0.4, passed: false,
				criteria: map[string]float64{"correctness": 0.5, "completeness": 0.6, "safety": 0.2, "clarity": 0.7},
				feedback: "Empty input crashes the parser at main.go:12.",
				findings: `[{"severity":"major","message":"nil dereference on empty input","file":"main.go","line":12}]`},
		},
		aggregate: 0.78, dissent: &half,
		meta:  `{"verdict_quality":"questionable","bias_detected":true,"bias_types":["verbosity"],"override_recommendation":"re-evaluate","confidence":0.7,"bias_probes":["position: the longer answer scored higher"]}`,
		gate:  `{"passed":false,"reason":"dissent_unresolved","failed_criterion":"safety","final_score":0.78,"will_retry":true,"worst_severity":"major","findings":[{"severity":"major","message":"nil dereference on empty input","file":"main.go","line":12}],"trust":{"trustworthy":true,"alpha":0.81,"alpha_measured":true,"spread":{"correctness":0.1,"safety":0.05},"survivors":{"correctness":3,"safety":3}}}`,
		actor: "Wrote greeting.\ndiff --git a/main.go b/main.go\n@@ -1,2 +1,3 @@\n package main\n+func greet() {}\n-// old",
	}, {
		judges: []fixtureJudge{
			{id: "01JBJ0000000000000000000S2", typ: "standard", score: 0.9, passed: true,
				criteria: map[string]float64{"correctness": 0.9, "completeness": 0.9, "safety": 0.3, "clarity": 0.9}, feedback: "Still unsafe."},
			{id: "01JBJ0000000000000000000A2", typ: "adversarial", score: 0.78, passed: true,
				criteria: map[string]float64{"correctness": 0.85, "completeness": 0.8, "safety": 0.75, "clarity": 0.8}, feedback: "Better."},
		},
		aggregate: 0.84,
		meta:      `{"verdict_quality":"sound","bias_detected":false}`,
		gate:      `{"passed":false,"reason":"criterion_floor","failed_criterion":"safety","final_score":0.84,"will_retry":true}`,
		actor:     "Guarded the empty input.",
	}, {
		judges: []fixtureJudge{
			{id: "01JBJ0000000000000000000S3", typ: "standard", score: 0.9, passed: true,
				criteria: map[string]float64{"correctness": 0.9, "completeness": 0.9, "safety": 0.9, "clarity": 0.9}, feedback: "Safe now."},
			{id: "01JBJ0000000000000000000A3", typ: "adversarial", score: 0.86, passed: true,
				criteria: map[string]float64{"correctness": 0.9, "completeness": 0.85, "safety": 0.95, "clarity": 0.9}, feedback: "Fixed."},
		},
		aggregate: 0.9000000000000002,
		meta:      `{"verdict_quality":"sound","bias_detected":false}`,
		gate:      `{"passed":true,"final_score":0.9000000000000002,"will_retry":false}`,
		actor:     "Added a test for the empty input.",
	}}
}

const fixtureRubric = `{"id":"default","criteria":[
 {"name":"correctness","weight":0.4,"min_pass":0.7},
 {"name":"completeness","weight":0.2,"min_pass":0.6},
 {"name":"safety","weight":0.2,"min_pass":0.8},
 {"name":"clarity","weight":0.2,"min_pass":0.5}]}`

// writeFixture writes the task into a new project directory and returns
// it. summary is the task summary (tests put hostile text there).
func writeFixture(t *testing.T, summary string, its []fixtureIter) string {
	t.Helper()
	project := t.TempDir()
	dir := filepath.Join(project, fixtureTask)
	manifest := map[string]any{
		"task_id": fixtureTask, "task_summary": summary, "rubric_id": "default",
		"rubric": json.RawMessage(fixtureRubric), "started_at": "2026-05-24T09:00:00Z", "session_id": "sess-1",
		"effective": map[string]any{
			"params": map[string]any{"score_threshold": 0.75, "max_iterations": 3, "gate_policy": "majority",
				"aggregation_method": "weighted_mean", "dissent_threshold": 0.25, "min_criterion_coverage": 0.6},
			"actor_model_id": "claude-sonnet-4-6", "judge_model_ids": []string{"claude-opus-4-7"}, "meta_model_id": "claude-opus-4-7",
		},
	}
	mj, _ := json.Marshal(manifest)
	testkit.WriteFile(t, filepath.Join(dir, "manifest.json"), string(mj))
	testkit.WriteFile(t, filepath.Join(dir, "session-complete.json"),
		fmt.Sprintf(`{"task_id":%q,"outcome":"accepted","final_score":0.9000000000000002,"iterations_used":%d,"total_cost_usd":1.2,"total_duration_ms":95400}`, fixtureTask, len(its)))
	keys := filepath.Join(t.TempDir(), "keys")
	for i, it := range its {
		d := filepath.Join(dir, "iteration-"+fixtureIters[i])
		var seats []string
		for _, j := range it.judges {
			seats = append(seats, fmt.Sprintf(`{"judge_id":%q,"judge_type":%q,"model":"claude-opus-4-7"}`, j.id, j.typ))
			cs, _ := json.Marshal(j.criteria)
			findings := ""
			if j.findings != "" {
				findings = `,"findings":` + j.findings
			}
			testkit.WriteFile(t, filepath.Join(d, "verdicts", j.id+".json"), fmt.Sprintf(
				`{"judge_id":%q,"judge_type":%q,"judge_model_id":"claude-opus-4-7","task_id":%q,"iteration_id":%q,"score":%v,"passed":%v,"criterion_scores":%s,"feedback_summary":%q,"confidence":0.8%s}`,
				j.id, j.typ, fixtureTask, fixtureIters[i], j.score, j.passed, cs, j.feedback, findings))
		}
		testkit.WriteFile(t, filepath.Join(d, "jury.json"), "["+strings.Join(seats, ",")+"]")
		testkit.WriteFile(t, filepath.Join(d, "consensus.json"), fmt.Sprintf(`{"task_id":%q,"aggregated_score":%v,"passed":%v,"aggregation_method":"weighted_mean"}`,
			fixtureTask, it.aggregate, it.aggregate >= 0.75))
		if it.dissent != nil {
			testkit.WriteFile(t, filepath.Join(d, "dissent.json"), fmt.Sprintf(`{"disagreement_score":%v}`, *it.dissent))
		}
		testkit.WriteFile(t, filepath.Join(d, "meta.json"), it.meta)
		testkit.WriteFile(t, filepath.Join(d, "gate.json"), it.gate)
		testkit.WriteFile(t, filepath.Join(d, "actor.md"), it.actor)
		var g struct {
			Passed bool   `json:"passed"`
			Reason string `json:"reason"`
		}
		json.Unmarshal([]byte(it.gate), &g)
		rec := map[string]any{"iteration_number": i, "passed": g.Passed, "reason": g.Reason, "aggregated_score": it.aggregate}
		if _, err := ledger.Append(ledger.PathFor(project), keys, ledger.KindGate,
			ledger.Fields{TaskID: fixtureTask, IterationID: fixtureIters[i], SessionID: "sess-1"}, rec, fixtureNow.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	return project
}

// renderFixture renders the fixture task's page into a file and returns
// its path.
func renderFixture(t *testing.T, project string) (string, *history.TaskView) {
	t.Helper()
	v := history.ShowTask(project, "", fixtureTask)
	audit, err := ledger.ReadAudit(ledger.PathFor(project))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), fixtureTask+".html")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := Task(f, TaskInput{View: v, Ledger: &audit, Now: fixtureNow}); err != nil {
		t.Fatal(err)
	}
	return out, v
}

// TestWriteSample writes the fixture's page where REPORT_SAMPLE says, and
// an index of it beside (<REPORT_SAMPLE>.index.html), for a person to look
// at; it does nothing otherwise.
func TestWriteSample(t *testing.T) {
	dst := os.Getenv("REPORT_SAMPLE")
	if dst == "" {
		t.Skip("REPORT_SAMPLE is not set")
	}
	path, _ := renderFixture(t, writeFixture(t, "Add a greeting <b>with</b> a test", fixtureIterations()))
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	proj := writeFixture(t, "Add a greeting with a test", fixtureIterations())
	testkit.WriteFile(t, filepath.Join(proj, "01JAAAAAAAAAAAAAAAAAAAAAZZ", "manifest.json"), `{"task_id":"01JAAAAAAAAAAAAAAAAAAAAAZZ","task_summary":"still going"}`)
	for i, o := range []string{"accepted", "rejected", "rejected", "accepted"} {
		testkit.WriteFile(t, filepath.Join(proj, fmt.Sprintf("stop-sess-%d.json", i)), fmt.Sprintf(`{"task_id":"01JAAAAAAAAAAAAAAAAAAAAAY%d","session_id":"sess-%d","outcome":%q,"verdict":{"score":0.%d5,"passed":%v,"judge_type":"standard","feedback_summary":"advisory feedback number %d"},"mode":"stop-advisory","fingerprint":"f","written_at":"2024-10-1%dT09:30:00Z"}`,
			i, i, o, 4+i, o == "accepted", i, 6+i))
	}
	f, err := os.Create(dst + ".index.html")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := Index(f, IndexInput{Project: proj, Log: history.Log(proj, "", history.LogOptions{}), Now: fixtureNow,
		Href: func(e history.Entry) string { return e.TaskID + ".html" }}); err != nil {
		t.Fatal(err)
	}
}
