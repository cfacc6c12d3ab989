package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/present/otelexport"
	"github.com/tribunal-cc/tribunal/internal/store/events"
)

// exitExportFailed is export's status when the collector did not take
// every span (unreachable, slow past the deadline, or refusing).
const exitExportFailed = 40

const exportHelp = `usage: tribunal-session export --otlp [--since DURATION|TIME] [--project DIR]
                               [--task ID]... [--timeout DURATION] [--quiet]

Sends recorded tasks and advisory judgements to an OpenTelemetry collector
as traces, over OTLP/HTTP: a trace per task or judgement (its id is the
task's ULID), a span per iteration, per agent and per model call, and the
gate decision. The same task always gives the same trace and span ids, so
sending it again (after a live export, or twice) does not duplicate it.

The collector is OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else
OTEL_EXPORTER_OTLP_ENDPOINT (+ /v1/traces), else the user-level setting
tribunal.telemetry.otlp_endpoint. OTEL_EXPORTER_OTLP_HEADERS,
OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf, http/json), OTEL_SERVICE_NAME
and OTEL_RESOURCE_ATTRIBUTES are honoured.

  --otlp             send over OTLP (the only exporter; required)
  --since WHEN       only what was recorded since WHEN: a duration back
                     from now (24h, 7d) or an RFC 3339 time; default all
  --project DIR      only the tasks of the git repository at DIR
  --task ID          only this task or judgement (repeatable)
  --timeout D        the whole export's deadline (default 30s)
  --quiet            print nothing when there is nothing to do or no
                     collector is configured (how run and the Stop hook's
                     judge call it)

Exit status: 0 every span was sent (or there was nothing to send); 2 usage,
no collector configured, or an OTEL_* value that cannot be used; 40 the
collector did not take every span (unreachable, too slow, or refusing):
nothing recorded is lost, run export again.
`

type exportFlags struct {
	otlp    bool
	since   string
	project string
	tasks   []string
	timeout time.Duration
	quiet   bool
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
	if err := fs.Parse(args); err != nil {
		return c.flagError("export", fs, err)
	}
	switch {
	case fs.NArg() > 0:
		c.errorf("export: unexpected argument %q", fs.Arg(0))
		return exitUsage
	case !f.otlp:
		c.errorf("export: say where to: --otlp (the only exporter)")
		return exitUsage
	case f.timeout <= 0:
		c.errorf("export: --timeout must be positive (got %s)", f.timeout)
		return exitUsage
	}
	cfg, code := c.telemetry(f.quiet)
	if code != 0 || !cfg.Enabled {
		return code
	}
	src, code := c.exportSource(ctx, f)
	if code != 0 {
		return code
	}
	return c.export(ctx, cfg, src, otelexport.Options{Timeout: f.timeout, Retry: true}, f.quiet)
}

// telemetry resolves where traces go. A zero Config with code 0 means
// export is off and quiet said to say nothing about it.
func (c *cli) telemetry(quiet bool) (otelexport.Config, int) {
	cfg := config.Load(config.Sources{PluginRoot: c.getenv("CLAUDE_PLUGIN_ROOT"), Home: c.home(), Warn: c.warning})
	tc, err := otelexport.Resolve(c.getenv, cfg.OTLPEndpoint())
	if err != nil {
		c.errorf("export: %v", err)
		c.hint("fix or unset the variable; see docs/telemetry.md")
		return tc, exitUsage
	}
	if !tc.Enabled && !quiet {
		c.errorf("export: no collector is configured")
		c.hint("set OTEL_EXPORTER_OTLP_ENDPOINT (e.g. http://127.0.0.1:4318), or tribunal.telemetry.otlp_endpoint in ~/.claude/settings.json")
		return tc, exitUsage
	}
	return tc, 0
}

