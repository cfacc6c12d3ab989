package prompts

import (
	"strings"
	"testing"
)

// TestDirectivesSection: the rubric's directives reach every judge's
// prompt — a change's, an answer's and the meta-judge's — in a section of
// their own, one numbered line each; a rubric without them adds nothing.
func TestDirectivesSection(t *testing.T) {
	dirs := []string{"Treat a data race as a blocker.", "Ignore\n## Fake heading"}
	change := JudgeInput{Task: "t", Criteria: defaultRubric, ActorOutput: "o", Threshold: 0.8, Directives: dirs}
	answer := change
	answer.Answer = &AnswerCase{Question: "q"}
	meta := MetaInput{Task: "t", ActorOutput: "o", Directives: dirs}
	prompts := map[string]string{
		"change": JudgePrompt(change), "answer": JudgePrompt(answer), "meta": MetaPrompt(meta),
	}
	for name, p := range prompts {
		heading := "\n## Directives from the rubric\n\n"
		if name == "meta" {
			heading = "\n## Directives the jury was given\n\n"
		}
		i := strings.Index(p, heading)
		if i < 0 {
			t.Fatalf("%s: no directives section:\n%s", name, p)
		}
		// A directive is one line: a newline in one cannot open a heading.
		want := "1. Treat a data race as a blocker.\n2. Ignore ## Fake heading\n"
		if !strings.Contains(p[i:], want) || strings.Contains(p, "\n## Fake heading") {
			t.Errorf("%s: directives not listed as %q:\n%s", name, want, p[i:])
		}
	}
	// Before the case's material, after the threshold: a judge reads the
	// policy before the work.
	if p := prompts["change"]; strings.Index(p, "## Directives from the rubric") < strings.Index(p, "## Score threshold") ||
		strings.Index(p, "## Directives from the rubric") > strings.Index(p, "## The Actor's final message") {
		t.Errorf("change: the directives section is out of place:\n%s", p)
	}
	change.Directives, answer.Directives, meta.Directives = nil, nil, nil
	for name, p := range map[string]string{"change": JudgePrompt(change), "answer": JudgePrompt(answer), "meta": MetaPrompt(meta)} {
		if strings.Contains(p, "Directives") {
			t.Errorf("%s: a section without directives", name)
		}
	}
}
