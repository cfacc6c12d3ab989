package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/present/otelexport/otelconf"
	"github.com/tribunal-cc/tribunal/internal/proc"
)

// exitExportFailed is export's status when the collector did not take
// every span (unreachable, slow past the deadline, or refusing).
const exitExportFailed = otelconf.ExitExportFailed

// exportHelp is export's usage; tribunal-otel prints the same text.
const exportHelp = otelconf.ExportHelp

// liveMargin is how long past otelconf.LiveTimeout tribunal-otel may take
// to start and to read what it sends before it is killed: its own
// deadline covers the collector, this covers a helper that hangs.
const liveMargin = time.Second

// exportStop is how long export's helper has, once this process is
// told to stop, to say what it did not send before it is killed.
const exportStop = 3 * time.Second

// exportCmd runs tribunal-otel's export, which links the OpenTelemetry
// SDK so that this binary does not: the same arguments, streams and exit
// status. export -h never gets here (run answers it from exportHelp).
func (c *cli) exportCmd(ctx context.Context, args []string) int {
	bin, dir, err := c.otelHelper()
	if err != nil {
		c.say().MissingProgram("export", otelconf.Program, dir)
		return exitUsage
	}
	cmd := exec.CommandContext(ctx, bin, append([]string{"export"}, args...)...)
	cmd.Env = c.otelEnviron()
	// The helper reads no input; stdout and stderr pass through this
	// process's writers, so what it prints is redacted as ours is.
	cmd.Stdout, cmd.Stderr = c.stdout, c.stderr
	// Stopped (cancel, a signal), the helper gets SIGTERM and says what
	// was not sent, as the export in this process did.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = exportStop
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	case errors.As(err, &exit):
		c.errorf("export: %s ended by %v", otelconf.Program, exit.ProcessState)
		return exitAborted
	}
	c.errorf("export: cannot run %s: %v", bin, err)
	return exitAborted
}

// otelHelper is tribunal-otel's path beside this binary, or the error
// and the directory it is missing from ("" when this binary's path is
// unknown).
func (c *cli) otelHelper() (bin, dir string, err error) {
	self := selfPath()
	bin, err = proc.Helper(self, otelconf.Program)
	if err != nil && self != "" {
		dir = proc.HelperDir(self)
	}
	return bin, dir, err
}

// otelEnviron is the helper's environment: this process's, with the
// variables the export reads as this command sees them (getenv), so that
// the helper resolves the same collector and store.
func (c *cli) otelEnviron() []string {
	names := append(slices.Clone(otelconf.Variables), otelconf.Environment...)
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(names, name)
	})
	for _, name := range names {
		if v := c.getenv(name); v != "" {
			env = append(env, name+"="+v)
		}
	}
	return env
}

// exportTask is a task's live export at the end of run and review:
// within otelconf.LiveTimeout of the verdict being written, nothing (and
// no child) when no collector is configured, and one warning (never an
// error status) when the traces are not sent: the verdict stands, and
// export sends it later. tribunal-otel does the sending; this process
// decides whether to start it and bounds it, so that a helper that hangs
// or is missing costs the same as a collector that is down.
func (c *cli) exportTask(ctx context.Context, taskID string) {
	if taskID == "" {
		return
	}
	cfg := config.Load(config.Sources{PluginRoot: c.getenv("CLAUDE_PLUGIN_ROOT"), Home: c.home()})
	tc, err := otelconf.Resolve(c.getenv, cfg.OTLPEndpoint())
	if err != nil {
		c.warning(otelconf.NotExported(taskID, err, false))
		return
	}
	if !tc.Enabled {
		return
	}
	bin, dir, err := c.otelHelper()
	if err != nil {
		c.say().MissingProgramWarning("task "+taskID+": traces not exported", otelconf.Program, dir)
		return
	}
	// A run stopped by a signal is recorded as aborted, and that is worth
	// a trace too: the export keeps its own bound, not the run's context.
	res, err := proc.Run(context.WithoutCancel(ctx), proc.Cmd{Path: bin, Args: otelconf.LiveArgs(taskID),
		Env: c.otelEnviron(), Timeout: otelconf.LiveTimeout + liveMargin})
	// The helper's lines are already worded (internal/output): relayed
	// as they are, through this process's redacting stderr.
	fmt.Fprint(c.stderr, res.Stderr)
	// The live form prints nothing but its one warning, so a helper
	// killed after saying it (late, on a loaded machine) is not warned
	// about twice.
	var timeout *proc.TimeoutError
	switch {
	case res.Stderr != "":
	case errors.As(err, &timeout):
		c.warning(otelconf.NotExported(taskID, fmt.Errorf("%s %v", otelconf.Program, err), true))
	case err != nil:
		c.warning(otelconf.NotExported(taskID, fmt.Errorf("cannot run %s: %w", otelconf.Program, err), false))
	case res.ExitCode != 0:
		c.warning(otelconf.NotExported(taskID, fmt.Errorf("%s exited with status %d", otelconf.Program, res.ExitCode), false))
	}
}
