package records_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/trust"
)

var update = flag.Bool("update", false, "rewrite testdata/*.json from the records' current encoding")

const (
	taskID  = "01HZ0000000000000000000001"
	iterID  = "01HZ0000000000000000000002"
	judgeID = "01HZ0000000000000000000003"
)

func f64(v float64) *float64 { return &v }
func i(v int) *int           { return &v }
func b(v bool) *bool         { return &v }
func str(v string) *string   { return &v }

// populated returns one value of every record type with every field set,
// so that renaming a JSON key, dropping a field or changing omitempty shows
// up as a difference from testdata/<name>.
func populated() map[string]any {
	verdict := events.Verdict{
		TaskID: taskID, Score: 0.42, Passed: false, JudgeType: "standard",
		FeedbackSummary: "needs <tests> & docs", FilePath: "main.go", IterationID: iterID,
		JudgeID: judgeID, JudgeModelID: "claude-opus-4-7", CriteriaEvaluated: []string{"correctness"},
		CriterionScores: map[string]float64{"correctness": 0.4}, StrengthsCount: i(1),
		WeaknessesCount: i(2), Confidence: f64(0.7),
	}
	judge := records.JudgeInfo{Provider: "claude", Model: "claude-opus-4-7", Family: "anthropic"}
	checks := records.GateChecks{
		BlockedBy: rules.ByCommand,
		Trust: &trust.Result{Trustworthy: false, Reasons: []string{"spread"}, Notes: []string{"α not measured"},
			Alpha: 1, AlphaMeasured: true, Spread: map[string]float64{"correctness": 0.3},
			Survivors: map[string]int{"correctness": 2}},
		WorstSeverity: "high",
		Findings:      []severity.Finding{{Severity: "high", Message: "unchecked error", File: "main.go", Line: 7, Unverified: true, Criterion: "safety", Judge: "standard"}},
		Commands:      []records.Command{{Name: "tests", Required: true, Passed: false, Failed: true, Error: "exit 2", Feedback: "FAIL"}},
	}
	return map[string]any{
		"stop-file.json": records.StopFile{
			TaskID: taskID, SessionID: "a/b c", Outcome: records.OutcomeRejected, Verdict: verdict,
			Mode: records.Mode, Fingerprint: "abc123", WrittenAt: "2026-05-24T10:00:00Z",
			CostUSD: f64(0.0123), Judge: &judge,
		},
		"judgement.json": records.Judgement{
			TaskID: taskID, SessionID: "a/b c", Outcome: records.OutcomeRejected, Verdict: &verdict,
			Mode: records.Mode, Fingerprint: "abc123", WrittenAt: "2026-05-24T10:00:00Z",
			CostUSD: f64(0.0123), DurationMS: i(1500), Error: "judge timed out", Rewake: true, LeftOut: []string{".env"},
		},
		"project-manifest.json": records.ProjectManifest{
			ProjectKey: "0123456789ab", RemoteURL: str("git@example.invalid:x/y.git"), RepoRoot: str("/repo"),
			LastTaskAt: "2026-05-24T10:00:00Z", Source: "local",
		},
		"manifest.json": records.Manifest{
			TaskID: taskID, TaskSummary: "write a greeting", RubricID: "default",
			Rubric: json.RawMessage(`{"id":"default"}`), StartedAt: "2026-05-24T10:00:00Z",
			Effective: records.Effective{
				Params:     json.RawMessage(`{"gate_policy":"majority"}`),
				ActorModel: "claude-sonnet-4-6", JudgeModels: []string{"claude-opus-4-7"},
				MetaModel: "claude-opus-4-7", WorktreeRoot: "/repo", Families: []string{"anthropic"},
			},
			SessionID: "sess-1",
			Kind:      records.KindReview,
		},
		"review.json": records.Review{
			ReviewID: taskID, Change: "range", Base: "b0", Head: "h0", BaseTree: "bt", HeadKey: "ht",
			Outcome: "rejected", Reason: "the aggregate 0.35 is below the score threshold",
			Findings: []records.ReviewFinding{{Finding: severity.Finding{Severity: "major", Message: "m", File: "a.go", Line: 3,
				Criterion: "correctness", Judge: "standard", Unverified: true}, Fingerprint: "tf1:00"}},
			Dismissed: 1, Omitted: []string{"x.png: binary, not shown"}, DiffBytes: 48000,
		},
		"params.json": records.Params{
			ScoreThreshold: f64(0.75), MaxIterations: 3, GatePolicy: rules.Majority,
			AggregationMethod: rules.Mean, JudgeTypes: []json.RawMessage{json.RawMessage(`"standard"`)},
			DissentThreshold: f64(0.25), MinCriterionCoverage: f64(0.6), ActorModel: "a", MetaModel: "m",
			ActorMaxTokens: 1, JudgeMaxTokens: 2, MetaMaxTokens: 3, JudgeTimeout: 120, ActorTimeout: 600,
			MetaTimeout: 90, BudgetUSD: f64(5),
		},
		"session-start.json": events.SessionStart{
			TaskID: taskID, JudgeTypes: []string{"standard"}, GatePolicy: rules.Majority,
			ScoreThreshold: f64(0.75), MaxIterations: i(3), ActorModelID: "a",
			JudgeModelIDs: []string{"j"}, MetaModelID: "m",
		},
		"session-complete.json": records.Complete{
			SessionComplete: events.SessionComplete{TaskID: taskID, Outcome: "accepted", FinalScore: f64(0.9),
				IterationsUsed: i(2), TotalCostUSD: f64(0.5), TotalDurationMS: i(1234)},
			Error: "interrupted",
		},
		"jury.json": []records.Seat{
			{JudgeID: judgeID, JudgeType: "standard", Subagent: "tribunal-judge-standard", Model: str("claude-opus-4-7")},
			{JudgeID: iterID, JudgeType: "adversarial", Subagent: "tribunal-judge-adversarial"},
		},
		"consensus.json": events.ConsensusReached{
			TaskID: taskID, IterationID: iterID, AggregatedScore: 0.8, Passed: true,
			AggregationMethod: rules.Mean, Judges: []events.ConsensusJudge{{JudgeID: judgeID, Score: 0.8}},
		},
		"dissent.json": events.DissentRecorded{
			TaskID: taskID, IterationID: iterID, DisagreementScore: 0.5,
			Judges: []events.DissentJudge{{JudgeID: judgeID, Score: 0.3, Passed: false}},
		},
		"meta.json": records.Meta{
			MetaComplete: events.MetaComplete{TaskID: taskID, VerdictQuality: "questionable", BiasDetected: true,
				OverrideRecommendation: "retry", IterationID: iterID, BiasTypes: []string{"verbosity"},
				Confidence: f64(0.6), MetaModelID: "claude-opus-4-7"},
			Failed: true, Error: "meta timed out", Probes: []string{"length"}, Judge: judge,
		},
		"gate-passed.json": records.GatePassed{
			GatePassed: events.GatePassed{TaskID: taskID, IterationID: iterID, FinalScore: 0.9,
				IterationNumber: i(1), JudgesConsulted: i(3)},
			Passed: true, GateChecks: checks,
		},
		"gate-blocked.json": records.GateBlocked{
			GateBlocked: events.GateBlocked{TaskID: taskID, IterationID: iterID, Reason: rules.ReasonLowScore,
				FinalScore: f64(0.4), IterationNumber: i(0), WillRetry: b(true), RetryIterationNumber: i(1),
				FailedCriterion: "safety"},
			Passed: false, GateChecks: checks,
		},
		"isolation.json": records.Isolation{
			Mode: "worktree", Branch: "refs/tribunal/tasks/x", Worktree: "/wt", Snapshot: "0123abcd", Head: "4567ef01",
			State: "kept", Conflicts: []string{"a.go"},
			Files:      []records.FileChange{{Path: "b.go", OldPath: "a.go", Status: "renamed", Added: 1, Deleted: 2, Binary: true}},
			Submodules: []string{"vendor/x"}, Error: "apply failed", LeftOut: []string{".env"},
		},
		"call.json": records.Call{
			CallMeta: records.CallMeta{Role: "judge", Provider: "openai", Endpoint: "http://127.0.0.1:1/v1",
				JudgeID: judgeID, JudgeType: "standard", Rep: i(1), Attempt: 2},
			Model: "gpt-x", Argv: []string{"claude", "-p"}, EnvAdded: []string{"TRIBUNAL_NESTED=1"}, Dir: "/repo",
			Prompt: "judge this", RawOutput: `{"result":"ok"}`, Text: "ok",
			Structured: json.RawMessage(`{"score":0.8}`),
			Usage:      records.CallUsage{Tokens: i(100), NumTurns: 1, DurationMS: 2000, ExitCode: 1},
			CostUSD:    f64(0.01), Error: "exit 1", Stderr: "boom",
		},
	}
}

