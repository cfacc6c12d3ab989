package judging

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// The synthesiser (`judge --candidates --strategy merge`, spec §7.20)
// writes one answer from the accepted candidates, which is then judged as
// any answer is. It is an author, not a judge: it sits on the actor's
// seat — claude, tribunal.actor.model — called as every non-actor child
// is (no tools, no MCP server, the tree's settings not trusted), and it
// never sits on the jury of its own output: the jury's seats are the
// panel's judge types, and SynthesiserClash refuses a panel, meta-judge
// or pairwise judge that would call the synthesiser's own model.

// SynthesisWork is one synthesis to make: the task it belongs to, what
// the synthesiser is shown, where it runs and where its call record goes.
type SynthesisWork struct {
	Input            prompts.SynthesisInput
	Dir, ArtifactDir string
}

// SynthesiserModel is the model the synthesiser calls: the actor's.
func (j *Jury) SynthesiserModel() string { return j.params.ActorModel }

// SynthesiserClash is nil when no seat that judges a synthesis calls the
// synthesiser's model: no rep of any judge type on claude, nor the
// meta-judge (which is also the pairwise judge). Otherwise it names the
// seats, so that the synthesis cannot judge itself.
func (j *Jury) SynthesiserClash() error {
	m := j.SynthesiserModel()
	var clash []string
	for _, seat := range j.Panel() {
		t := seat.JudgeType
		if !j.prov.judges[t].IsClaude() {
			continue
		}
		for k := range max(j.cfg.Reps(t), 1) {
			if j.repModel(t, k) == m && !slices.Contains(clash, "judge "+t) {
				clash = append(clash, "judge "+t)
			}
		}
	}
	if j.prov.meta.IsClaude() && j.params.MetaModel == m {
		clash = append(clash, "the meta-judge")
	}
	if len(clash) == 0 {
		return nil
	}
	return &ConfigError{Err: fmt.Errorf("the synthesiser's model %s (tribunal.actor.model) also sits in judgement (%s): a merged answer would be judged by the model that wrote it", m, strings.Join(clash, ", ")),
		Hint: "set tribunal.actor.model to a model no judge or meta-judge uses, or use --strategy best"}
}

// Synthesise asks the synthesiser for one answer and records its call
// (call record 1 under ArtifactDir, its cost as the actor's). An error is
// a failed call or an answer outside the schema; no answer is made up.
func (j *Jury) Synthesise(ctx context.Context, w SynthesisWork, rec Recorder) (string, error) {
	if err := rec.Budget("actor", 1); err != nil {
		return "", err
	}
	call := claude.Call{
		Role: "synthesiser", SystemPrompt: prompts.SynthesiserSystem, Model: j.SynthesiserModel(),
		Prompt: prompts.SynthesisPrompt(w.Input), JSONSchema: prompts.SynthesisSchema(), Tools: []string{},
		MaxTurns: metaMaxTurns, StrictMCP: true, MaxOutputTokens: j.params.ActorMaxTokens, Dir: w.Dir, Timeout: j.params.MetaTimeout,
	}
	spec := provider.Spec{}
	res, err := j.prov.deps.Runner(spec).Run(ctx, call)
	rec.Write(records.CallPath(w.ArtifactDir, 1, "synthesiser"), CallRecord(spec, records.CallMeta{Role: "synthesiser"}, call, res, err))
	rec.AddCost("actor", res)
	if err != nil {
		return "", fmt.Errorf("the synthesiser: %w", err)
	}
	text := res.Text
	if res.Structured != nil {
		text = string(res.Structured)
	}
	obj, err := verdict.ParseOutput(text)
	if err != nil {
		return "", fmt.Errorf("the synthesiser's answer: %w", err)
	}
	var answer string
	if json.Unmarshal(obj["answer"], &answer) != nil || strings.TrimSpace(answer) == "" {
		return "", fmt.Errorf("the synthesiser's answer has no answer text")
	}
	return answer, nil
}
