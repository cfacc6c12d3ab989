// Package otelcli is the tribunal-otel program's one command, export —
// its flags, its messages and exit statuses, and the live export after a
// task or review — kept apart from tribunal-session so that only this
// program links the OpenTelemetry SDK.
package otelcli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/tribunal-cc/tribunal/internal/output"
	"github.com/tribunal-cc/tribunal/internal/present/otelexport/otelconf"
	"github.com/tribunal-cc/tribunal/internal/version"
)

// exitUsage is the status of a usage error, as tribunal-session's.
const exitUsage = 2

// Deps is what the program takes from its process.
type Deps struct {
	Getenv func(string) string
	// Environ is the environment of the git child that --project runs.
	Environ []string
	// Home is the user's home directory (settings, the default store).
	Home           string
	Stdout, Stderr io.Writer
	Now            func() time.Time
}

type cli struct {
	Deps
	say output.Session
}

// Main runs tribunal-otel with args (without the program name) and
// returns its exit status. tribunal-session runs it beside itself; its
// `export` is the user's way in, and `export -h` is answered there too.
func Main(ctx context.Context, args []string, d Deps) int {
	if d.Now == nil {
		d.Now = time.Now
	}
	c := &cli{Deps: d, say: output.Session{W: d.Stderr}}
	if len(args) == 0 {
		c.say.Errorf("%s: say what to do: export", otelconf.Program)
		c.say.Hint("tribunal-session export -h")
		return exitUsage
	}
	switch args[0] {
	case "export":
		if wantsHelp(args[1:]) {
			fmt.Fprint(c.Stdout, otelconf.ExportHelp)
			return 0
		}
		return c.exportCmd(ctx, args[1:])
	case "--version", "version":
		fmt.Fprintf(c.Stdout, "%s %s\n", otelconf.Program, version.Version)
		return 0
	case "-h", "-help", "--help", "help":
		fmt.Fprintf(c.Stdout, "%s export …: what `tribunal-session export` runs; see tribunal-session export -h\n", otelconf.Program)
		return 0
	}
	c.say.Errorf("%s: unknown command %q (it has one: export)", otelconf.Program, args[0])
	c.say.Hint("tribunal-session export -h")
	return exitUsage
}

// wantsHelp reports a -h, -help or --help before any "--", as
// tribunal-session reads a command's arguments.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

type exportFlags struct {
	otlp    bool
	since   string
	project string
	tasks   []string
	timeout time.Duration
	quiet   bool
	live    bool
}

func (c *cli) exportCmd(ctx context.Context, args []string) int {
	var f exportFlags
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&f.otlp, "otlp", false, "")
	fs.StringVar(&f.since, "since", "", "")
	fs.StringVar(&f.project, "project", "", "")
	fs.Func("task", "", func(v string) error { f.tasks = append(f.tasks, v); return nil })
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "")
	fs.BoolVar(&f.quiet, "quiet", false, "")
	fs.BoolVar(&f.live, otelconf.LiveFlag, false, "")
	if err := fs.Parse(args); err != nil {
		c.say.Errorf("export: %s", output.FlagError(fs, err, func(name string) bool { return name == otelconf.LiveFlag }))
		c.say.Hint("tribunal-session export -h")
		return exitUsage
	}
	switch {
	case fs.NArg() > 0:
		c.say.Errorf("export: unexpected argument %q", fs.Arg(0))
		return exitUsage
	case !f.otlp:
		c.say.Errorf("export: say where to: --otlp (the only exporter)")
		return exitUsage
	case f.timeout <= 0:
		c.say.Errorf("export: --timeout must be positive (got %s)", f.timeout)
		return exitUsage
	case f.live && len(f.tasks) != 1:
		c.say.Errorf("export: --%s sends one --task", otelconf.LiveFlag)
		return exitUsage
	case f.live:
		c.live(ctx, f.tasks[0])
		return 0
	}
	cfg, code := c.telemetry(f.quiet)
	if code != 0 || !cfg.Enabled {
		return code
	}
	src, code := c.exportSource(ctx, f)
	if code != 0 {
		return code
	}
	return c.export(ctx, cfg, src, f.timeout, f.quiet)
}

// errorf, warnf and progressf word this program's lines as
// tribunal-session's (internal/output).
func (c *cli) errorf(format string, args ...any) { c.say.Errorf(format, args...) }
func (c *cli) warnf(format string, args ...any)  { c.say.Warning(fmt.Sprintf(format, args...)) }
func (c *cli) progressf(format string, args ...any) {
	c.say.Progress(fmt.Sprintf(format, args...))
}
