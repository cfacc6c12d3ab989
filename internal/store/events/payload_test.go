package events

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit/schemacheck"
)

// defSchema is the part of one $defs entry the shape tests need.
type defSchema struct {
	Required   []string        `json:"required"`
	Properties json.RawMessage `json:"properties"`
}

// payloadDefs reads the embedded payload schema so that field order and the
// required set are checked against the schema itself, not a transcription.
func payloadDefs(t *testing.T) map[string]defSchema {
	t.Helper()
	raw, err := os.ReadFile("../../testkit/schemacheck/testdata/tribunal-payloads.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs map[string]defSchema `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Defs
}

// fullPayloads sets every field each struct has.
func fullPayloads() []Payload {
	return []Payload{
		SessionStart{TaskID: testTaskID, JudgeTypes: []string{"standard", "security", "standard"}, GatePolicy: "majority",
			ScoreThreshold: Ptr(0.8), MaxIterations: Ptr(3), ActorModelID: "claude-sonnet-4-6",
			JudgeModelIDs: []string{"claude-sonnet-4-6", "claude-opus-4-7", "claude-sonnet-4-6"}, MetaModelID: "claude-opus-4-7"},
		SessionComplete{TaskID: testTaskID, Outcome: "exhausted_iterations", FinalScore: Ptr(0.55), IterationsUsed: Ptr(3),
			TotalCostUSD: Ptr(1.25), TotalDurationMS: Ptr(123456)},
		IterationStart{TaskID: testTaskID, IterationID: testIterID, IterationNumber: 2, Trigger: "gate_blocked"},
		ActorStart{TaskID: testTaskID, IterationID: testIterID, IterationNumber: Ptr(2), ActorModelID: "claude-sonnet-4-6"},
		ActorComplete{TaskID: testTaskID, Success: true, DurationMS: Ptr(9000), SkepticismRounds: Ptr(1), IterationID: testIterID,
			IterationNumber: Ptr(2), ArtifactKind: "patch", ActorModelID: "claude-sonnet-4-6"},
		JuryEmpaneled{TaskID: testTaskID, IterationID: testIterID, Judges: []JuryMember{
			{JudgeID: testJudgeID, JudgeType: "standard", ModelID: "claude-sonnet-4-6"},
			{JudgeID: testTaskID, JudgeType: "adversarial", ModelID: "claude-opus-4-7"},
		}, PanelSize: Ptr(2)},
		JudgeStart{TaskID: testTaskID, IterationID: testIterID, JudgeID: testJudgeID, JudgeType: "security", JudgeModelID: "claude-opus-4-7"},
		Verdict{TaskID: testTaskID, Score: 0.72, Passed: true, JudgeType: "maintainability", FeedbackSummary: "ok <b>bold</b> & fine",
			FilePath: "internal/x.go", IterationID: testIterID, JudgeID: testJudgeID, JudgeModelID: "claude-sonnet-4-6",
			CriteriaEvaluated: []string{"correctness", "tests"}, CriterionScores: map[string]float64{"correctness": 0.9, "tests": 0.5},
			StrengthsCount: Ptr(2), WeaknessesCount: Ptr(1), Confidence: Ptr(0.6)},
		ConsensusReached{TaskID: testTaskID, IterationID: testIterID, AggregatedScore: 0.61, Passed: false, AggregationMethod: "weighted_mean",
			Judges: []ConsensusJudge{{JudgeID: testJudgeID, Score: 0.72}, {JudgeID: testTaskID, Score: 0.5}}},
		DissentRecorded{TaskID: testTaskID, IterationID: testIterID, DisagreementScore: 0.3,
			Judges: []DissentJudge{{JudgeID: testJudgeID, Score: 0.8, Passed: true}, {JudgeID: testTaskID, Score: 0.5, Passed: false}}},
		MetaStart{TaskID: testTaskID, IterationID: testIterID, MetaModelID: "claude-opus-4-7", VerdictsReviewed: Ptr(3)},
		MetaComplete{TaskID: testTaskID, VerdictQuality: "biased", BiasDetected: true, OverrideRecommendation: "re-evaluate",
			IterationID: testIterID, BiasTypes: []string{"verbosity", "sycophancy"}, Confidence: Ptr(0.9), MetaModelID: "claude-opus-4-7"},
		GatePassed{TaskID: testTaskID, IterationID: testIterID, FinalScore: 0.9, IterationNumber: Ptr(1), JudgesConsulted: Ptr(3)},
		GateBlocked{TaskID: testTaskID, IterationID: testIterID, Reason: "criterion_floor", FinalScore: Ptr(0.7), IterationNumber: Ptr(0),
			WillRetry: Ptr(true), RetryIterationNumber: Ptr(1), FailedCriterion: "tests"},
	}
}

// minimalPayloads sets only the schema's required fields, at zero values
// where a zero is valid, to prove required zeros are still written.
func minimalPayloads() []Payload {
	return []Payload{
		SessionStart{TaskID: testTaskID},
		SessionComplete{TaskID: testTaskID, Outcome: "aborted"},
		IterationStart{TaskID: testTaskID, IterationID: testIterID},
		ActorStart{TaskID: testTaskID, IterationID: testIterID},
		ActorComplete{TaskID: testTaskID},
		JuryEmpaneled{TaskID: testTaskID, IterationID: testIterID},
		JudgeStart{TaskID: testTaskID, IterationID: testIterID, JudgeID: testJudgeID, JudgeType: "domain"},
		Verdict{TaskID: testTaskID, JudgeType: "meta"},
		ConsensusReached{TaskID: testTaskID, IterationID: testIterID, AggregationMethod: "min"},
		DissentRecorded{TaskID: testTaskID, IterationID: testIterID},
		MetaStart{TaskID: testTaskID, IterationID: testIterID},
		MetaComplete{TaskID: testTaskID, VerdictQuality: "sound"},
		GatePassed{TaskID: testTaskID, IterationID: testIterID},
		GateBlocked{TaskID: testTaskID, IterationID: testIterID, Reason: "low_score"},
	}
}

func TestPayloadTablesCoverEveryType(t *testing.T) {
	for name, set := range map[string][]Payload{"full": fullPayloads(), "minimal": minimalPayloads()} {
		var got []string
		for _, p := range set {
			got = append(got, p.EventType())
		}
		slices.Sort(got)
		if want := schemacheck.EventTypes(); !slices.Equal(got, want) {
			t.Errorf("%s payload table covers %q, want %q", name, got, want)
		}
	}
}

// TestEmitEveryPayload emits a full and a minimal instance of every type,
// validates the line against the schema, and checks the payload's keys: all
// schema properties in schema order for the full one (minus the keys the
// contract forbids), exactly the required ones for the minimal one.
func TestEmitEveryPayload(t *testing.T) {
	defs := payloadDefs(t)
	forbidden := map[string]bool{"tribunal.dissent.recorded/resolution": true}
	run := func(t *testing.T, p Payload, wantKeys func(defSchema) []string) {
		if err := Validate(p); err != nil {
			t.Fatalf("Validate: %v", err)
		}
		e := newTestEmitter(t)
		got := emitOne(t, e, p)
		if err := schemacheck.ValidateLine([]byte(got)); err != nil {
			t.Fatalf("schema rejects %s: %v", got, err)
		}
		l := decodeLine(t, got)
		if l.EventType != p.EventType() {
			t.Errorf("event_type = %q, want %q", l.EventType, p.EventType())
		}
		def, ok := defs[p.EventType()]
		if !ok {
			t.Fatalf("no $defs entry for %q", p.EventType())
		}
		if keys, want := orderedKeys(t, l.Payload), wantKeys(def); !slices.Equal(keys, want) {
			t.Errorf("payload keys = %q\nwant %q", keys, want)
		}
	}
	for _, p := range fullPayloads() {
		t.Run("full/"+p.EventType(), func(t *testing.T) {
			run(t, p, func(d defSchema) []string {
				var want []string
				for _, k := range orderedKeys(t, d.Properties) {
					if !forbidden[p.EventType()+"/"+k] {
						want = append(want, k)
					}
				}
				return want
			})
		})
	}
	for _, p := range minimalPayloads() {
		t.Run("minimal/"+p.EventType(), func(t *testing.T) {
			run(t, p, func(d defSchema) []string {
				var want []string
				for _, k := range orderedKeys(t, d.Properties) {
					if slices.Contains(d.Required, k) {
						want = append(want, k)
					}
				}
				return want
			})
		})
	}
}

func TestOptionalZeroValuesAreEmitted(t *testing.T) {
	tests := []struct {
		p    Payload
		want string
	}{
		{GateBlocked{TaskID: "t", IterationID: "i", Reason: "low_score", FinalScore: Ptr(0.0), IterationNumber: Ptr(0), WillRetry: Ptr(false)},
			`{"task_id":"t","iteration_id":"i","reason":"low_score","final_score":0,"iteration_number":0,"will_retry":false}`},
		{SessionComplete{TaskID: "t", Outcome: "rejected", FinalScore: Ptr(0.0), IterationsUsed: Ptr(0), TotalCostUSD: Ptr(0.0), TotalDurationMS: Ptr(0)},
			`{"task_id":"t","outcome":"rejected","final_score":0,"iterations_used":0,"total_cost_usd":0,"total_duration_ms":0}`},
		{GatePassed{TaskID: "t", IterationID: "i", FinalScore: 1, IterationNumber: Ptr(0), JudgesConsulted: Ptr(1)},
			`{"task_id":"t","iteration_id":"i","final_score":1,"iteration_number":0,"judges_consulted":1}`},
		{MetaStart{TaskID: "t", IterationID: "i", VerdictsReviewed: Ptr(0)},
			`{"task_id":"t","iteration_id":"i","verdicts_reviewed":0}`},
		{Verdict{TaskID: "t", Score: 0, Passed: false, JudgeType: "standard", Confidence: Ptr(0.0), StrengthsCount: Ptr(0)},
			`{"task_id":"t","score":0,"passed":false,"judge_type":"standard","strengths_count":0,"confidence":0}`},
		{ConsensusReached{TaskID: "t", IterationID: "i", AggregationMethod: "mean"},
			`{"task_id":"t","iteration_id":"i","aggregated_score":0,"passed":false,"aggregation_method":"mean","judges":[]}`},
		{JuryEmpaneled{TaskID: "t", IterationID: "i", Judges: []JuryMember{{JudgeID: "j", JudgeType: "standard"}}},
			`{"task_id":"t","iteration_id":"i","judges":[{"judge_id":"j","judge_type":"standard"}]}`},
		{DissentRecorded{TaskID: "t", IterationID: "i", DisagreementScore: 0.5},
			`{"task_id":"t","iteration_id":"i","disagreement_score":0.5,"judges":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.p.EventType(), func(t *testing.T) {
			got := emitOne(t, newTestEmitter(t), tt.p)
			if l := decodeLine(t, got); string(l.Payload) != tt.want {
				t.Errorf("payload = %s\nwant      %s", l.Payload, tt.want)
			}
			if err := schemacheck.ValidateLine([]byte(got)); err != nil {
				t.Errorf("schema rejects line: %v", err)
			}
		})
	}
}

// TestValidateRejects lists, per type, payloads the schema forbids. Each
// row must fail Validate with an error naming the field, be refused by Emit
// without touching the log or the counter, and (when it can be encoded at
// all) also fail the real schema, so Validate and the schema cannot drift.
// The one deliberate difference: the schema types ids only as strings, and
// Validate also refuses an empty required id (field names ending in id).
func TestValidateRejects(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name  string
		p     Payload
		field string
	}{
		{"session.start no task_id", SessionStart{}, "task_id"},
		{"session.start bad judge type", SessionStart{TaskID: "t", JudgeTypes: []string{"standard", "lenient"}}, "judge_types[1]"},
		{"session.start bad gate policy", SessionStart{TaskID: "t", GatePolicy: "lenient"}, "gate_policy"},
		{"session.start threshold above 1", SessionStart{TaskID: "t", ScoreThreshold: Ptr(1.5)}, "score_threshold"},
		{"session.start threshold below 0", SessionStart{TaskID: "t", ScoreThreshold: Ptr(-0.1)}, "score_threshold"},
		{"session.start threshold NaN", SessionStart{TaskID: "t", ScoreThreshold: Ptr(nan)}, "score_threshold"},
		{"session.start max_iterations 0", SessionStart{TaskID: "t", MaxIterations: Ptr(0)}, "max_iterations"},
		{"session.complete no outcome", SessionComplete{TaskID: "t"}, "outcome"},
		{"session.complete bad outcome", SessionComplete{TaskID: "t", Outcome: "done"}, "outcome"},
		{"session.complete no task_id", SessionComplete{Outcome: "accepted"}, "task_id"},
		{"session.complete final_score above 1", SessionComplete{TaskID: "t", Outcome: "accepted", FinalScore: Ptr(1.01)}, "final_score"},
		{"session.complete iterations_used -1", SessionComplete{TaskID: "t", Outcome: "accepted", IterationsUsed: Ptr(-1)}, "iterations_used"},
		{"session.complete negative cost", SessionComplete{TaskID: "t", Outcome: "accepted", TotalCostUSD: Ptr(-0.01)}, "total_cost_usd"},
		{"session.complete infinite cost", SessionComplete{TaskID: "t", Outcome: "accepted", TotalCostUSD: Ptr(inf)}, "total_cost_usd"},
		{"session.complete negative duration", SessionComplete{TaskID: "t", Outcome: "accepted", TotalDurationMS: Ptr(-1)}, "total_duration_ms"},
		{"iteration.start no iteration_id", IterationStart{TaskID: "t"}, "iteration_id"},
		{"iteration.start negative number", IterationStart{TaskID: "t", IterationID: "i", IterationNumber: -1}, "iteration_number"},
		{"iteration.start bad trigger", IterationStart{TaskID: "t", IterationID: "i", Trigger: "retry"}, "trigger"},
		{"actor.start no iteration_id", ActorStart{TaskID: "t"}, "iteration_id"},
		{"actor.start negative number", ActorStart{TaskID: "t", IterationID: "i", IterationNumber: Ptr(-1)}, "iteration_number"},
		{"actor.complete no task_id", ActorComplete{Success: true}, "task_id"},
		{"actor.complete negative duration", ActorComplete{TaskID: "t", DurationMS: Ptr(-5)}, "duration_ms"},
		{"actor.complete negative skepticism", ActorComplete{TaskID: "t", SkepticismRounds: Ptr(-1)}, "skepticism_rounds"},
		{"actor.complete negative number", ActorComplete{TaskID: "t", IterationNumber: Ptr(-1)}, "iteration_number"},
		{"actor.complete bad artifact kind", ActorComplete{TaskID: "t", ArtifactKind: "diff"}, "artifact_kind"},
		{"jury no iteration_id", JuryEmpaneled{TaskID: "t"}, "iteration_id"},
		{"jury judge without id", JuryEmpaneled{TaskID: "t", IterationID: "i", Judges: []JuryMember{{JudgeType: "standard"}}}, "judges[0].judge_id"},
		{"jury judge bad type", JuryEmpaneled{TaskID: "t", IterationID: "i", Judges: []JuryMember{{JudgeID: "a", JudgeType: "standard"}, {JudgeID: "b", JudgeType: "harsh"}}}, "judges[1].judge_type"},
		{"jury panel_size 0", JuryEmpaneled{TaskID: "t", IterationID: "i", PanelSize: Ptr(0)}, "panel_size"},
		{"judge.start no judge_id", JudgeStart{TaskID: "t", IterationID: "i", JudgeType: "standard"}, "judge_id"},
		{"judge.start no judge_type", JudgeStart{TaskID: "t", IterationID: "i", JudgeID: "j"}, "judge_type"},
		{"verdict no task_id", Verdict{JudgeType: "standard"}, "task_id"},
		{"verdict score below 0", Verdict{TaskID: "t", Score: -0.01, JudgeType: "standard"}, "score"},
		{"verdict score above 1", Verdict{TaskID: "t", Score: 1.0000001, JudgeType: "standard"}, "score"},
		{"verdict score NaN", Verdict{TaskID: "t", Score: nan, JudgeType: "standard"}, "score"},
		{"verdict judge type case", Verdict{TaskID: "t", JudgeType: "Standard"}, "judge_type"},
		{"verdict criterion score", Verdict{TaskID: "t", JudgeType: "standard", CriterionScores: map[string]float64{"a": 0.5, "b": 2}}, `criterion_scores["b"]`},
		{"verdict strengths -1", Verdict{TaskID: "t", JudgeType: "standard", StrengthsCount: Ptr(-1)}, "strengths_count"},
		{"verdict weaknesses -1", Verdict{TaskID: "t", JudgeType: "standard", WeaknessesCount: Ptr(-1)}, "weaknesses_count"},
		{"verdict confidence above 1", Verdict{TaskID: "t", JudgeType: "standard", Confidence: Ptr(1.5)}, "confidence"},
		{"consensus bad method", ConsensusReached{TaskID: "t", IterationID: "i", AggregationMethod: "average"}, "aggregation_method"},
		{"consensus score above 1", ConsensusReached{TaskID: "t", IterationID: "i", AggregatedScore: 2, AggregationMethod: "mean"}, "aggregated_score"},
		{"consensus judge score", ConsensusReached{TaskID: "t", IterationID: "i", AggregationMethod: "mean", Judges: []ConsensusJudge{{JudgeID: "a", Score: 0.5}, {JudgeID: "b", Score: -1}}}, "judges[1].score"},
		{"consensus judge id", ConsensusReached{TaskID: "t", IterationID: "i", AggregationMethod: "mean", Judges: []ConsensusJudge{{Score: 0.5}}}, "judges[0].judge_id"},
		{"dissent score above 1", DissentRecorded{TaskID: "t", IterationID: "i", DisagreementScore: 1.5}, "disagreement_score"},
		{"dissent judge score NaN", DissentRecorded{TaskID: "t", IterationID: "i", Judges: []DissentJudge{{JudgeID: "a", Score: nan}}}, "judges[0].score"},
		{"dissent judge id", DissentRecorded{TaskID: "t", IterationID: "i", Judges: []DissentJudge{{Score: 0.5}}}, "judges[0].judge_id"},
		{"meta.start no iteration_id", MetaStart{TaskID: "t"}, "iteration_id"},
		{"meta.start negative reviewed", MetaStart{TaskID: "t", IterationID: "i", VerdictsReviewed: Ptr(-1)}, "verdicts_reviewed"},
		{"meta.complete no quality", MetaComplete{TaskID: "t"}, "verdict_quality"},
		{"meta.complete bad quality", MetaComplete{TaskID: "t", VerdictQuality: "good"}, "verdict_quality"},
		{"meta.complete bad override", MetaComplete{TaskID: "t", VerdictQuality: "sound", OverrideRecommendation: "approve"}, "override_recommendation"},
		{"meta.complete bad bias type", MetaComplete{TaskID: "t", VerdictQuality: "sound", BiasTypes: []string{"position", "vibes"}}, "bias_types[1]"},
		{"meta.complete confidence below 0", MetaComplete{TaskID: "t", VerdictQuality: "sound", Confidence: Ptr(-1.0)}, "confidence"},
		{"gate.passed no iteration_id", GatePassed{TaskID: "t", FinalScore: 1}, "iteration_id"},
		{"gate.passed score above 1", GatePassed{TaskID: "t", IterationID: "i", FinalScore: 1.2}, "final_score"},
		{"gate.passed judges_consulted 0", GatePassed{TaskID: "t", IterationID: "i", JudgesConsulted: Ptr(0)}, "judges_consulted"},
		{"gate.passed negative number", GatePassed{TaskID: "t", IterationID: "i", IterationNumber: Ptr(-1)}, "iteration_number"},
		{"gate.blocked no reason", GateBlocked{TaskID: "t", IterationID: "i"}, "reason"},
		{"gate.blocked bad reason", GateBlocked{TaskID: "t", IterationID: "i", Reason: "flaky"}, "reason"},
		{"gate.blocked score below 0", GateBlocked{TaskID: "t", IterationID: "i", Reason: "low_score", FinalScore: Ptr(-0.5)}, "final_score"},
		{"gate.blocked negative number", GateBlocked{TaskID: "t", IterationID: "i", Reason: "low_score", IterationNumber: Ptr(-1)}, "iteration_number"},
		{"gate.blocked negative retry", GateBlocked{TaskID: "t", IterationID: "i", Reason: "low_score", RetryIterationNumber: Ptr(-1)}, "retry_iteration_number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.p)
			if err == nil {
				t.Fatal("Validate accepted the payload")
			}
			if !strings.Contains(err.Error(), tt.field) || !strings.Contains(err.Error(), tt.p.EventType()) {
				t.Errorf("Validate error %q does not name %s and %q", err, tt.p.EventType(), tt.field)
			}

			e := newTestEmitter(t)
			if err := e.Emit(tt.p); err == nil {
				t.Fatal("Emit accepted the payload")
			}
			for _, name := range []string{e.LogPath, e.Dir} {
				if _, err := os.Stat(name); !os.IsNotExist(err) {
					t.Errorf("refused Emit created %s (stat error %v)", name, err)
				}
			}

			payload, err := marshalCompact(tt.p)
			if err != nil {
				return // NaN or Inf: not even representable in JSON
			}
			schemaErr := schemacheck.ValidateLine(envelopeFor(t, tt.p.EventType(), payload))
			emptyID := strings.HasSuffix(tt.field, "_id")
			switch {
			case schemaErr == nil && !emptyID:
				t.Errorf("schema accepts %s, so Validate is stricter than the schema", payload)
			case schemaErr != nil && emptyID:
				t.Errorf("schema rejects %s for another reason than the empty id: %v", payload, schemaErr)
			}
		})
	}
}

// TestValidateBoundaries pins the inclusive ends of every range.
func TestValidateBoundaries(t *testing.T) {
	valid := []Payload{
		Verdict{TaskID: "t", Score: 0, JudgeType: "standard", Confidence: Ptr(0.0), CriterionScores: map[string]float64{"a": 0, "b": 1}},
		Verdict{TaskID: "t", Score: 1, JudgeType: "standard", Confidence: Ptr(1.0)},
		SessionStart{TaskID: "t", ScoreThreshold: Ptr(1.0), MaxIterations: Ptr(1)},
		JuryEmpaneled{TaskID: "t", IterationID: "i", PanelSize: Ptr(1)},
		GatePassed{TaskID: "t", IterationID: "i", FinalScore: 1, JudgesConsulted: Ptr(1), IterationNumber: Ptr(0)},
		DissentRecorded{TaskID: "t", IterationID: "i", DisagreementScore: 1},
		MetaComplete{TaskID: "t", VerdictQuality: "questionable", BiasTypes: []string{}},
	}
	for _, p := range valid {
		if err := Validate(p); err != nil {
			t.Errorf("%T: %v", p, err)
			continue
		}
		payload, err := marshalCompact(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := schemacheck.ValidateLine(envelopeFor(t, p.EventType(), payload)); err != nil {
			t.Errorf("schema rejects boundary payload %s: %v", payload, err)
		}
	}
}

// envelopeFor wraps an encoded payload in a fixed valid envelope, bypassing
// Emit so payloads Validate refuses can still be shown to the schema.
func envelopeFor(t *testing.T, eventType string, payload []byte) []byte {
	t.Helper()
	b, err := marshalCompact(envelope{
		ID: "6ba7b810-9dad-41d1-80b4-00c04fd430c8", SchemaVersion: schemaVersion, Runtime: runtimeName, Plugin: pluginName,
		MachineID: "0f8fad5b-d9cb-469f-a165-70867728950e", Timestamp: "2026-05-24T10:00:00.123Z", SessionID: "s",
		EventType: eventType, Payload: payload,
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTunePayloadsAreTribunalsOwn: tune's events pass tribunal's own
// payload rules but are no canonical onlooker type, which is why a tune
// run writes them to its own record directory and never to the shared
// log (spec §14.7, §10.4); a shared log that took them would fail every
// onlooker consumer.
func TestTunePayloadsAreTribunalsOwn(t *testing.T) {
	for _, p := range []Payload{
		TuneGeneration{TaskID: testTaskID, Generation: 1, Candidates: 4, Dropped: 1, BestTrainAgreement: Ptr(0.9), SpentUSD: 1.25},
		TuneDecided{TaskID: testTaskID, Outcome: "ship", Gate: "pareto", ValidPairs: 13, Lift: Ptr(0.46), LiftLow: Ptr(0.15), LiftHigh: Ptr(0.78), MoreCases: 2, SpentUSD: 2.19},
		TuneDecided{TaskID: testTaskID, Outcome: "hold", Gate: "delta"},
	} {
		if err := Validate(p); err != nil {
			t.Errorf("%s: Validate: %v", p.EventType(), err)
		}
		line := emitOne(t, newTestEmitter(t), p)
		if err := schemacheck.ValidateLine([]byte(line)); err == nil {
			t.Errorf("%s validates against the canonical schema; it may go to the shared log then", p.EventType())
		}
	}
	if err := Validate(TuneDecided{TaskID: testTaskID, Outcome: "shipped", Gate: "delta"}); err == nil {
		t.Error("Validate accepted an outcome that is none of tune's")
	}
}
