package main

import (
	"bytes"
	"context"
	"io"
	"math/rand"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/present/otelexport/otelconf"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

const exportTaskID = "01JQ2000000000000000000000"

// recordJudgement writes one advisory judgement's events into onlooker's
// log, as the Stop hook records it.
func recordJudgement(t *testing.T, onlooker string) {
	t.Helper()
	_, logPath := events.ResolvePaths(func(k string) string { return map[string]string{"ONLOOKER_DIR": onlooker}[k] }, "")
	em := &events.Emitter{Dir: onlooker, LogPath: logPath, SessionID: "s", Rand: rand.New(rand.NewSource(3))}
	const it, j = "01JQ2000000000000000000001", "01JQ2000000000000000000002"
	for _, p := range []events.Payload{
		events.SessionStart{TaskID: exportTaskID, JudgeTypes: []string{"standard"}, GatePolicy: rules.Strict},
		events.IterationStart{TaskID: exportTaskID, IterationID: it, Trigger: "initial"},
		events.JudgeStart{TaskID: exportTaskID, IterationID: it, JudgeID: j, JudgeType: "standard"},
		events.Verdict{TaskID: exportTaskID, Score: 0.9, Passed: true, JudgeType: "standard", IterationID: it, JudgeID: j},
		events.GatePassed{TaskID: exportTaskID, IterationID: it, FinalScore: 0.9},
		events.SessionComplete{TaskID: exportTaskID, Outcome: "accepted"},
	} {
		if err := em.Emit(p); err != nil {
			t.Fatal(err)
		}
	}
}

// collector is a stand-in OTLP/HTTP receiver that answers every request
// with status, after waiting for release when slow is set.
func collector(t *testing.T, status int, slow bool) (url string, requests *atomic.Int32) {
	t.Helper()
	release := make(chan struct{})
	requests = &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		io.Copy(io.Discard, r.Body)
		if slow {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	return srv.URL, requests
}

// unreachable is a loopback address nothing listens on.
func unreachable(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

func exportEnv(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// TestExportBadCollector: an unreachable, refusing or slow collector is
// one error line, exit 40, within the deadline; a collector that takes
// the spans is exit 0.
func TestExportBadCollector(t *testing.T) {
	for _, tc := range []struct {
		name   string
		url    func(t *testing.T) string
		code   int
		stderr string
	}{
		{"ok", func(t *testing.T) string { u, _ := collector(t, 200, false); return u }, 0, "exported 4 span(s) of 1 trace(s)"},
		{"unreachable", unreachable, exitExportFailed, "connection refused"},
		{"refusing", func(t *testing.T) string { u, _ := collector(t, 500, false); return u }, exitExportFailed, "500"},
		{"slow", func(t *testing.T) string { u, _ := collector(t, 200, true); return u }, exitExportFailed, "no answer within 1s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			recordJudgement(t, dir)
			env := exportEnv(map[string]string{"ONLOOKER_DIR": dir, "HOME": dir, otelconf.EnvEndpoint: tc.url(t)})
			var out, errb bytes.Buffer
			start := time.Now()
			code := run(context.Background(), []string{"export", "--otlp", "--timeout", "1s"}, env, strings.NewReader(""), &out, &errb, stdTerminal)
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("export took %s with a 1s deadline", took)
			}
			if code != tc.code || !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, errb.String(), tc.code, tc.stderr)
			}
			if tc.code != 0 && (strings.Count(errb.String(), "tribunal: error:") != 1 || !strings.Contains(errb.String(), "4 of 4 span(s) not sent")) {
				t.Errorf("want one error naming the 4 unsent spans, got:\n%s", errb.String())
			}
		})
	}
}

// TestExportUsage: no collector, a protocol tribunal does not speak, and
// flags it does not know are usage errors (exit 2) that send nothing.
func TestExportUsage(t *testing.T) {
	dir := t.TempDir()
	recordJudgement(t, dir)
	for _, tc := range []struct {
		name   string
		args   []string
		vars   map[string]string
		stderr string
	}{
		{"no collector", []string{"export", "--otlp"}, nil, "no collector is configured"},
		{"no --otlp", []string{"export"}, map[string]string{otelconf.EnvEndpoint: "http://127.0.0.1:4318"}, "--otlp"},
		{"grpc", []string{"export", "--otlp"}, map[string]string{otelconf.EnvEndpoint: "http://127.0.0.1:4317", otelconf.EnvProtocol: "grpc"}, `OTEL_EXPORTER_OTLP_PROTOCOL="grpc": tribunal exports OTLP over HTTP only`},
		{"bad endpoint", []string{"export", "--otlp"}, map[string]string{otelconf.EnvEndpoint: "127.0.0.1:4318"}, "is not an http:// or https:// URL"},
		{"bad headers", []string{"export", "--otlp"}, map[string]string{otelconf.EnvEndpoint: "http://x", otelconf.EnvHeaders: "novalue"}, `"novalue" is not key=value`},
		{"bad since", []string{"export", "--otlp", "--since", "yesterday"}, map[string]string{otelconf.EnvEndpoint: "http://x"}, "neither a duration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vars := map[string]string{"ONLOOKER_DIR": dir, "HOME": dir}
			for k, v := range tc.vars {
				vars[k] = v
			}
			var out, errb bytes.Buffer
			code := run(context.Background(), tc.args, exportEnv(vars), strings.NewReader(""), &out, &errb, stdTerminal)
			if code != exitUsage || !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, errb.String(), tc.stderr)
			}
		})
	}
}

