package config

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// Setting is one effective configuration value and the layer that supplied
// it: the answer to "why did tribunal do that?".
type Setting struct {
	Key    string          `json:"key"`    // dotted, from "tribunal", e.g. tribunal.session.score_threshold
	Value  json.RawMessage `json:"value"`  // compact JSON
	Source string          `json:"source"` // a file path, or "(built-in defaults)"
}

// Layer is one configuration file Load considers.
type Layer struct {
	Path string `json:"path"`
	// Present is false when the file does not exist (the layer is skipped
	// silently); a file that exists but could not be used was warned about.
	Present bool `json:"present"`
}

// Layers lists the files Load reads for src, in merge order, after the
// built-in defaults: the plugin's config.json, then the settings files.
func Layers(src Sources) []Layer {
	var paths []string
	if src.PluginRoot != "" {
		paths = append(paths, pluginConfigPath(src))
	}
	for _, l := range settingsLayers(src) {
		paths = append(paths, l.path)
	}
	out := make([]Layer, len(paths))
	for i, p := range paths {
		_, err := os.Lstat(p)
		out[i] = Layer{Path: p, Present: err == nil}
	}
	return out
}

// UnsetSource is the Source of a Setting no layer sets and the built-in
// defaults do not name either: its value is null, and the code's own
// fallback applies (the README's table says which).
const UnsetSource = "(unset)"

// Settings returns every effective leaf value of the merged configuration
// in document order (the defaults' order, then keys only later layers
// have), then, sorted, every other key the schema names, as null from
// UnsetSource: a user looking for tribunal.trust.ledger_key finds it even
// though nothing sets it. The keys under judges.<type> and
// command_judges.<name> are listed only as set. Keys that Load dropped as
// unknown, mistyped or not allowed in their layer are not here: they have
// no effect.
func (c *Config) Settings() []Setting {
	var out []Setting
	seen := map[string]bool{}
	var walk func(n *node, key string)
	walk = func(n *node, key string) {
		if n.isObject() {
			for _, k := range n.keys {
				walk(n.kids[k], key+"."+k)
			}
			return
		}
		var buf bytes.Buffer
		n.appendJSON(&buf)
		out = append(out, Setting{Key: key, Value: buf.Bytes(), Source: n.src})
		seen[key] = true
	}
	walk(c.tree, "tribunal")
	for _, key := range fixedLeaves(tribunalSpec(), "tribunal") {
		if !seen[key] {
			out = append(out, Setting{Key: key, Value: json.RawMessage("null"), Source: UnsetSource})
		}
	}
	// The profile is shown as the one in effect: standard when nothing
	// names one (not null), and standard in place of a name that is no
	// profile (Load warned about it).
	for i := range out {
		if out[i].Key == profileKey {
			out[i].Value = json.RawMessage(strconv.Quote(c.Profile()))
			out[i].Source = cmp.Or(c.profileSrc, builtinSource)
		}
	}
	return out
}

// profileKey is tribunal.profile as Settings names it.
const profileKey = "tribunal.profile"

// fixedLeaves lists, sorted, the dotted keys of every leaf under s whose
// path has no wildcard (judges.<type>, command_judges.<name>). api_key is
// left out: the schema knows it only to refuse a key written in a file.
func fixedLeaves(s *spec, prefix string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(s.fields)) {
		if f := s.fields[k]; k == "api_key" {
			continue
		} else if f.kind == kindObject {
			out = append(out, fixedLeaves(f, prefix+"."+k)...)
		} else {
			out = append(out, prefix+"."+k)
		}
	}
	return out
}

// KeyPattern returns the schema's name for key, a dotted key under
// "tribunal" ("tribunal.judges.security.model"), with a wildcard segment
// written <type> (under judges) or <name> (under command_judges):
// "tribunal.judges.<type>.model". ok is false when key is not a leaf
// the schema knows — an event's name, say, or an object.
func KeyPattern(key string) (pattern string, ok bool) {
	parts := strings.Split(key, ".")
	if len(parts) < 2 || parts[0] != "tribunal" {
		return "", false
	}
	s := tribunalSpec()
	out := []string{"tribunal"}
	for _, p := range parts[1:] {
		switch {
		case s.kind != kindObject:
			return "", false
		case s.fields[p] != nil:
			out, s = append(out, p), s.fields[p]
		case s.other != nil:
			label := "<name>"
			if out[len(out)-1] == "judges" {
				label = "<type>"
			}
			out, s = append(out, label), s.other
		default:
			return "", false
		}
	}
	if s.kind == kindObject {
		return "", false
	}
	return strings.Join(out, "."), true
}

// BuiltinRubricsSource names the layer that supplied
// tribunal.rubric.builtins, for rubric messages.
func (c *Config) BuiltinRubricsSource() string {
	if n := c.tree.at("rubric", "builtins"); n != nil {
		return n.src + ", tribunal.rubric.builtins"
	}
	return ""
}

// Check returns every problem a run would stop on, beyond the warnings
// Load already reported through Sources.Warn: each rubric of set that is
// invalid, a default rubric that does not exist, every tribunal.session.*
// value a run would reject, the severity policy, and the command judges
// (which would run in worktreeRoot with environ). Reading the other typed
// settings here also sends their fallback warnings to Sources.Warn.
func (c *Config) Check(set rubric.Set, worktreeRoot string, environ []string) []string {
	var out []string
	for _, r := range set.All() {
		if err := rubric.Validate(&r); err != nil {
			out = append(out, err.Error())
		}
	}
	if id := c.DefaultRubricID(); !set.Has(id) {
		out = append(out, fmt.Sprintf("tribunal.rubric.default_id: no rubric with id %q (known: %v)", id, set.IDs()))
	}
	// A rubric that sets no policy field makes Session read every
	// tribunal.session value a run could fall back on.
	probe, _ := rubric.Parse(json.RawMessage(`{"id":"(configuration check)","criteria":[{"name":"all","weight":1,"min_pass":1}]}`))
	_, err := c.Session(&probe)
	reported := map[string]bool{}
	for _, e := range Errors(err) {
		out = append(out, e.Error())
		var ke *KeyError
		if errors.As(e, &ke) {
			reported[ke.Key] = true
		}
	}
	if _, err := c.SeverityFailAt(); err != nil {
		out = append(out, err.Error())
	}
	if _, err := c.CommandJudges(DefaultJudgeTimeout); err != nil {
		out = append(out, err.Error())
	}
	// The hooks' readers fall back, with a warning, on a value a run
	// rejects (the stop hook's score_threshold): said once, as the error.
	warn := c.warn
	c.warn = func(msg string) {
		for key := range reported {
			if strings.Contains(msg, key+":") {
				return
			}
		}
		warn(msg)
	}
	defer func() { c.warn = warn }()
	c.StopHook()
	c.SessionStart()
	c.Trust()
	return out
}
