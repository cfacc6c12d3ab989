package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging/cmdjudge"
	"github.com/tribunal-cc/tribunal/internal/judging/evaluator"
	"github.com/tribunal-cc/tribunal/internal/judging/schemaproto"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store/retention"
)

// layers is the configuration and rubric set in effect in the current
// directory, as a run started here would see them.
type layers struct {
	root    string // the git worktree root; "" outside a repository
	files   []config.Layer
	cfg     *config.Config
	rubrics rubric.Set
	// schemas compiles the rubrics' JSON Schemas (c.schemas).
	schemas schemaproto.Validator
}

// loadLayers reads the configuration and the rubric set, sending every
// diagnostic to warn.
func (c *cli) loadLayers(warn func(string)) layers {
	l := layers{schemas: c.schemas()}
	if dir, err := os.Getwd(); err == nil {
		if root, err := projectkey.FindWorktreeRoot(dir); err == nil {
			l.root = root
		}
	}
	src := config.Sources{
		PluginRoot: c.getenv("CLAUDE_PLUGIN_ROOT"), Home: c.home(), WorktreeRoot: l.root, Warn: warn,
	}
	l.files = config.Layers(src)
	l.cfg = config.Load(src)
	opts := rubric.OverlayPaths(c.home(), l.root)
	opts.Builtins = l.cfg.BuiltinRubrics()
	opts.BuiltinsOrigin = l.cfg.BuiltinRubricsSource()
	opts.Warn = warn
	l.rubrics = rubric.LoadSet(opts)
	return l
}

// defaultDirectives are the directives of the rubric a run started here
// selects by default (none when it does not exist).
func (l layers) defaultDirectives() []string {
	if r, ok := l.rubrics.Lookup(l.cfg.DefaultRubricID()); ok {
		return r.Directives
	}
	return nil
}

// simpleFlags parses the flags of a command that takes no arguments.
func (c *cli) simpleFlags(name string, args []string, setup func(fs *flag.FlagSet)) bool {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	setup(fs)
	if err := fs.Parse(args); err != nil {
		c.flagError(name, fs, err)
		return false
	}
	if fs.NArg() > 0 {
		c.errorf("%s takes no arguments, got %q%s", name, fs.Arg(0), flagForWord(fs, fs.Arg(0)))
		c.hint("tribunal-session %s -h", name)
		return false
	}
	return true
}

type rubricView struct {
	ID       string          `json:"id"`
	Default  bool            `json:"default"`
	Origin   string          `json:"origin"`
	Criteria []criterionView `json:"criteria"`
	// Directives are the rubric's directives (spec §2.6); absent when none,
	// so the output of rubrics without them is what it was.
	Directives []string `json:"directives,omitempty"`
	Valid      bool     `json:"valid"`
	Error      string   `json:"error,omitempty"`
}

// criterionView is a criterion as read; a weight or min_pass that is not a
// number is null (the rubric's error says why).
type criterionView struct {
	Name    string   `json:"name"`
	Weight  *float64 `json:"weight"`
	MinPass *float64 `json:"min_pass"`
}

