package judging

import (
	"slices"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/judging/jury"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/llm/provider/openai"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// providers holds the validated provider of every judge type and of the
// meta-judge for one run (internal/llm/provider; settings judges.<type>.provider
// and meta_judge.provider).
type providers struct {
	deps   provider.Deps
	judges map[string]provider.Spec
	meta   provider.Spec
	// verify is the finding verifier's (severity.verify.*), when it is on.
	verify provider.Spec
}

// setupProviders reads and checks the providers before any call: an
// unknown provider, a missing model or base URL, or an unset key variable
// is a configuration error naming the key.
func (j *Jury) setupProviders(types []string) error {
	j.prov = providers{
		deps: provider.Deps{
			Claude: j.env.Claude, Getenv: j.env.Getenv, Environ: j.env.Environ,
			CodexPath: j.cfg.CLIPath(provider.Codex), GeminiPath: j.cfg.CLIPath(provider.Gemini),
			Redact: j.env.Redact,
			OpenAI: func(s provider.Spec) claude.Runner {
				return openai.Runner(openai.Options{Getenv: j.env.Getenv}, s)
			},
		},
		judges: map[string]provider.Spec{},
		meta:   provider.Of(j.cfg.MetaProvider()),
	}
	for _, t := range types {
		s := provider.Of(j.cfg.JudgeProvider(t))
		if err := s.Validate(j.env.Getenv); err != nil {
			return err
		}
		j.prov.judges[t] = s
	}
	if err := j.prov.meta.Validate(j.env.Getenv); err != nil {
		return err
	}
	if !j.prov.meta.IsClaude() {
		j.params.MetaModel = j.prov.meta.QualifiedModel("")
	}
	return nil
}

// seatModel is the model id of a type-t seat, as the seat's records and
// events name it: the configured claude model, or the provider's qualified
// model; for a seat of several reps, the models its reps actually call
// (repModel; judges.<t>.models rotates them), each once, in rep order,
// joined by ",". Naming only the first would credit one model with
// another's answers (issue 32).
func (j *Jury) seatModel(t string) string {
	n := j.cfg.Reps(t)
	if n <= 1 {
		return j.prov.judges[t].QualifiedModel(j.cfg.JudgeModel(t))
	}
	var models []string
	for k := range n {
		if m := j.repModel(t, k); !slices.Contains(models, m) {
			models = append(models, m)
		}
	}
	return strings.Join(models, ",")
}

// repModel is the model of rep k of a type-t seat; judges.<t>.models
// rotates claude models only.
func (j *Jury) repModel(t string, k int) string {
	if s := j.prov.judges[t]; !s.IsClaude() {
		return s.QualifiedModel("")
	}
	return j.cfg.RepModel(t, k)
}

// judgeRunner is the runner of a type-t seat.
func (j *Jury) judgeRunner(t string) claude.Runner {
	return j.prov.deps.Runner(j.prov.judges[t])
}

// metaRunner is the meta-judge's runner.
func (j *Jury) metaRunner() claude.Runner {
	return j.prov.deps.Runner(j.prov.meta)
}

// seatInfo is what a type-t seat's verdict records about its client.
func (j *Jury) seatInfo(t string) records.JudgeInfo {
	return j.prov.judges[t].Info(j.cfg.JudgeModel(t))
}

// panelFamilies lists the model families of the seats of types.
func (j *Jury) panelFamilies(types []string) []string {
	specs := make([]provider.Spec, 0, len(types))
	for _, t := range types {
		specs = append(specs, j.prov.judges[t])
	}
	return provider.Families(specs)
}

// seatTypes lists the judge types of seats in panel order.
func seatTypes(seats []jury.Seat) []string {
	out := make([]string, 0, len(seats))
	for _, s := range seats {
		out = append(out, s.JudgeType)
	}
	return out
}

// SeatCall is the runner and model of the panel's first seat: where a
// call that reasons like a judge but is not one (tune's proposer, spec
// §14.7) sits — the same provider, credentials, redaction and isolation.
// model replaces a claude seat's model when set; another family's seat
// keeps its own, since a Claude model name means nothing to it.
func (j *Jury) SeatCall(model string) (claude.Runner, string) {
	panel := j.Panel()
	if len(panel) == 0 {
		return j.env.Claude, model
	}
	t := panel[0].JudgeType
	if j.prov.judges[t].IsHeuristic() {
		return j.env.Claude, model
	}
	if j.prov.judges[t].IsClaude() && model != "" {
		return j.judgeRunner(t), model
	}
	return j.judgeRunner(t), j.seatModel(t)
}
