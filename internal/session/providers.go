package session

import (
	"github.com/tribunal-cc/tribunal/internal/claude"
	"github.com/tribunal-cc/tribunal/internal/jury"
	"github.com/tribunal-cc/tribunal/internal/provider"
	"github.com/tribunal-cc/tribunal/internal/provider/openai"
)

// providers holds the validated provider of every judge type and of the
// meta-judge for one run (internal/provider; settings judges.<type>.provider
// and meta_judge.provider).
type providers struct {
	deps   provider.Deps
	judges map[string]provider.Spec
	meta   provider.Spec
}

// setupProviders reads and checks the providers before any call: an
// unknown provider, a missing model or base URL, or an unset key variable
// is a configuration error naming the key.
func (r *runner) setupProviders(types []string) error {
	r.prov = providers{
		deps: provider.Deps{
			Claude: r.Claude, Getenv: r.Getenv, Environ: r.Environ,
			CodexPath: r.cfg.CLIPath(provider.Codex), GeminiPath: r.cfg.CLIPath(provider.Gemini),
			Redact: r.Redact,
			OpenAI: func(s provider.Spec) claude.Runner {
				return openai.Runner(openai.Options{Getenv: r.Getenv}, s)
			},
		},
		judges: map[string]provider.Spec{},
		meta:   provider.Of(r.cfg.MetaProvider()),
	}
	for _, t := range types {
		s := provider.Of(r.cfg.JudgeProvider(t))
		if err := s.Validate(r.Getenv); err != nil {
			return err
		}
		r.prov.judges[t] = s
	}
	if err := r.prov.meta.Validate(r.Getenv); err != nil {
		return err
	}
	if !r.prov.meta.IsClaude() {
		r.params.MetaModel = r.prov.meta.QualifiedModel("")
	}
	return nil
}

// seatModel is the model id of a type-t seat: the configured claude model,
// or the provider's qualified model.
func (r *runner) seatModel(t string) string {
	return r.prov.judges[t].QualifiedModel(r.cfg.JudgeModel(t))
}

// repModel is the model of rep k of a type-t seat; judges.<t>.models
// rotates claude models only.
func (r *runner) repModel(t string, k int) string {
	if s := r.prov.judges[t]; !s.IsClaude() {
		return s.QualifiedModel("")
	}
	return r.cfg.RepModel(t, k)
}

// judgeRunner is the runner of a type-t seat.
func (r *runner) judgeRunner(t string) claude.Runner {
	return r.prov.deps.Runner(r.prov.judges[t])
}

// metaRunner is the meta-judge's runner.
func (r *runner) metaRunner() claude.Runner {
	return r.prov.deps.Runner(r.prov.meta)
}

// seatInfo is what a type-t seat's verdict records about its client.
func (r *runner) seatInfo(t string) provider.Info {
	return r.prov.judges[t].Info(r.cfg.JudgeModel(t))
}

// panelFamilies lists the model families of the seats of types.
func (r *runner) panelFamilies(types []string) []string {
	specs := make([]provider.Spec, 0, len(types))
	for _, t := range types {
		specs = append(specs, r.prov.judges[t])
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
