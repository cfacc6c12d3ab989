package prompts

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// golden compares got with testdata/<name>.golden, or rewrites the file
// when the test runs with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run go test -update after checking the change)\n%s", path, firstDifference(string(want), got))
	}
}

func firstDifference(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + w + "\n  got:  " + g
		}
	}
	return "(no line differs)"
}

func f64(v float64) *float64 { return &v }

var defaultRubric = []Criterion{
	{"correctness", 0.4, 0.7},
	{"completeness", 0.3, 0.7},
	{"safety", 0.2, 0.8},
	{"clarity", 0.1, 0.5},
}

func prettySchema(t *testing.T, s string) string {
	t.Helper()
	var out bytes.Buffer
	if err := json.Indent(&out, []byte(s), "", "  "); err != nil {
		t.Fatal(err)
	}
	return s + "\n\n" + out.String() + "\n"
}

func TestGoldenSchemas(t *testing.T) {
	golden(t, "schema_verdict_default", prettySchema(t, VerdictSchema(criterionNames(defaultRubric))))
	golden(t, "schema_stop", prettySchema(t, StopVerdictSchema()))
	golden(t, "schema_meta", prettySchema(t, MetaSchema()))
}

func TestGoldenJudgePrompt(t *testing.T) {
	golden(t, "judge_standard", JudgePrompt(JudgeInput{
		Task:        "Add retry with exponential backoff to the HTTP client in internal/fetch.",
		Criteria:    defaultRubric,
		ActorOutput: "Changed internal/fetch/client.go: retries 429 and 503 up to 3 times with jittered backoff.\nRan `go test ./internal/fetch/...`: ok.",
		Threshold:   0.75,
		JudgeType:   "standard",
		Iteration:   0,
		DiffStat:    " internal/fetch/client.go | 42 ++++++++++++++++++++++++++++++++++++------\n 1 file changed, 36 insertions(+), 6 deletions(-)",
	}))
	golden(t, "judge_adversarial_empty_output", JudgePrompt(JudgeInput{
		Task:      "Explain why `make release` is slow.",
		Criteria:  []Criterion{{"grounding", 0.7, 0.6}, {"polish|tone", 0.3, 0}},
		Threshold: 0.8,
		JudgeType: "adversarial",
		Iteration: 2,
	}))
}

func sampleMetaInput() MetaInput {
	return MetaInput{
		Task: "Add retry with exponential backoff to the HTTP client in internal/fetch.",
		Verdicts: []MetaVerdict{
			{JudgeID: "01JABCDEFGHJKMNPQRSTVWXYZ0", JudgeType: "standard", Score: f64(0.82), Passed: true,
				CriteriaEvaluated: []string{"correctness", "completeness", "clarity"}, Confidence: f64(0.85),
				Feedback: "Retry loop at internal/fetch/client.go:88 is correct; no test covers the backoff branch."},
			{JudgeID: "01JABCDEFGHJKMNPQRSTVWXYZ1", JudgeType: "adversarial", Score: f64(0.4), Passed: false,
				CriteriaEvaluated: []string{"edge-cases"}, Feedback: "Might be fragile under load."},
			{JudgeID: "01JABCDEFGHJKMNPQRSTVWXYZ2", JudgeType: "security", Failed: true},
			{JudgeID: "01JABCDEFGHJKMNPQRSTVWXYZ3", JudgeType: "standard", Passed: true, Feedback: "Looks good."},
		},
		ActorOutput: "Changed internal/fetch/client.go.",
		PriorIterations: []PriorIteration{
			{Number: 0, Scores: map[string]float64{"standard": 0.74, "adversarial": 0.72}, Summary: "blocked: low_score (0.73)"},
			{Number: 1},
		},
		Probes: []string{"every usable score lies in 0.70-0.80 in two consecutive iterations"},
	}
}

func TestGoldenMetaPrompt(t *testing.T) {
	golden(t, "meta_full", MetaPrompt(sampleMetaInput()))
	golden(t, "meta_minimal", MetaPrompt(MetaInput{Task: "t", ActorOutput: "o"}))
}

func sampleDigestInput() DigestInput {
	return DigestInput{
		Reason:          "criterion_floor",
		FailedCriterion: "safety",
		FailedLowest:    f64(0.3),
		FailedFloor:     f64(0.8),
		Aggregate:       0.82,
		Threshold:       f64(0.75),
		Criteria: []DigestCriterion{
			{Name: "correctness", Weight: 0.4, MinPass: 0.7, Mean: f64(0.9), Min: f64(0.85)},
			{Name: "completeness", Weight: 0.3, MinPass: 0.7, Mean: f64(0.85), Min: f64(0.8)},
			{Name: "safety", Weight: 0.2, MinPass: 0.8, Mean: f64(0.55), Min: f64(0.3)},
			{Name: "clarity", Weight: 0.1, MinPass: 0.5},
		},
		Judges: []DigestJudge{
			{Type: "standard", Score: f64(0.88), Passed: true, Feedback: "Correct and tidy.\nConsider a test for the 503 path."},
			{Type: "adversarial", Score: f64(0.76), Passed: true, Feedback: "Running the migration twice fails at migrations/0007.sql:3 (CREATE INDEX without IF NOT EXISTS)."},
		},
		Meta: DigestMeta{Quality: "sound"},
	}
}

func TestGoldenDigest(t *testing.T) {
	golden(t, "digest_criterion_floor", Digest(sampleDigestInput()))

	low := sampleDigestInput()
	low.Reason, low.Aggregate = "low_score", 0.62
	low.Meta = DigestMeta{Quality: "biased", Bias: true, BiasTypes: []string{"verbosity", "length"}, Override: "re-evaluate"}
	low.Dissent = f64(0.45)
	low.Judges = append(low.Judges, DigestJudge{Type: "security", Failed: true}, DigestJudge{Type: "standard", Passed: true})
	golden(t, "digest_low_score", Digest(low))
}

func TestGoldenActorPrompt(t *testing.T) {
	golden(t, "actor_first", ActorPrompt(ActorInput{
		Task:     "Add retry with exponential backoff to the HTTP client in internal/fetch.",
		Criteria: defaultRubric,
	}))
	golden(t, "actor_retry", ActorPrompt(ActorInput{
		Task:     "Add retry with exponential backoff to the HTTP client in internal/fetch.",
		Criteria: defaultRubric,
		Digest:   Digest(sampleDigestInput()),
	}))
}

func TestGoldenStopPrompt(t *testing.T) {
	golden(t, "stop_full", StopPrompt(StopInput{
		Threshold:            0.75,
		Changes:              sampleChanges(),
		UserRequest:          "fix the typo in main.go",
		LastAssistantMessage: "Fixed the typo in main.go.",
	}))
	golden(t, "stop_minimal", StopPrompt(StopInput{Threshold: 1}))
	golden(t, "stop_read_tools", StopPrompt(StopInput{Threshold: 0.75, Changes: sampleChanges(), ReadTools: true}))
}