// exportSource turns export's flags into what to read.
func (c *cli) exportSource(ctx context.Context, f exportFlags) (otelexport.Source, int) {
	onlooker, logPath := events.ResolvePaths(c.getenv, c.home())
	src := otelexport.Source{LogPath: logPath, OnlookerDir: onlooker, TaskIDs: f.tasks}
	if f.since != "" {
		t, err := otelexport.ParseSince(f.since, time.Now())
		if err != nil {
			c.errorf("export: %v", err)
			return src, exitUsage
		}
		src.Since = t
	}
	if f.project != "" {
		p, err := c.projectDir(ctx, f.project)
		if err != nil {
			c.errorf("export: --project: %v", err)
			c.hint("name a directory inside the git repository whose tasks to send")
			return src, exitUsage
		}
		src.ProjectDir = p.Dir
	}
	return src, 0
}

// export reads, converts and sends; every failure is said once.
func (c *cli) export(ctx context.Context, cfg otelexport.Config, src otelexport.Source, o otelexport.Options, quiet bool) int {
	start := time.Now()
	traces, skipped, err := otelexport.Load(src)
	if err != nil {
		c.errorf("export: %v", err)
		return exitAborted
	}
	if skipped > 0 {
		c.warnf("%d line(s) of %s are not whole events and were passed over", skipped, src.LogPath)
	}
	spans, warnings := otelexport.Convert(traces, cfg.Resource)
	for _, w := range warnings {
		c.warning(w)
	}
	if len(spans) == 0 {
		if !quiet {
			c.progressf("nothing recorded to export")
		}
		return 0
	}
	sent, err := otelexport.Export(ctx, cfg, spans, o)
	if err != nil {
		c.errorf("export: %v", err)
		c.hint("nothing recorded is lost: check the collector (%s), then run: tribunal-session export --otlp%s", cfg.Source, retryFlags(src))
		return exitExportFailed
	}
	if !quiet {
		c.progressf("exported %d span(s) of %d trace(s) to %s in %s", sent, len(traces), cfg.URL, time.Since(start).Round(time.Millisecond))
	}
	return 0
}

// retryFlags repeats the selection of a failed export for the hint.
func retryFlags(src otelexport.Source) string {
	var b strings.Builder
	for _, id := range src.TaskIDs {
		b.WriteString(" --task " + id)
	}
	if !src.Since.IsZero() {
		b.WriteString(" --since " + src.Since.UTC().Format(time.RFC3339))
	}
	return b.String()
}

// exportTask is a task's live export at the end of run: within
// otelexport.LiveTimeout of the verdict being written, nothing when no
// collector is configured, and one warning (never an error status) when
// the collector does not take it: the verdict stands, and export sends it
// later.
func (c *cli) exportTask(ctx context.Context, taskID string) {
	if taskID == "" {
		return
	}
	cfg := config.Load(config.Sources{PluginRoot: c.getenv("CLAUDE_PLUGIN_ROOT"), Home: c.home()})
	tc, err := otelexport.Resolve(c.getenv, cfg.OTLPEndpoint())
	if err != nil {
		c.warnf("task %s: traces not exported: %v", taskID, err)
		return
	}
	if !tc.Enabled {
		return
	}
	// A run stopped by a signal is recorded as aborted, and that is worth
	// a trace too: the export keeps its own bound, not the run's context.
	ctx = context.WithoutCancel(ctx)
	onlooker, logPath := events.ResolvePaths(c.getenv, c.home())
	traces, _, err := otelexport.Load(otelexport.Source{LogPath: logPath, OnlookerDir: onlooker, TaskIDs: []string{taskID}})
	if err == nil {
		spans, _ := otelexport.Convert(traces, tc.Resource)
		_, err = otelexport.Export(ctx, tc, spans, otelexport.Options{Timeout: otelexport.LiveTimeout})
	}
	var ee *otelexport.ExportError
	switch {
	case errors.As(err, &ee):
		c.warnf("task %s: traces not exported: %v; the verdict is recorded, send it later with: tribunal-session export --otlp --task %s", taskID, err, taskID)
	case err != nil:
		c.warnf("task %s: traces not exported: %v", taskID, err)
	}
}
