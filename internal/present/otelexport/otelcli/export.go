package otelcli

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/present/otelexport"
	"github.com/tribunal-cc/tribunal/internal/present/otelexport/otelconf"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
)

// settings reads where the user's setting points the export (user-level
// files only: config drops a repository's).
func (c *cli) settings(warn func(string)) string {
	cfg := config.Load(config.Sources{PluginRoot: c.Getenv("CLAUDE_PLUGIN_ROOT"), Home: c.Home, Warn: warn})
	return cfg.OTLPEndpoint()
}

// telemetry resolves where traces go. A zero Config with code 0 means
// export is off and quiet said to say nothing about it.
func (c *cli) telemetry(quiet bool) (otelconf.Config, int) {
	tc, err := otelconf.Resolve(c.Getenv, c.settings(c.say.Warning))
	if err != nil {
		c.errorf("export: %v", err)
		c.say.Hint("fix or unset the variable; see docs/telemetry.md")
		return tc, exitUsage
	}
	if !tc.Enabled && !quiet {
		c.errorf("export: no collector is configured")
		c.say.Hint("set OTEL_EXPORTER_OTLP_ENDPOINT (e.g. http://127.0.0.1:4318), or tribunal.telemetry.otlp_endpoint in ~/.claude/settings.json")
		return tc, exitUsage
	}
	return tc, 0
}

// exportSource turns export's flags into what to read.
func (c *cli) exportSource(ctx context.Context, f exportFlags) (otelexport.Source, int) {
	onlooker, logPath := events.ResolvePaths(c.Getenv, c.Home)
	src := otelexport.Source{LogPath: logPath, OnlookerDir: onlooker, TaskIDs: f.tasks}
	if f.since != "" {
		t, err := otelconf.ParseSince(f.since, c.Now())
		if err != nil {
			c.errorf("export: %v", err)
			return src, exitUsage
		}
		src.Since = t
	}
	if f.project != "" {
		repo, err := projectkey.Resolve(ctx, f.project, projectkey.ExecGit("git", c.Environ))
		if err != nil || repo.Key == "" {
			c.errorf("export: --project: %q is not inside a git repository", f.project)
			c.say.Hint("name a directory inside the git repository whose tasks to send")
			return src, exitUsage
		}
		src.ProjectDir = store.ForKey(onlooker, repo.Key).Dir
	}
	return src, 0
}

// export reads, converts and sends; every failure is said once.
func (c *cli) export(ctx context.Context, cfg otelconf.Config, src otelexport.Source, timeout time.Duration, quiet bool) int {
	start := c.Now()
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
		c.say.Warning(w)
	}
	if len(spans) == 0 {
		if !quiet {
			c.progressf("nothing recorded to export")
		}
		return 0
	}
	sent, err := otelexport.Export(ctx, cfg, spans, otelexport.Options{Timeout: timeout, Retry: true})
	if err != nil {
		c.errorf("export: %v", err)
		c.say.Hint("nothing recorded is lost: check the collector (%s), then run: tribunal-session export --otlp%s", cfg.Source, retryFlags(src))
		return otelconf.ExitExportFailed
	}
	if !quiet {
		c.progressf("exported %d span(s) of %d trace(s) to %s in %s", sent, len(traces), cfg.URL, c.Now().Sub(start).Round(time.Millisecond))
	}
	return 0
}

// exitAborted is export's status when what was recorded cannot be read,
// as tribunal-session's for a command that could not finish.
const exitAborted = 3

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

// live is a task's export at the end of run or review: within
// otelconf.LiveTimeout, nothing when no collector is configured, and one
// warning (never an error status) when the collector does not take it:
// the verdict stands, and export sends it later.
func (c *cli) live(ctx context.Context, taskID string) {
	tc, err := otelconf.Resolve(c.Getenv, c.settings(nil))
	if err != nil {
		c.say.Warning(otelconf.NotExported(taskID, err, false))
		return
	}
	if !tc.Enabled {
		return
	}
	onlooker, logPath := events.ResolvePaths(c.Getenv, c.Home)
	traces, _, err := otelexport.Load(otelexport.Source{LogPath: logPath, OnlookerDir: onlooker, TaskIDs: []string{taskID}})
	if err == nil {
		spans, _ := otelexport.Convert(traces, tc.Resource)
		_, err = otelexport.Export(ctx, tc, spans, otelexport.Options{Timeout: otelconf.LiveTimeout})
	}
	var ee *otelexport.ExportError
	switch {
	case errors.As(err, &ee):
		c.say.Warning(otelconf.NotExported(taskID, err, true))
	case err != nil:
		c.say.Warning(otelconf.NotExported(taskID, err, false))
	}
}
