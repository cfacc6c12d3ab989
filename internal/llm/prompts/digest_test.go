package prompts

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDigestRequiredParts checks the five parts spec §7.7 requires.
func TestDigestRequiredParts(t *testing.T) {
	in := sampleDigestInput()
	in.Reason = "dissent_unresolved"
	in.Dissent = f64(0.45)
	in.Meta = DigestMeta{Quality: "questionable", Bias: true, BiasTypes: []string{"sycophancy"}, Override: "reject"}
	d := Digest(in)
	for _, want := range []string{
		"blocked (dissent_unresolved)",                                                                             // 1: gate reason
		"Criterion `safety` (0.30 < 0.80) is also below its floor",                                                 // 1: failed criterion, lowest, floor
		"| safety | 0.2 | 0.8 | 0.55 | 0.30 (below floor) |",                                                       // 2: mean, min, weight, min_pass
		"- standard: 0.88, passed\n  feedback: Correct and tidy.",                                                  // 3: passing judge's critique
		"- adversarial: 0.76, passed\n  feedback: Running the migration",                                           // 3
		"verdict_quality questionable; bias_detected true; bias_types sycophancy; override_recommendation reject.", // 4
		"The judges' scores spread by 0.45",                                                                        // 5
	} {
		if !strings.Contains(d, want) {
			t.Errorf("digest lacks %q:\n%s", want, d)
		}
	}
}

func TestDigestReasonSentences(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*DigestInput)
		want   string
	}{
		{"criterion_floor reads concretely (spec §7.9)", func(in *DigestInput) {}, "Blocked on `safety` (0.30 < 0.80) despite an overall 0.82."},
		{"criterion_floor with an unreadable report", func(in *DigestInput) { in.FailedLowest = nil },
			"Blocked on `safety` (a judge reported an unreadable score; floor 0.80) despite an overall 0.82."},
		{"low_score with threshold", func(in *DigestInput) { in.Reason, in.Aggregate, in.FailedCriterion = "low_score", 0.62, "" },
			"Blocked: the overall score 0.62 is below the threshold 0.75.\n"},
		{"low_score without threshold", func(in *DigestInput) {
			in.Reason, in.Aggregate, in.FailedCriterion, in.Threshold = "low_score", 0.62, "", nil
		}, "Blocked: the overall score 0.62 is below the threshold.\n"},
		{"dissent_unresolved from dissent", func(in *DigestInput) { in.Reason, in.FailedCriterion, in.Dissent = "dissent_unresolved", "", f64(0.5) },
			"Blocked: the judges disagreed by 0.50, too much to settle the verdict (overall 0.82).\n"},
		{"dissent_unresolved from the jury vote", func(in *DigestInput) { in.Reason, in.FailedCriterion = "dissent_unresolved", "" },
			"Blocked: too few judges voted to pass the work under the gate policy (overall 0.82).\n"},
		{"meta_override", func(in *DigestInput) { in.Reason, in.FailedCriterion = "meta_override", "" },
			"Blocked: the Meta-Judge recommended reject (overall 0.82).\n"},
		{"bias_detected", func(in *DigestInput) { in.Reason, in.FailedCriterion = "bias_detected", "" },
			"Blocked: the Meta-Judge found bias in the jury and recommended reject (overall 0.82).\n"},
		{"unknown reason is shown as given", func(in *DigestInput) { in.Reason, in.FailedCriterion = "weather", "" },
			"Blocked: weather (overall 0.82).\n"},
		{"no reason given", func(in *DigestInput) { in.Reason, in.FailedCriterion = "", "" }, "**Previous iteration: blocked**\n\nBlocked (overall 0.82).\n"},
		{"failed criterion on a non-floor block", func(in *DigestInput) { in.Reason = "meta_override" },
			"Blocked: the Meta-Judge recommended reject (overall 0.82). Criterion `safety` (0.30 < 0.80) is also below its floor, which would block the work on its own.\n"},
		{"failed criterion without a floor value", func(in *DigestInput) { in.FailedFloor = nil },
			"Blocked on `safety` (0.30 < its floor) despite an overall 0.82."},
		{"score needing more than two decimals", func(in *DigestInput) { in.FailedLowest, in.FailedFloor = f64(0.795), f64(0.8) },
			"Blocked on `safety` (0.795 < 0.80)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := sampleDigestInput()
			c.mutate(&in)
			if d := Digest(in); !strings.Contains(d, c.want) {
				t.Errorf("digest lacks %q:\n%s", c.want, d)
			}
		})
	}
}

