package stophook

import (
	"errors"
	"io/fs"
	"os/exec"
	"syscall"
)

// ExportCommand is how a recorded judgement's trace is handed to
// tribunal-session, whose export runs tribunal-otel, the one program that
// links the OpenTelemetry SDK, so that this binary does not (issue 21):
// the child decides from the OTEL_* variables and the user's settings
// whether a collector is configured, and does nothing, silently, when
// none is.
var ExportCommand = []string{"export", "--otlp", "--quiet", "--timeout", "2s", "--task"}

// handOff starts tribunal-session's export of the judgement taskID in a
// session of its own and does not wait for it: neither the hook (fix
// mode judges inline) nor the detached judge's lock waits on a collector.
// The child's own deadline bounds it; what it could not send, `export
// --otlp --since` sends later.
func (r *recorder) handOff(taskID string) {
	bin := r.j.SessionBin
	if bin == "" || taskID == "" {
		return
	}
	cmd := exec.Command(bin, append(append([]string(nil), ExportCommand...), taskID)...)
	cmd.Env = r.d.Environ
	cmd.Dir = r.j.ProjectDir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		// No tribunal-session beside this binary (a hook installed on
		// its own, a test's build) means no export, as no collector
		// does: nothing to say on a stderr that fix mode hands to the
		// model. Anything else is a fault worth one line.
		if !errors.Is(err, fs.ErrNotExist) {
			r.warn("traces of judgement %s not exported: cannot start %s: %v", taskID, bin, err)
		}
		return
	}
	// Not waited for: a new session, reaped by init once this process
	// exits.
	cmd.Process.Release()
}
