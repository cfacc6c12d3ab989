package e2e

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit/schemacheck"
)

// event is one line of the Onlooker log.
type event struct {
	SessionID string          `json:"session_id"`
	Type      string          `json:"event_type"`
	Sequence  int             `json:"sequence"`
	CostUSD   *float64        `json:"cost_usd"`
	Payload   json.RawMessage `json:"payload"`
}

// payload decodes the event's payload into a map.
func (e event) payload(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(e.Payload, &m); err != nil {
		t.Fatalf("%s payload: %v", e.Type, err)
	}
	return m
}

func (w *world) logPath() string {
	return filepath.Join(w.onlooker, "logs", "onlooker-events.jsonl")
}

// events validates the whole log against the schemas and returns it; a
// missing log is an empty one.
func (w *world) events() []event {
	w.t.Helper()
	path := w.logPath()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		w.t.Fatal(err)
	}
	n, err := schemacheck.ValidateLog(path)
	if err != nil {
		w.t.Fatalf("events log is not schema-valid: %v", err)
	}
	var out []event
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var e event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			w.t.Fatalf("event line: %v", err)
		}
		out = append(out, e)
	}
	if n != len(out) {
		w.t.Fatalf("schemacheck counted %d lines, the log has %d", n, len(out))
	}
	return out
}

func eventTypes(evs []event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

// projectDir is the single $ONLOOKER_DIR/tribunal/<key> directory, or ""
// when none exists yet.
func (w *world) projectDir() string {
	w.t.Helper()
	dirs, err := filepath.Glob(filepath.Join(w.onlooker, "tribunal", "*"))
	if err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			out = append(out, d)
		}
	}
	switch len(out) {
	case 0:
		return ""
	case 1:
		return out[0]
	}
	w.t.Fatalf("want one project directory under %s, got %v", w.onlooker, out)
	return ""
}

// stopFiles lists every stop-*.json of the project.
func (w *world) stopFiles() []string {
	w.t.Helper()
	files, err := filepath.Glob(filepath.Join(w.onlooker, "tribunal", "*", "stop-*.json"))
	if err != nil {
		w.t.Fatal(err)
	}
	return files
}

// readJSON decodes a JSON file into a map.
func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