func TestDigestCriteriaOrder(t *testing.T) {
	in := DigestInput{Reason: "low_score", Criteria: []DigestCriterion{
		{Name: "unscored_a"},
		{Name: "high", Mean: f64(0.9), Min: f64(0.9)},
		{Name: "tie_first", Mean: f64(0.5), Min: f64(0.5)},
		{Name: "unscored_b"},
		{Name: "low", Mean: f64(0.1), Min: f64(0.0)},
		{Name: "tie_second", Mean: f64(0.5), Min: f64(0.4)},
	}}
	d := Digest(in)
	want := []string{"| low |", "| tie_first |", "| tie_second |", "| high |", "| unscored_a |", "| unscored_b |"}
	last := -1
	for _, w := range want {
		i := strings.Index(d, w)
		if i < 0 || i < last {
			t.Fatalf("criteria not ordered lowest mean first, unscored last, ties in rubric order; want %q:\n%s", want, d)
		}
		last = i
	}
	if !strings.Contains(d, "| unscored_a | 0 | 0 | not scored | not scored |") {
		t.Errorf("unscored criterion not rendered as such:\n%s", d)
	}
}

func TestDigestTruncationKeepsEveryJudge(t *testing.T) {
	in := sampleDigestInput()
	in.Judges = nil
	long := strings.Repeat("The retry loop ignores Retry-After headers at client.go:88. ", 80) // ~4.8 KB
	for i := 0; i < 6; i++ {
		in.Judges = append(in.Judges, DigestJudge{Type: "judge" + string(rune('A'+i)), Score: f64(0.5), Feedback: long})
	}
	in.Judges = append(in.Judges, DigestJudge{Type: "terse", Score: f64(0.9), Passed: true, Feedback: "Short and whole."})
	d := Digest(in)
	if len(d) > DigestBudget {
		t.Fatalf("digest is %d bytes, over the %d budget", len(d), DigestBudget)
	}
	if len(d) < DigestBudget-200 {
		t.Errorf("digest is %d bytes; the budget should be nearly used when feedback is long", len(d))
	}
	for i := 0; i < 6; i++ {
		line := "- judge" + string(rune('A'+i)) + ": 0.50, did not pass\n  feedback: The retry loop"
		if !strings.Contains(d, line) {
			t.Errorf("judge %d or its feedback is missing:\n%s", i, d)
		}
	}
	if strings.Count(d, truncationMark+"\n") != 6 {
		t.Errorf("want the six long feedbacks truncated, got %d marks", strings.Count(d, truncationMark))
	}
	if !strings.Contains(d, "- terse: 0.90, passed\n  feedback: Short and whole.\n") {
		t.Errorf("short feedback was not kept whole:\n%s", d)
	}
	if !utf8.ValidString(d) {
		t.Error("digest is not valid UTF-8")
	}
}

func TestDigestWithinBudgetIsUntouched(t *testing.T) {
	d := Digest(sampleDigestInput())
	if strings.Contains(d, truncationMark) {
		t.Errorf("a small digest was truncated:\n%s", d)
	}
}

func TestFairShares(t *testing.T) {
	cases := []struct {
		name   string
		lens   []int
		budget int
		want   []int
	}{
		{"all fit", []int{10, 20}, 100, []int{10, 20}},
		{"even split", []int{100, 100}, 100, []int{50, 50}},
		{"short one kept whole, rest shared", []int{10, 100, 100}, 100, []int{10, 45, 45}},
		{"empty texts get nothing", []int{0, 100}, 60, []int{0, 60}},
		{"negative budget", []int{5, 5}, -3, []int{0, 0}},
		{"floor division never exceeds budget", []int{50, 50, 50}, 100, []int{33, 33, 33}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			texts := make([]string, len(c.lens))
			for i, n := range c.lens {
				texts[i] = strings.Repeat("x", n)
			}
			got := fairShares(texts, c.budget)
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("fairShares(%v, %d) = %v, want %v", c.lens, c.budget, got, c.want)
				}
			}
		})
	}
}

func TestTruncateBytes(t *testing.T) {
	cases := []struct {
		in    string
		limit int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"abcdefghijklmnop", 10, "abcd" + truncationMark},
		{"ab   cdefghijklmnop", 9, "ab" + truncationMark},  // trailing spaces trimmed before the mark
		{"aé€𝄞bcdefghijklmnop", 10, "aé" + truncationMark}, // the cut at byte 4 falls inside €
		{"€€€€€€€€", 12, "€€" + truncationMark},            // 12-6 = 6 bytes = two runes
		{"abcdefghijklmnop", 3, strings.TrimSpace(truncationMark)},
	}
	for _, c := range cases {
		got := truncateBytes(c.in, c.limit)
		if got != c.want {
			t.Errorf("truncateBytes(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("truncateBytes(%q, %d) produced invalid UTF-8", c.in, c.limit)
		}
	}
}

func TestFmtScore(t *testing.T) {
	cases := map[float64]string{0.3: "0.30", 0.8: "0.80", 0.82: "0.82", 0.825: "0.825", 1: "1.00", 0: "0.00", 1.0 / 3: "0.3333", 0.68 - 0.43: "0.25"}
	for in, want := range cases {
		if got := fmtScore(in); got != want {
			t.Errorf("fmtScore(%v) = %q, want %q", in, got, want)
		}
	}
}
