package prompts

import (
	"fmt"
	"strings"
)

// Bounds on what `tune`'s proposer reads: each failed case's task and
// diff are cut so that a generation's prompt stays one affordable call.
const (
	TuneTaskLimit  = 2000
	TuneDiffLimit  = 8000
	TuneMaxFailure = 12
)

// TuneInput is what the proposer seat of `tune` is shown (spec §14.7):
// the current surface and the train cases it decides against their
// labels — never a held-out case, which the caller never passes.
type TuneInput struct {
	Criteria []string
	// Directives are the rubric's directives to the judges (spec §2.6);
	// MaxDirectives and DirectiveLen are the rubric's bounds on them.
	Directives                  []string
	MaxDirectives, DirectiveLen int
	Failures                    []TuneFailure
	Want                        int
	Ops                         []string
}

// TuneFailure is one train case the surface got wrong.
type TuneFailure struct {
	ID, Task, Diff, Label, Decision string
}

// TunePrompt asks for bounded edits to the judging surface, each citing
// the failed cases it addresses (reflective mutation, as in GEPA).
func TunePrompt(in TuneInput) string {
	fails := in.Failures[:min(len(in.Failures), TuneMaxFailure)]
	var parts []string
	for _, x := range fails {
		parts = append(parts, x.ID, headBytes(x.Task, TuneTaskLimit), headBytes(x.Diff, TuneDiffLimit))
	}
	f := newFencer(parts...)
	var b strings.Builder
	fmt.Fprintf(&b, "You are a Tribunal tuner. Judges score code changes against the rubric criteria below; on the cases listed they decided against the human label. "+
		"Propose up to %d candidate edits to the rubric that would make the judges decide these cases as labelled without wrongly blocking good changes. Answer with JSON only.\n\n", max(1, in.Want))
	b.WriteString("Each proposal has \"edits\" (at most 3), \"cites\" (the ids of the failed cases it addresses; only ids listed below) and \"reason\". ")
	fmt.Fprintf(&b, "An edit's \"op\" is one of %s; \"criterion\" names an existing criterion, \"name\" a new criterion's name or new wording, \"value\" a weight, min_pass or threshold in [0,1]. "+
		"Weights are rescaled to sum to 1. A criterion's name is all a judge sees of it: name the class of problem it checks.\n\n", strings.Join(in.Ops, ", "))
	fmt.Fprintf(&b, "Directives are instructions every judge's prompt carries, beside the criteria: \"text\" is a new directive (add_directive) or a new wording (reword_directive), "+
		"\"directive\" the exact text of an existing one (reword_directive, remove_directive). A directive is one line of plain text of at most %d characters; a rubric has at most %d.\n\n",
		in.DirectiveLen, in.MaxDirectives)
	b.WriteString("Current rubric:\n")
	for _, c := range in.Criteria {
		b.WriteString("- " + c + "\n")
	}
	b.WriteString("\nCurrent directives:\n")
	if len(in.Directives) == 0 {
		b.WriteString("(none)\n")
	}
	for _, d := range in.Directives {
		b.WriteString("- " + jsonString(d) + "\n")
	}
	b.WriteString("\n" + f.notice() + "\n\n")
	for _, x := range fails {
		fmt.Fprintf(&b, "Case %q: labelled %s, the judges decided %s.\n", x.ID, x.Label, x.Decision)
		f.wrap(&b, "TASK", headBytes(x.Task, TuneTaskLimit))
		f.wrap(&b, "DIFF", headBytes(x.Diff, TuneDiffLimit))
		b.WriteByte('\n')
	}
	return b.String()
}

// TuneSchema is the proposer's structured-output schema.
func TuneSchema() string {
	edit := object{
		{"type", "object"},
		{"properties", object{
			{"op", object{{"type", "string"}}},
			{"criterion", object{{"type", "string"}}},
			{"name", object{{"type", "string"}}},
			{"value", object{{"type", "number"}}},
			{"directive", object{{"type", "string"}}},
			{"text", object{{"type", "string"}}},
		}},
		{"required", []string{"op"}},
		{"additionalProperties", false},
	}
	proposal := object{
		{"type", "object"},
		{"properties", object{
			{"edits", object{{"type", "array"}, {"items", edit}}},
			{"cites", object{{"type", "array"}, {"items", object{{"type", "string"}}}}},
			{"reason", object{{"type", "string"}}},
		}},
		{"required", []string{"edits", "cites", "reason"}},
		{"additionalProperties", false},
	}
	return mustJSON(object{
		{"type", "object"},
		{"properties", object{{"proposals", object{{"type", "array"}, {"items", proposal}}}}},
		{"required", []string{"proposals"}},
		{"additionalProperties", false},
	})
}