// TestLiveExportIsBounded: at the end of a task, a collector that never
// answers costs at most otelconf.LiveTimeout (plus start-up slack) and
// one warning that says the verdict is recorded.
func TestLiveExportIsBounded(t *testing.T) {
	dir := t.TempDir()
	recordJudgement(t, dir)
	url, requests := collector(t, 200, true)
	var errb bytes.Buffer
	c := &cli{getenv: exportEnv(map[string]string{"ONLOOKER_DIR": dir, "HOME": dir, otelconf.EnvEndpoint: url}), stderr: &errb}
	start := time.Now()
	c.exportTask(context.Background(), exportTaskID)
	took := time.Since(start)
	if took > otelconf.LiveTimeout+2*time.Second {
		t.Errorf("the live export took %s, bound %s", took, otelconf.LiveTimeout)
	}
	if requests.Load() != 1 {
		t.Errorf("%d requests, want 1 (no retries on the live path)", requests.Load())
	}
	got := errb.String()
	if strings.Count(got, "\n") != 1 || !strings.Contains(got, "tribunal: warning: task "+exportTaskID+": traces not exported") ||
		!strings.Contains(got, "tribunal-session export --otlp --task "+exportTaskID) {
		t.Errorf("want one warning with the command that sends it later, got:\n%s", got)
	}
	// Off: no collector, no output, no time.
	errb.Reset()
	c.getenv = exportEnv(map[string]string{"ONLOOKER_DIR": dir, "HOME": dir})
	c.exportTask(context.Background(), exportTaskID)
	if errb.Len() != 0 {
		t.Errorf("export off printed %q", errb.String())
	}
}

// useSelf points selfPath at a binary in dir for one test (never a
// parallel one: selfPath is the package's).
func useSelf(t *testing.T, dir string) {
	t.Helper()
	saved := selfPath
	selfPath = func() string { return filepath.Join(dir, "tribunal-session") }
	t.Cleanup(func() { selfPath = saved })
}

// TestLiveExportHelperIsBounded: a tribunal-otel that hangs cannot hold
// the run: it is killed past otelconf.LiveTimeout and a start margin, and
// costs one warning that says how to send the task later. A missing one
// is a warning too, with the reinstall hint; neither is an error.
func TestLiveExportHelperIsBounded(t *testing.T) {
	dir, bin := t.TempDir(), t.TempDir()
	recordJudgement(t, dir)
	testkit.WriteFileMode(t, filepath.Join(bin, "tribunal-otel"), "#!/bin/sh\nexec sleep 600\n", 0o755)
	useSelf(t, bin)
	var errb bytes.Buffer
	c := &cli{getenv: exportEnv(map[string]string{"ONLOOKER_DIR": dir, "HOME": dir, otelconf.EnvEndpoint: "http://127.0.0.1:9"}), stderr: &errb}
	start := time.Now()
	c.exportTask(context.Background(), exportTaskID)
	if took, bound := time.Since(start), otelconf.LiveTimeout+liveMargin; took > bound+2*time.Second {
		t.Errorf("a hung helper held the run %s, bound %s", took, bound)
	}
	want := "tribunal: warning: task " + exportTaskID + ": traces not exported: tribunal-otel timed out after 3s and was killed; " +
		"the verdict is recorded, send it later with: tribunal-session export --otlp --task " + exportTaskID + "\n"
	if got := errb.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}

	// One that said its warning and then hung is killed all the same,
	// and its warning is the only one.
	said := "tribunal: warning: task " + exportTaskID + ": traces not exported: said by the helper\n"
	testkit.WriteFileMode(t, filepath.Join(bin, "tribunal-otel"), "#!/bin/sh\nprintf '"+said+"' >&2\nexec sleep 600\n", 0o755)
	errb.Reset()
	c.exportTask(context.Background(), exportTaskID)
	if got := errb.String(); got != said {
		t.Errorf("got:\n%s\nwant only the helper's:\n%s", got, said)
	}

	errb.Reset()
	useSelf(t, t.TempDir())
	c.exportTask(context.Background(), exportTaskID)
	if got := errb.String(); !strings.Contains(got, "traces not exported: tribunal-otel is not installed in ") ||
		!strings.Contains(got, "tribunal: hint: reinstall tribunal (make install)") {
		t.Errorf("missing helper said:\n%s", got)
	}
}
