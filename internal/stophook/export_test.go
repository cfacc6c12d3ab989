package stophook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/claude"
	"github.com/tribunal-cc/tribunal/internal/config"
)

// TestRecordedVerdictIsHandedToExport: once a judgement is recorded, its
// trace is handed to tribunal-session export (this binary links no
// OpenTelemetry code), and the recorder does not wait for it: a stand-in
// that records its arguments and then blocks shows both.
func TestRecordedVerdictIsHandedToExport(t *testing.T) {
	dir := t.TempDir()
	argsFile, release := filepath.Join(dir, "args"), filepath.Join(dir, "release")
	bin := filepath.Join(dir, "tribunal-session")
	script := "#!/bin/sh\necho \"$@\" > " + argsFile + ".tmp && mv " + argsFile + ".tmp " + argsFile +
		"\nwhile [ ! -e " + release + " ]; do sleep 0.05; done\n"
	if err := os.WriteFile(bin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.WriteFile(release, nil, 0o600) })
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
	r.verdict(advisory{Score: 0.9, Passed: true, Confidence: 0.8}, claude.Result{}, nil)
	if len(warned) != 0 || r.taskID == "" {
		t.Fatalf("verdict not recorded cleanly: %v", warned)
	}
	// verdict returned while the stand-in still blocks: it was not waited
	// for. Now wait (on the file, with a deadline) for what it was told.
	deadline := time.Now().Add(20 * time.Second)
	for {
		data, err := os.ReadFile(argsFile)
		if err == nil {
			want := strings.Join(append(append([]string(nil), ExportCommand...), r.taskID), " ")
			if got := strings.TrimSpace(string(data)); got != want {
				t.Errorf("export started with %q, want %q", got, want)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("tribunal-session export was never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
