package stophook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/judging/stopjudge"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// TestRecordedVerdictIsHandedToExport: once a judgement is recorded, its
// trace is handed to tribunal-session export (this binary links no
// OpenTelemetry code), and the recorder does not wait for it: a stand-in
// that records its arguments and then blocks shows both.
func TestRecordedVerdictIsHandedToExport(t *testing.T) {
	dir := t.TempDir()
	argsFile, release, exited := filepath.Join(dir, "args"), filepath.Join(dir, "release"), filepath.Join(dir, "exited")
	bin := filepath.Join(dir, "tribunal-session")
	// The stand-in also gives up if its directory goes, so that no run of
	// this test can leave it behind.
	script := "#!/bin/sh\necho \"$@\" > " + argsFile + ".tmp && mv " + argsFile + ".tmp " + argsFile +
		"\nwhile [ ! -e " + release + " ] && [ -d " + dir + " ]; do sleep 0.05; done\ntouch " + exited + "\n"
	if err := os.WriteFile(bin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	// Registered after t.TempDir, so it runs before the directory goes:
	// release the stand-in and wait for it to be done with the directory.
	t.Cleanup(func() {
		os.WriteFile(release, nil, 0o600)
		waitFor(t, exited)
	})
	j := job{
		SessionID: "s", ProjectDir: filepath.Join(dir, "tribunal", "k"), OnlookerDir: dir,
		LogPath: filepath.Join(dir, "logs", "events.jsonl"), Deadline: time.Now().Add(time.Minute),
		Settings: config.StopHookSettings{Model: "m", ScoreThreshold: 0.75}, SessionBin: bin,
	}
	if err := os.MkdirAll(j.ProjectDir, 0o700); err != nil {
		t.Fatal(err)
	}
	var warned []string
	r := newRecorder(Deps{Now: time.Now, Environ: os.Environ()}, j, func(f string, a ...any) { warned = append(warned, f) })
	r.verdict(stopjudge.Verdict{Score: 0.9, Passed: true, Confidence: 0.8}, claude.Result{}, nil)
	if len(warned) != 0 || r.taskID == "" {
		t.Fatalf("verdict not recorded cleanly: %v", warned)
	}
	// verdict returned while the stand-in still blocks: it was not waited
	// for. Now wait (on the file, with a deadline) for what it was told.
	waitFor(t, argsFile)
	data, _ := os.ReadFile(argsFile)
	want := strings.Join(append(append([]string(nil), ExportCommand...), r.taskID), " ")
	if got := strings.TrimSpace(string(data)); got != want {
		t.Errorf("export started with %q, want %q", got, want)
	}
	if _, err := os.Stat(exited); err == nil {
		t.Error("the stand-in had already finished: verdict waited for the export")
	}
}

// waitFor polls for path, failing the test after 20 s.
func waitFor(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