// TestGolden pins the on-disk form of every record: file names are
// asserted by the writers' and readers' testscripts, JSON keys here.
// Update with `go test ./internal/store/records -run TestGolden -update` and
// review the diff: a changed key breaks every record already on disk.
func TestGolden(t *testing.T) {
	for name, v := range populated() {
		got, err := store.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v (run with -update to create it)", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s changed:\ngot:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

// Every field of every record is set in populated(), so that omitempty
// cannot hide a field from the golden files.
func TestGoldenValuesAreFullyPopulated(t *testing.T) {
	for name, v := range populated() {
		data, _ := store.Marshal(v)
		var m any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if p := emptyPath(m, name); p != "" {
			t.Errorf("%s: %s is empty; set it so the golden file pins it", name, p)
		}
	}
}

func emptyPath(v any, path string) string {
	switch x := v.(type) {
	case nil:
		// Seat.Model is null by design for an unconfigured model: the
		// first seat carries a model.
		if strings.HasSuffix(path, "[1].model") {
			return ""
		}
		return path
	case map[string]any:
		for k, e := range x {
			if p := emptyPath(e, path+"."+k); p != "" {
				return p
			}
		}
	case []any:
		if len(x) == 0 {
			return path
		}
		for n, e := range x {
			if p := emptyPath(e, path+"["+string(rune('0'+n))+"]"); p != "" {
				return p
			}
		}
	case string:
		if x == "" {
			return path
		}
	}
	return ""
}

// Gate is the reader's form of both written forms of gate.json: decoding
// either and encoding the result again must keep every key and value.
func TestGateReadsBothWrittenForms(t *testing.T) {
	vals := populated()
	for _, name := range []string{"gate-passed.json", "gate-blocked.json"} {
		written, _ := store.Marshal(vals[name])
		var g records.Gate
		if err := json.Unmarshal(written, &g); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		again, _ := store.Marshal(g)
		var a, b map[string]any
		json.Unmarshal(written, &a)
		json.Unmarshal(again, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: Gate loses or changes fields:\nwritten %s\nread    %s", name, written, again)
		}
	}
	// And Gate has no key that neither written form has.
	keys := map[string]bool{}
	for _, name := range []string{"gate-passed.json", "gate-blocked.json"} {
		written, _ := store.Marshal(vals[name])
		var m map[string]any
		json.Unmarshal(written, &m)
		for k := range m {
			keys[k] = true
		}
	}
	for _, k := range jsonKeys(reflect.TypeOf(records.Gate{})) {
		if !keys[k] {
			t.Errorf("Gate has %q, which no written gate.json carries", k)
		}
	}
}

// jsonKeys lists a struct's JSON keys, embedded structs flattened.
func jsonKeys(t reflect.Type) []string {
	var out []string
	for n := 0; n < t.NumField(); n++ {
		f := t.Field(n)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonKeys(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// The checked decoders read back exactly what the writers' types encode.
func TestDecodeRoundTrip(t *testing.T) {
	vals := populated()
	data, _ := store.Marshal(vals["stop-file.json"])
	f, err := records.DecodeStopFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f, vals["stop-file.json"]) {
		t.Errorf("stop file:\ngot  %+v\nwant %+v", f, vals["stop-file.json"])
	}
	data, _ = store.Marshal(vals["judgement.json"])
	j, err := records.DecodeJudgement(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(j, vals["judgement.json"]) {
		t.Errorf("judgement:\ngot  %+v\nwant %+v", j, vals["judgement.json"])
	}
}
