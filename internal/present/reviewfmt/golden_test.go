package reviewfmt

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("u", false, "rewrite testdata/ goldens from the current output")

// golden compares got with testdata/name, or rewrites it under -u.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/present/reviewfmt -u to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the golden file (run go test ./internal/present/reviewfmt -u after checking the change)\n%s", path, firstDifference(string(want), string(got)))
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

// samples are the reviews every format's goldens are rendered from.
var samples = map[string]Review{
	"rejected": {
		ID: "01JDZ8Q5W3K4M6N8P0R2S4T6V8", Outcome: OutcomeRejected,
		Reason: "score 0.55 below threshold 0.70; a blocker finding",
		Task:   "Add retry to the uploader\n\nRetries 3 times with backoff.",
		Base:   "1111111111111111111111111111111111111111", Head: "2222222222222222222222222222222222222222",
		RubricID: "default", Threshold: 0.7,
		Judges: []Judge{
			{Type: "correctness", Model: "claude-sonnet-4-5", Family: "anthropic", Score: f64(0.55), Passed: false},
			{Type: "security", Model: "gpt-5", Family: "openai", Score: f64(0.81), Passed: true},
			{Type: "adversarial", Model: "claude-opus-4-1", Family: "anthropic", Failure: "timed out after 300s"},
		},
		Findings: []Finding{
			{Judge: "security", Criterion: "safety", Severity: "minor", File: "upload/retry.go", Line: 12, Message: "The backoff has no jitter.", Fingerprint: "tf1:0f1e2d3c4b5a69788796a5b4c3d2e1f0"},
			{Judge: "correctness", Criterion: "correctness", Severity: "blocker", File: "upload/retry.go", Line: 40, Message: "The loop retries forever when the server answers 500.\nattempts is never incremented.", Fingerprint: "tf1:00112233445566778899aabbccddeeff"},
			{Judge: "correctness", Criterion: "completeness", Severity: "major", Message: "No test covers the retry path.", Fingerprint: "tf1:ffeeddccbbaa99887766554433221100"},
			{Judge: "security", Severity: "critical", File: "upload/missing.go", Line: 7, Message: "Credentials are logged.", Unverified: true, Fingerprint: "tf1:1234567890abcdef1234567890abcdef"},
			{Judge: "correctness", Criterion: "clarity", Severity: "info", File: "docs/retry notes (draft).md", Message: "Say what the maximum wait is.", Fingerprint: "tf1:abcdefabcdefabcdefabcdefabcdefab"},
			{Judge: "adversarial", Criterion: "correctness", Severity: "critical", File: "upload/retry.go", Line: 22, Message: "The body is read twice.", Refuted: true, Fingerprint: "tf1:5555555555555555aaaaaaaaaaaaaaaa"},
		},
		CostUSD:   f64(0.0423),
		Omitted:   []string{"vendor/lib.go (generated, 4,210 lines)", "2 hunks of go.sum"},
		Dismissed: 1,
	},
	"accepted-reused": {
		ID: "01JDZ8Q5W3K4M6N8P0R2S4T6V9", Outcome: OutcomeAccepted, Reason: "score 0.91 at or above threshold 0.70",
		RubricID: "default", Threshold: 0.7, Reused: true,
		Judges: []Judge{{Type: "correctness", Model: "claude-sonnet-4-5", Family: "anthropic", Score: f64(0.91), Passed: true}},
	},
	"no-verdict": {
		ID: "01JDZ8Q5W3K4M6N8P0R2S4T6VA", Outcome: OutcomeNoVerdict, Reason: "every judge failed",
		RubricID: "default", Threshold: 0.7, CostUSD: f64(0),
		Judges: []Judge{{Type: "correctness", Model: "claude-sonnet-4-5", Family: "anthropic", Failure: "API error 529 overloaded"}},
	},
}

var linkBase = MarkdownOptions{ServerURL: "https://github.com", Repository: "acme/widgets", DismissedFile: ".tribunal/dismissed"}

func TestGoldens(t *testing.T) {
	for name, r := range samples {
		t.Run(name, func(t *testing.T) {
			golden(t, name+".md", []byte(Markdown(r, linkBase)))
			s, err := SARIF(r, "1.2.3")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".sarif", s)
			cq, err := CodeQuality(r)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".codequality.json", cq)
		})
	}
}

func TestSARIFSummary(t *testing.T) {
	for name, r := range samples {
		data, err := SARIF(r, "1")
		if err != nil {
			t.Fatal(err)
		}
		id, outcome, err := SARIFSummary(data)
		if err != nil || id != r.ID || outcome != r.Outcome {
			t.Errorf("%s: SARIFSummary = %q, %q, %v; want %q, %q", name, id, outcome, err, r.ID, r.Outcome)
		}
	}
	for _, bad := range []string{`not json`, `{"runs":[]}`, `{"runs":[{"properties":{}}]}`} {
		if _, _, err := SARIFSummary([]byte(bad)); err == nil {
			t.Errorf("SARIFSummary(%s) gave no error", bad)
		}
	}
}

// TestSameFindingTwoJudges: two judges citing the same problem (the same
// fingerprint) make one finding at the worse rung, naming both judges, in
// every format; GitLab rejects a report with a fingerprint twice.
func TestSameFindingTwoJudges(t *testing.T) {
	r := Review{ID: "01JDZ8Q5W3K4M6N8P0R2S4T6V8", Outcome: OutcomeRejected, Findings: []Finding{
		{Judge: "standard", Criterion: "correctness", Severity: "minor", File: "a.go", Line: 3, Message: "loops forever", Fingerprint: "tf1:aa"},
		{Judge: "adversarial", Criterion: "correctness", Severity: "major", File: "a.go", Line: 3, Message: "loops forever", Fingerprint: "tf1:aa"},
		{Judge: "standard", Severity: "info", File: "b.go", Message: "other", Fingerprint: "tf1:bb"},
	}}
	md := Markdown(r, MarkdownOptions{})
	if strings.Count(md, "loops forever") != 2 || !strings.Contains(md, "_(adversarial, standard · correctness)_") || strings.Contains(md, "**Minor**") {
		t.Errorf("Markdown does not show the finding once per place, by both judges:\n%s", md)
	}
	cq, err := CodeQuality(r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(cq), `"tf1:aa"`) != 1 || !strings.Contains(string(cq), `"severity": "major"`) {
		t.Errorf("Code Quality repeats a fingerprint or loses the worse rung:\n%s", cq)
	}
	s, err := SARIF(r, "1")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(s), `"tf1:aa"`) != 1 {
		t.Errorf("SARIF repeats a fingerprint:\n%s", s)
	}
}
