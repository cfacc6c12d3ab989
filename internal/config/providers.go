package config

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Provider settings (issue 15): which model client sits a judge seat, the
// meta-judge and the Stop-hook judge. Keys per object: provider, model,
// base_url, api_key_env, family; CLI paths under tribunal.codex.path and
// tribunal.gemini.path.

// Provider is one seat's provider settings as plain data: internal/llm/provider
// validates it against the environment and builds the client. Its fields
// match provider.Spec one for one, so that a conversion carries it over.
type Provider struct {
	Provider  string
	Model     string
	BaseURL   string
	APIKeyEnv string
	Family    string
	// Key is the dotted settings key of the seat, for messages.
	Key string
}

// cliPrograms are the model CLIs whose executable a settings key
// tribunal.<program>.path can name.
var cliPrograms = []string{"codex", "gemini"}

// providerKeys are the keys that decide which program runs and where the
// diff is sent: user-level decisions, dropped from repository settings.
var providerKeys = []string{"provider", "base_url", "api_key_env"}

// providerFields are the schema entries every provider-bearing object
// accepts; api_key is known only so that it can be refused by name.
func providerFields(fields map[string]*spec) map[string]*spec {
	for _, k := range []string{"provider", "base_url", "api_key_env", "family", "api_key"} {
		fields[k] = leaf(kindString)
	}
	return fields
}

// JudgeProvider returns the provider of type-t seats (judges.<t>.*).
func (c *Config) JudgeProvider(t string) Provider {
	return c.providerAt("tribunal.judges."+t, "judges", t)
}

// MetaProvider returns the meta-judge's provider (meta_judge.*).
func (c *Config) MetaProvider() Provider {
	return c.providerAt("tribunal.meta_judge", "meta_judge")
}

// StopProvider returns the Stop-hook judge's provider: stop_hook.* when
// stop_hook.provider is set, else that of the standard judge, whose model
// the hook already uses (spec §2.5).
func (c *Config) StopProvider() Provider {
	if s, ok := str(c.tree.at("stop_hook", "provider")); ok && s != "" {
		return c.providerAt("tribunal.stop_hook", "stop_hook")
	}
	return c.JudgeProvider("standard")
}

// providerAt reads the provider keys of the object at path. For another
// provider than claude the model must come from a settings file: the
// built-in model names are Claude's and mean nothing to other servers.
func (c *Config) providerAt(key string, path ...string) Provider {
	get := func(k string) string {
		s, _ := str(c.tree.at(append(path, k)...))
		return strings.TrimSpace(s)
	}
	s := Provider{
		Provider: get("provider"), BaseURL: get("base_url"),
		APIKeyEnv: get("api_key_env"), Family: get("family"), Key: key,
	}
	// The built-in model names are Claude's; only a settings file can name
	// another provider's model.
	if s.Provider != "" && s.Provider != "claude" {
		if n := c.tree.at(append(path, "model")...); !c.isDefault(n) {
			s.Model, _ = str(n)
		}
	}
	return s
}

// isDefault reports whether n came from the built-in defaults or the
// plugin's own config.json rather than from a settings file.
func (c *Config) isDefault(n *node) bool {
	return n == nil || n.src == builtinSource || n.src == c.pluginFile
}

// CLIPath returns tribunal.<program>.path (codex, gemini) with "~/"
// expanded, or "" to look the program up on PATH. Like the claude path, it
// can be set only by the plugin defaults and the user's own settings.
func (c *Config) CLIPath(program string) string {
	p, ok := str(c.tree.at(program, "path"))
	if !ok || p == "" {
		return ""
	}
	if rest, found := strings.CutPrefix(p, "~/"); found && c.home != "" {
		return filepath.Join(c.home, rest)
	}
	return p
}

// guardProviders enforces the provider trust boundary on one settings
// layer t: an API key is never read from any settings file, and a
// repository's settings cannot choose the provider, the endpoint, the key
// variable or a CLI executable (it could otherwise send the user's code,
// with the user's key, to a server of its choosing).
func guardProviders(t *node, path string, repo bool, warn func(string)) {
	if t == nil {
		return
	}
	each := func(fn func(obj *node, key string)) {
		if j := t.get("judges"); j.isObject() {
			for _, k := range append([]string(nil), j.keys...) {
				if o := j.get(k); o.isObject() {
					fn(o, "tribunal.judges."+k)
				}
			}
		}
		for _, k := range []string{"meta_judge", "stop_hook"} {
			if o := t.get(k); o.isObject() {
				fn(o, "tribunal."+k)
			}
		}
	}
	each(func(obj *node, key string) {
		if !obj.get("api_key").isNull() {
			warn(fmt.Sprintf("%s: key %q holds an API key, which tribunal never reads from a settings file; put the key in an environment variable and its name in %q; ignored",
				path, key+".api_key", key+".api_key_env"))
			obj.del("api_key")
		}
		if !repo {
			return
		}
		for _, k := range providerKeys {
			if !obj.get(k).isNull() {
				warn(fmt.Sprintf("%s: repository settings may not choose a judge's provider, endpoint or key; key %q ignored",
					path, key+"."+k))
				obj.del(k)
			}
		}
	})
	if !repo {
		return
	}
	for _, program := range cliPrograms {
		if p := t.at(program, "path"); !p.isNull() {
			warn(fmt.Sprintf("%s: repository settings may not choose the %s executable; key %q ignored",
				path, program, "tribunal."+program+".path"))
			t.get(program).del("path")
		}
	}
}

// Providers returns the provider settings of the meta-judge, the Stop
// hook, the standard judge, the finding verifier (severity.verify, when it is on) and
// every configured judge type: every client
// a run or the hook may call, for a check of all of them and for the
// credentials they may use.
func (c *Config) Providers() []Provider {
	out := []Provider{c.MetaProvider(), c.StopProvider(), c.JudgeProvider("standard")}
	if c.VerifyFindings().Enabled {
		out = append(out, c.VerifyProvider())
	}
	if j := c.tree.get("judges"); j.isObject() {
		for _, t := range j.keys {
			if j.get(t).isObject() {
				out = append(out, c.JudgeProvider(t))
			}
		}
	}
	return out
}
