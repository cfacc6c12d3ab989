// Package config resolves tribunal's layered configuration (spec §2.1–2.5):
// embedded defaults, the plugin's config.json and four Claude Code settings
// files.
package config

import (
	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/warncap"

	_ "embed"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
)

// defaultsJSON is the plugin's config.json, compiled in so that the
// configuration can never resolve to empty (spec §2.2 rule 6, spec §A.2). The
// repository's top-level config.json must stay a byte-identical copy.
//
//go:embed defaults.json
var defaultsJSON []byte

// DefaultsJSON returns the embedded plugin config.json.
func DefaultsJSON() []byte {
	return append([]byte(nil), defaultsJSON...)
}

// maxFileSize caps every configuration read; settings files are small, and
// an oversized one is far more likely a mistake than a configuration.
const maxFileSize = 1 << 20

const builtinSource = "(built-in defaults)"

// Sources locates the configuration layers and receives diagnostics.
type Sources struct {
	// PluginRoot is $CLAUDE_PLUGIN_ROOT; its config.json is layer 1.
	// Empty means no plugin file: the embedded defaults stand alone.
	PluginRoot string
	// Home is the user's home directory, for ~/.claude/settings*.json
	// (layers 2–3). Empty means those layers are absent.
	Home string
	// WorktreeRoot is the git worktree root (spec §9.2), for
	// <repo>/.claude/settings*.json (layers 4–5). Empty means no
	// repository: those layers are absent.
	WorktreeRoot string
	// PolicyRoot, when set, is where layers 4–5 are read instead of
	// WorktreeRoot: a review of a change someone else wrote reads the
	// repository's settings from the base commit (internal/review
	// PolicyTree), never from the change. WorktreeRoot stays the
	// repository's identity (the command-judge allowlist names it).
	PolicyRoot string
	// Profile, when set, is the --profile flag's profile (spec §2.12),
	// which wins over tribunal.profile in the files. The caller checks the
	// name (ProfileError); Load ignores a name that is not a profile.
	Profile string
	// Warn receives each diagnostic as one complete stderr line; nil drops
	// them.
	Warn func(string)
}

// Config is the merged configuration. It is read-only after Load.
type Config struct {
	tree *node // the merged "tribunal" object
	home string
	warn func(string)
	// pluginFile is the plugin's config.json, whose values are defaults.
	pluginFile string
	// secretFiles gathers tribunal.secret_files from every layer: it only
	// adds (SecretFiles).
	secretFiles []string
	// profile is the profile in effect (spec §2.12).
	profile string
	// profileSrc is the layer that chose it (builtinSource for standard
	// by default, or in place of a name that is no profile).
	profileSrc string
}

// layer is one settings file.
type layer struct {
	path string
	// repo marks layers 4–5, which come from the repository under review
	// and so may not pick the executable tribunal runs as claude.
	repo bool
}

// Load merges the configuration layers of spec §2.2. It never fails: a layer
// that is missing is skipped silently, and one that cannot be used is
// skipped with a warning naming the file, the other layers still applying.
func Load(src Sources) *Config {
	warn := src.Warn
	if warn == nil {
		warn = func(string) {}
	}
	tree := builtinTree(warn)
	var pluginFile string
	secrets := collectSecretFiles(nil, tree, warn)
	// The profile's layer goes under the files', but which profile is in
	// effect is known only once every file is read: the layers are
	// gathered first and merged after.
	var base, files []*node
	if src.PluginRoot != "" {
		path := pluginConfigPath(src)
		pluginFile = path
		w := warncap.New(warn, path)
		if data, ok := readCapped(path, w.Warn); ok {
			t := pluginLayer(data, path, w.Warn)
			secrets = collectSecretFiles(secrets, t, w.Warn)
			base = append(base, t)
		}
		w.Flush()
	}
	for _, l := range settingsLayers(src) {
		// A file cannot flood stderr: past the first few warnings about
		// it, a count.
		w := warncap.New(warn, l.path)
		if data, ok := readCapped(l.path, w.Warn); ok {
			t := settingsLayer(data, l, w.Warn)
			if l.repo {
				// The allowlist is final once the user's own layers are
				// merged: a repository can neither extend it nor use it
				// for another repository.
				guardCommandJudges(t, l.path, src.WorktreeRoot, allowedRepos(mergeAll(tree.clone(), cloneAll(base), cloneAll(files)), src.Home), w.Warn)
			}
			secrets = collectSecretFiles(secrets, t, w.Warn)
			files = append(files, t)
		}
		w.Flush()
	}
	profile, profileSrc := chooseProfile(src.Profile, append(append([]*node{tree}, base...), files...), warn)
	if p := profileLayer(profile); p != nil {
		base = append(base, p)
	}
	tree = mergeAll(tree, base, files)
	if src.Profile != "" {
		tree.set("profile", &node{raw: []byte(strconv.Quote(profile)), src: profileSrc})
	}
	return &Config{tree: tree, home: src.Home, warn: warn, pluginFile: pluginFile, secretFiles: secrets, profile: profile, profileSrc: profileSrc}
}

// parsedDefaults is the embedded defaults' tree, parsed once: a command
// loads the configuration up to five times (the redactor, the disabled
// check, the change bounds, claude's path, the jury), and parsing the
// same constant each time was a fifth of a cached review's own work.
// nil when the embedded file is unusable, with its warnings kept.
var parsedDefaults = sync.OnceValues(func() (*node, []string) {
	var warnings []string
	tree := pluginLayer(defaultsJSON, builtinSource, func(s string) { warnings = append(warnings, s) })
	return tree, warnings
})

