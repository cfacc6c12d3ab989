package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/output"
	"github.com/tribunal-cc/tribunal/internal/proc"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
)

// finding is one line of doctor's screen: ok, a problem, or a hint under
// the line before it.
type finding struct {
	state string // "ok", "problem", "hint", "note"
	text  string
}

// doctor collects the findings of one run.
type doctor struct {
	lines    []finding
	problems int
}

func (d *doctor) ok(format string, args ...any) { d.add("ok", format, args...) }
func (d *doctor) problem(format string, args ...any) {
	d.problems++
	d.add("problem", format, args...)
}
func (d *doctor) hint(format string, args ...any) { d.add("hint", format, args...) }
func (d *doctor) add(state, format string, args ...any) {
	d.lines = append(d.lines, finding{state, safetext.OneLine(fmt.Sprintf(format, args...), 400)})
}

// tribunalHooks are the hooks the plugin registers, by Claude Code event,
// with the binary each runs.
var tribunalHooks = []struct{ event, bin string }{
	{"SessionStart", "session-start"},
	{"UserPromptSubmit", "prompt-submit"},
	{"Stop", "stop-gate"},
}

// doctorCmd checks, on one screen, what tribunal needs to work here: the
// claude CLI, the plugin and its hooks, the settings and rubrics, the
// store, the providers and the binaries. No model is called.
func (c *cli) doctorCmd(ctx context.Context, args []string) int {
	if !c.simpleFlags("doctor", args, func(*flag.FlagSet) {}) {
		return exitUsage
	}
	d := &doctor{}
	var loaded []string
	l := c.loadLayers(func(m string) { loaded = append(loaded, m) })
	c.doctorClaude(ctx, d)
	c.doctorSandbox(d)
	binDir := c.doctorBinaries(d)
	c.doctorPlugin(d, l.root)
	c.doctorHooks(d, binDir, l)
	if problems := l.problems(loaded); len(problems) > 0 {
		for _, p := range problems {
			d.problem("settings: %s", p)
		}
		d.hint("fix each key or file named above; 'tribunal-session config' shows every setting and its file")
	} else {
		d.ok("settings: every layer and %d rubrics validate", len(l.rubrics.IDs()))
	}
	if off, from := l.cfg.Disabled(); off {
		// Not a problem — the user's choice — but the first thing to
		// know when nothing tribunal does seems to happen.
		d.add("note", "switch: tribunal is turned off (tribunal.enabled is false in %s): the hooks do nothing, and run, review, judge, calibrate, rejudge and tune refuse", from)
		d.hint(offHint)
	}
	c.doctorStore(d)
	c.doctorProviders(d, l)
	for _, f := range d.lines {
		fmt.Fprintf(c.stdout, "%-8s %s\n", f.state, f.text)
	}
	if d.problems > 0 {
		fmt.Fprintf(c.stdout, "\n%d problem(s)\n", d.problems)
		return exitUsage
	}
	fmt.Fprintln(c.stdout, "\nno problems")
	return 0
}

// programs are tribunal's binaries, as the Makefile's BINARIES: the
// hooks, this program, and the helpers it runs from beside itself
// (ADR-017), each with what needs it.
var programs = []struct{ name, neededBy string }{
	{"tribunal-session", ""}, {"stop-gate", ""}, {"session-start", ""}, {"prompt-submit", ""},
	{"tribunal-schema", "json_schema evaluators and judge --schema"},
	{"tribunal-mcp", "the MCP server"},
	{"tribunal-otel", "trace export"},
}

// doctorBinaries checks that tribunal's binaries are where the plugin
// runs them: $CLAUDE_PLUGIN_ROOT/bin when Claude Code started this
// program, else beside it; and that the helper programs are beside this
// binary, the one place they are looked for. It returns the plugin's
// binary directory.
func (c *cli) doctorBinaries(d *doctor) string {
	dir := ""
	if root := c.getenv("CLAUDE_PLUGIN_ROOT"); root != "" {
		dir = filepath.Join(root, "bin")
	} else if self, err := os.Executable(); err == nil {
		dir = filepath.Dir(self)
	} else {
		d.problem("binaries: cannot find this program's path: %v", err)
		return ""
	}
	var missing []string
	for _, p := range programs {
		if !proc.Executable(filepath.Join(dir, p.name)) {
			missing = append(missing, p.name)
		}
	}
	if len(missing) > 0 {
		d.problem("binaries: %s missing from %s", strings.Join(missing, ", "), dir)
		d.hint("run 'make install' in the tribunal checkout")
		return dir
	}
	d.ok("binaries: %s", dir)
	c.doctorHelpers(d)
	return dir
}

// doctorHelpers checks that the helper programs sit beside this binary
// (resolved through a link), which is where it runs them from: a
// tribunal-session copied or linked elsewhere alone would refuse the
// features each one serves.
func (c *cli) doctorHelpers(d *doctor) {
	self := selfPath()
	var missing []string
	for _, p := range programs {
		if p.neededBy == "" {
			continue
		}
		if _, err := proc.Helper(self, p.name); err != nil {
			missing = append(missing, p.name+" ("+p.neededBy+")")
		}
	}
	if len(missing) > 0 {
		d.problem("helper programs: %s missing from %s", strings.Join(missing, ", "), proc.HelperDir(self))
		d.hint(output.ReinstallHint)
	}
}