// rubricsCmd lists the rubric set in effect here.
func (c *cli) rubricsCmd(_ context.Context, args []string) int {
	var asJSON bool
	if !c.simpleFlags("rubrics", args, func(fs *flag.FlagSet) { fs.BoolVar(&asJSON, "json", false, "") }) {
		return exitUsage
	}
	l := c.loadLayers(c.warning)
	defaultID := l.cfg.DefaultRubricID()
	views := []rubricView{}
	// --json carries every criterion; the table only counts them.
	for _, r := range l.rubrics.All() {
		v := rubricView{ID: r.ID, Default: r.ID == defaultID, Origin: r.Origin, Criteria: []criterionView{}, Valid: true, Directives: r.Directives}
		for _, cr := range r.Criteria {
			v.Criteria = append(v.Criteria, criterionView{cr.Name, cr.Weight, cr.MinPass})
		}
		if err := rubric.Validate(&r); err != nil {
			v.Valid, v.Error = false, err.Error()
		}
		views = append(views, v)
	}
	if asJSON {
		c.printJSON(struct {
			DefaultID string       `json:"default_id"`
			Rubrics   []rubricView `json:"rubrics"`
		}{defaultID, views})
		return 0
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tCRITERIA\tFROM")
	for _, v := range views {
		id, status := v.ID, "valid"
		if v.Default {
			id += " (default)"
		}
		if !v.Valid {
			status = "INVALID"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", safe(id), status, len(v.Criteria), safe(v.Origin))
	}
	tw.Flush()
	for _, v := range views {
		writeDirectives(c.stdout, v.ID, v.Directives)
	}
	for _, v := range views {
		if !v.Valid {
			fmt.Fprintf(c.stdout, "\n%s is invalid: %s\n", safe(v.ID), safe(v.Error))
		}
	}
	if !l.rubrics.Has(defaultID) {
		fmt.Fprintf(c.stdout, "\nthe default rubric %q (tribunal.rubric.default_id) does not exist\n", safe(defaultID))
	}
	return 0
}

// writeDirectives lists a rubric's directives under the table (none,
// nothing), each on its own numbered line made safe for a terminal.
func writeDirectives(w io.Writer, id string, directives []string) {
	if len(directives) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s directives: %d\n", safe(id), len(directives))
	for i, d := range directives {
		fmt.Fprintf(w, "  %d. %s\n", i+1, safe(d))
	}
}

// configCmd prints the effective settings with their sources; --check
// validates every layer and rubric instead.
func (c *cli) configCmd(ctx context.Context, args []string) int {
	var check, asJSON bool
	if !c.simpleFlags("config", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&check, "check", false, "")
		fs.BoolVar(&asJSON, "json", false, "")
	}) {
		return exitUsage
	}
	var problems []string
	collect := func(msg string) { problems = append(problems, msg) }
	warn := c.warning
	if check || asJSON {
		warn = collect
	}
	l := c.loadLayers(warn)
	if check {
		problems = l.problems(problems)
	}
	problems = dedupe(problems)
	if asJSON {
		if problems == nil {
			problems = []string{}
		}
		c.printJSON(struct {
			Layers   []config.Layer   `json:"layers"`
			Settings []config.Setting `json:"settings"`
			Problems []string         `json:"problems"`
			// Directives are the default rubric's (spec §2.10); absent
			// when it has none.
			Directives []string `json:"default_rubric_directives,omitempty"`
			// Store is the text's last line as numbers; null outside a
			// repository.
			Store *retention.Usage `json:"store"`
		}{l.files, l.cfg.Settings(), problems, l.defaultDirectives(), c.storeUsage(ctx, l.root)})
	} else if !check {
		fmt.Fprintln(c.stdout, "Layers, each over the ones before it:")
		fmt.Fprintln(c.stdout, "  (built-in defaults)")
		for _, f := range l.files {
			state := ""
			if !f.Present {
				state = "  (absent)"
			}
			fmt.Fprintf(c.stdout, "  %s%s\n", safe(f.Path), state)
		}
		fmt.Fprintln(c.stdout)
		tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "KEY\tVALUE\tFROM")
		for _, s := range l.cfg.Settings() {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", safe(s.Key), safe(shortValue(s.Value)), safe(s.Source))
		}
		tw.Flush()
		writeDirectives(c.stdout, "default rubric "+strconv.Quote(l.cfg.DefaultRubricID()), l.defaultDirectives())
		if line := c.poolLine(ctx, l.root); line != "" {
			fmt.Fprintln(c.stdout, "\n"+line)
		}
		if line := storeLine(c.storeUsage(ctx, l.root)); line != "" {
			fmt.Fprintln(c.stdout, line)
		}
	}
	if !check {
		return 0
	}
	if len(problems) > 0 {
		if !asJSON {
			for _, p := range problems {
				c.errorf("%s", safe(p))
			}
		}
		c.hint("%d problem(s) in the configuration or the rubrics; each line names the file or key to fix", len(problems))
		return exitUsage
	}
	if !asJSON {
		fmt.Fprintf(c.stdout, "configuration OK: %d settings, %d rubrics\n", len(l.cfg.Settings()), len(l.rubrics.IDs()))
	}
	return 0
}

// problems adds to loaded (what loading the layers warned about) every
// problem a run would stop on: the one check behind `config --check` and
// `doctor`.
func (l layers) problems(loaded []string) []string {
	out := append(loaded, l.cfg.Check(l.rubrics, l.root, os.Environ())...)
	out = append(out, provider.CheckAll(l.cfg.Providers(), os.Environ())...)
	if judges, err := l.cfg.CommandJudges(config.DefaultJudgeTimeout); err == nil {
		if _, err := cmdjudge.Configured(judges, l.root, os.Environ()); err != nil {
			out = append(out, err.Error())
		}
	}
	// A schema a rubric's evaluator names must exist and compile: checked
	// here as a run checks it, for every rubric that is otherwise valid.
	for _, r := range l.rubrics.All() {
		if rubric.Validate(&r) == nil {
			if _, err := evaluator.ForRubric(context.Background(), &r, l.root, l.schemas); err != nil {
				out = append(out, err.Error())
			}
		}
	}
	return dedupe(out)
}

// shortValue keeps the table readable: a list of objects (the built-in
// rubrics) is summarised; --json prints it whole.
func shortValue(v json.RawMessage) string {
	var items []json.RawMessage
	if json.Unmarshal(v, &items) == nil && len(items) > 0 && strings.HasPrefix(strings.TrimSpace(string(items[0])), "{") {
		return fmt.Sprintf("[%d objects; --json shows them]", len(items))
	}
	return string(v)
}

// safe flattens text that repository files supply (rubric ids, keys,
// paths, error messages quoting them) before it reaches a terminal.
func safe(s string) string { return safetext.OneLine(s, 0) }

func dedupe(list []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