// builtinTree is a copy of the defaults' tree for one Load to merge into
// (merging modifies it), its warnings said again to each Load's warn.
func builtinTree(warn func(string)) *node {
	tree, warnings := parsedDefaults()
	for _, w := range warnings {
		warn(w)
	}
	if tree == nil {
		// Unreachable while the embedded file is valid, which a test
		// asserts; kept so that a broken build still cannot crash here.
		return &node{kids: map[string]*node{}, src: builtinSource}
	}
	return tree.clone()
}

// mergeAll lays each of base, then each of files, over tree, in order;
// like merge, it may modify tree and the layers.
func mergeAll(tree *node, base, files []*node) *node {
	for _, l := range append(append([]*node(nil), base...), files...) {
		tree = merge(tree, l)
	}
	return tree
}

// pluginConfigPath is the plugin's config.json (layer 1); src.PluginRoot
// must be set.
func pluginConfigPath(src Sources) string {
	return filepath.Join(src.PluginRoot, "config.json")
}

// settingsLayers lists the Claude Code settings files of src (layers 2–5),
// in merge order.
func settingsLayers(src Sources) []layer {
	var layers []layer
	if src.Home != "" {
		layers = append(layers,
			layer{path: filepath.Join(src.Home, ".claude", "settings.json")},
			layer{path: filepath.Join(src.Home, ".claude", "settings.local.json")})
	}
	repo := src.WorktreeRoot
	if src.PolicyRoot != "" {
		repo = src.PolicyRoot
	}
	if repo != "" {
		layers = append(layers,
			layer{path: filepath.Join(repo, ".claude", "settings.json"), repo: true},
			layer{path: filepath.Join(repo, ".claude", "settings.local.json"), repo: true})
	}
	return layers
}

// pluginLayer reads a whole config.json (layer 1) and returns its tribunal
// object, or nil when the layer contributes nothing.
func pluginLayer(data []byte, path string, warn func(string)) *node {
	top := parseTop(data, path, warn)
	if top == nil {
		return nil
	}
	t := top.get("tribunal")
	if !t.isNull() && !t.isObject() {
		warn(fmt.Sprintf("%s: \"tribunal\" is not an object; file ignored", path))
		return nil
	}
	prune(top, pluginSpec(), "", warn)
	return top.get("tribunal")
}

// settingsLayer reads a Claude Code settings file (layers 2–5) and returns
// its tribunal object, or nil when it contributes nothing. Every other
// top-level key belongs to Claude Code or other plugins and is not ours to
// judge.
func settingsLayer(data []byte, l layer, warn func(string)) *node {
	top := parseTop(data, l.path, warn)
	if top == nil {
		return nil
	}
	t := top.get("tribunal")
	if t.isNull() {
		return nil
	}
	if !t.isObject() {
		warn(fmt.Sprintf("%s: \"tribunal\" is not an object; file ignored", l.path))
		return nil
	}
	prune(t, tribunalSpec(), "tribunal", warn)
	if l.repo {
		for _, k := range userOnlyKeys {
			if p := t.at(k.parent, k.key); !p.isNull() {
				warn(fmt.Sprintf("%s: repository settings may not %s; key %q ignored",
					l.path, k.why, "tribunal."+k.parent+"."+k.key))
				t.get(k.parent).del(k.key)
			}
		}
	}
	if p := t.at("trust", "ledger_key"); l.repo && !p.isNull() {
		// The ledger's anchor must live outside what the ledger's
		// attacker can write; a repository is the least of those.
		warn(fmt.Sprintf("%s: repository settings may not set the ledger's trust anchor; key %q ignored",
			l.path, "tribunal.trust.ledger_key"))
		t.get("trust").del("ledger_key")
	}
	if p := t.at("retention_days"); l.repo && !p.isNull() {
		// How long your records are kept is yours to say: a repository
		// that could shorten it could have `gc --records` erase the
		// records of what was done to it.
		warn(fmt.Sprintf("%s: repository settings may not choose how long your records are kept; key %q ignored",
			l.path, "tribunal.retention_days"))
		t.del("retention_days")
	}
	guardProviders(t, l.path, l.repo, warn)
	return t
}

// userOnlyKeys are settings a repository's own files may not set: they
// would let whoever wrote the repository choose what tribunal executes or
// widen what a judge reading that repository can reach.
var userOnlyKeys = []struct{ parent, key, why string }{
	{"claude", "path", "choose the claude executable"},
	{"stop_hook", "tools", "give the judge tools"},
	{"receipts", "notes_ref", "choose where receipts are written"},
	{"telemetry", "otlp_endpoint", "choose where traces of your verdicts are sent"},
}

// parseTop parses a layer and checks that its top level is an object; it
// returns nil, after a warning, when the file is unusable (spec §2.2 rules 2, 5).
func parseTop(data []byte, path string, warn func(string)) *node {
	// The tree below is built recursively: bound its depth first.
	if err := nesting.JSON(data); err != nil {
		warn(fmt.Sprintf("%s: %v; file ignored", path, err))
		return nil
	}
	if msg := checkJSON(data); msg != "" {
		warn(fmt.Sprintf("%s: %s; file ignored", path, msg))
		return nil
	}
	top, err := parseNode(data, path)
	if err != nil {
		warn(fmt.Sprintf("%s: invalid JSON: %v; file ignored", path, err))
		return nil
	}
	if !top.isObject() {
		warn(fmt.Sprintf("%s: top level is not a JSON object; file ignored", path))
		return nil
	}
	return top
}

// readCapped reads an optional layer or overlay (see store.ReadOptional).
func readCapped(path string, warn func(string)) ([]byte, bool) {
	return store.ReadOptional(path, maxFileSize, warn)
}
