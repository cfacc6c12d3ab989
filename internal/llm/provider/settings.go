package provider

import (
	"strings"

	"github.com/tribunal-cc/tribunal/internal/config"
)

// Of is the client spec of a seat's provider settings, which internal/config
// reads as plain data.
func Of(p config.Provider) Spec { return Spec(p) }

// CheckAll validates, against the environment environ, every provider
// settings in ps (config.Providers: the meta-judge, the Stop hook and every
// configured judge type): the problems a run or the hook would stop on,
// each once.
func CheckAll(ps []config.Provider, environ []string) []string {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	getenv := func(k string) string { return env[k] }
	var out []string
	seen := map[string]bool{}
	for _, p := range ps {
		if err := Of(p).Validate(getenv); err != nil && !seen[err.Error()] {
			seen[err.Error()] = true
			out = append(out, err.Error())
		}
	}
	return out
}

// Specs is Of over a list, as config.Providers returns it.
func Specs(ps []config.Provider) []Spec {
	out := make([]Spec, len(ps))
	for i, p := range ps {
		out[i] = Of(p)
	}
	return out
}