// doctorPlugin reads Claude Code's settings for the plugin's enabledPlugins
// entry: the user's, then the project's and the local file, the last one
// that names it winning, as in Claude Code.
func (c *cli) doctorPlugin(d *doctor, root string) {
	files := []string{filepath.Join(c.home(), ".claude", "settings.json")}
	if root != "" {
		files = append(files, filepath.Join(root, ".claude", "settings.json"), filepath.Join(root, ".claude", "settings.local.json"))
	}
	name, enabled, from := "", false, ""
	for _, f := range files {
		var s struct {
			EnabledPlugins map[string]any `json:"enabledPlugins"`
		}
		data, err := store.ReadRegular(f, 1<<20)
		if err != nil || json.Unmarshal(data, &s) != nil {
			continue
		}
		for k, v := range s.EnabledPlugins {
			if strings.HasPrefix(k, "tribunal@") {
				name, from = k, f
				enabled, _ = v.(bool)
			}
		}
	}
	switch {
	case name == "" && c.getenv("CLAUDE_PLUGIN_ROOT") != "":
		d.ok("plugin: loaded from %s", c.getenv("CLAUDE_PLUGIN_ROOT"))
	case name == "":
		d.problem("plugin: tribunal is not installed in Claude Code (no tribunal@… in enabledPlugins of %s)", files[0])
		d.hint("run 'make install' in the tribunal checkout, or load it for one session with 'claude --plugin-dir <dir>'")
	case !enabled:
		d.problem("plugin: %s is disabled in %s", name, from)
		d.hint("run 'claude plugin enable %s', or set it to true there", name)
	default:
		d.ok("plugin: %s enabled (%s)", name, from)
	}
}

// doctorHooks checks the plugin's hooks.json beside the binaries registers
// each hook, that Claude Code's settings do not turn hooks off, and which
// of tribunal's hooks its settings turn on.
func (c *cli) doctorHooks(d *doctor, binDir string, l layers) {
	var reg struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	path := filepath.Join(filepath.Dir(binDir), "hooks", "hooks.json")
	data, err := store.ReadRegular(path, 1<<20)
	if err == nil {
		err = json.Unmarshal(data, &reg)
	}
	if err != nil {
		d.problem("hooks: cannot read %s: %v", path, err)
		d.hint("run 'make install' in the tribunal checkout")
		return
	}
	var missing []string
	for _, h := range tribunalHooks {
		found := false
		for _, group := range reg.Hooks[h.event] {
			for _, cmd := range group.Hooks {
				found = found || strings.Contains(cmd.Command, "/bin/"+h.bin)
			}
		}
		if !found {
			missing = append(missing, h.event)
		}
	}
	if len(missing) > 0 {
		d.problem("hooks: %s does not register %s", path, strings.Join(missing, ", "))
		d.hint("reinstall the plugin: 'make install'")
	} else {
		d.ok("hooks: SessionStart, UserPromptSubmit and Stop registered (%s)", path)
	}
	for _, f := range []string{filepath.Join(c.home(), ".claude", "settings.json"), filepath.Join(l.root, ".claude", "settings.json"), filepath.Join(l.root, ".claude", "settings.local.json")} {
		var s struct {
			DisableAllHooks bool `json:"disableAllHooks"`
		}
		if data, err := store.ReadRegular(f, 1<<20); err == nil && json.Unmarshal(data, &s) == nil && s.DisableAllHooks {
			d.problem("hooks: %s sets disableAllHooks: no hook of any plugin runs", f)
			d.hint("remove disableAllHooks from that file")
		}
	}
	on := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	d.ok("hooks: advisory Stop judge %s (tribunal.stop_hook.enabled), session-start notes %s", on(l.cfg.StopHook().Enabled), on(l.cfg.SessionStart().Enabled))
}

// doctorStore checks that the store takes a file.
func (c *cli) doctorStore(d *doctor) {
	onlooker, _ := events.ResolvePaths(c.getenv, c.home())
	dir := filepath.Join(onlooker, "tribunal")
	err := os.MkdirAll(dir, 0o700)
	if err == nil {
		var f *os.File
		if f, err = os.CreateTemp(dir, ".doctor-*"); err == nil {
			f.Close()
			err = os.Remove(f.Name())
		}
	}
	if err != nil {
		d.problem("store: %s is not writable: %v", dir, err)
		d.hint("set ONLOOKER_DIR to a directory you can write, or fix the permissions")
		return
	}
	d.ok("store: %s writable", dir)
}

// doctorProviders lists each configured seat's provider and whether what
// it needs is there: a CLI on PATH, an API key's variable set. No model is
// called.
func (c *cli) doctorProviders(d *doctor, l layers) {
	seen := map[string]bool{}
	for _, p := range provider.Specs(l.cfg.Providers()) {
		name := p.Name()
		if seen[name+p.Key] || p.IsClaude() {
			continue
		}
		seen[name+p.Key] = true
		if err := p.Validate(c.getenv); err != nil {
			continue // listed with the settings' problems
		}
		if name == provider.Codex || name == provider.Gemini {
			explicit := l.cfg.CLIPath(name)
			if _, err := claude.LocateProgram(name, explicit, c.getenv("PATH")); err != nil {
				if explicit != "" {
					d.problem("providers: %s uses %s: %s (tribunal.%s.path) is not an executable file", p.Key, name, explicit, name)
				} else {
					d.problem("providers: %s uses %s: %s is not on PATH", p.Key, name, name)
				}
				d.hint("install the %s CLI, or set tribunal.%s.path in ~/.claude/settings.json", name, name)
				continue
			}
		}
		d.ok("providers: %s uses %s", p.Key, name)
	}
	if len(seen) == 0 {
		d.ok("providers: every seat uses claude")
	}
}
