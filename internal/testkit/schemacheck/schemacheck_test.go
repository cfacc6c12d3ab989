package schemacheck

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSchemaFilesPresent fails, never skips, when the schema data the
// validator embeds is missing or lacks the identity its README promises:
// every end-to-end script's event check rests on these two files.
func TestSchemaFilesPresent(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("testdata", "README.md"))
	if err != nil {
		t.Fatalf("testdata/README.md (where the schemas are published, and their version) is missing: %v", err)
	}
	if !bytes.Contains(readme, []byte("version 2.9.0")) || !bytes.Contains(readme, []byte("schema 2.12")) {
		t.Errorf("testdata/README.md no longer names the schema version (2.9.0 with the 2.12 additions)")
	}
	for name, wantID := range map[string]string{
		"event.v1.json":          "https://schema.onlooker.dev/schemas/event.v1.json",
		"tribunal-payloads.json": "https://schema.onlooker.dev/schemas/payload/plugins-safety.json",
	} {
		path := filepath.Join("testdata", name)
		onDisk, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("schema %s is missing: %v (restore it from the version testdata/README.md names)", path, err)
		}
		embedded, err := schemaFS.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatalf("schema %s is not embedded: %v", name, err)
		}
		if !bytes.Equal(embedded, onDisk) {
			t.Errorf("embedded %s differs from %s: rebuild", name, path)
		}
		var doc struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(onDisk, &doc); err != nil {
			t.Fatalf("schema %s is not JSON: %v", path, err)
		}
		if doc.ID != wantID {
			t.Errorf("schema %s has $id %q, want %q", path, doc.ID, wantID)
		}
	}
}

func TestEventTypes(t *testing.T) {
	want := []string{
		"tribunal.actor.complete",
		"tribunal.actor.start",
		"tribunal.candidate.chosen",
		"tribunal.candidate.complete",
		"tribunal.consensus.reached",
		"tribunal.dissent.recorded",
		"tribunal.gate.blocked",
		"tribunal.gate.passed",
		"tribunal.iteration.start",
		"tribunal.judge.start",
		"tribunal.jury.empaneled",
		"tribunal.meta.complete",
		"tribunal.meta.start",
		"tribunal.pairwise.compared",
		"tribunal.session.complete",
		"tribunal.session.start",
		"tribunal.tune.decided",
		"tribunal.tune.generation",
		"tribunal.verdict",
	}
	if got := EventTypes(); !slices.Equal(got, want) {
		t.Errorf("EventTypes() = %q, want %q", got, want)
	}
}

// validLine is a minimal schema-valid tribunal line; the table below
// derives each invalid case from it by a single substitution.
const validLine = `{"id":"6ba7b810-9dad-41d1-80b4-00c04fd430c8","schema_version":"1.0","runtime":"claude-code","plugin":"tribunal","machine_id":"0f8fad5b-d9cb-469f-a165-70867728950e","timestamp":"2026-05-24T10:00:00.123Z","session_id":"s1","sequence":0,"event_type":"tribunal.gate.passed","payload":{"task_id":"01ARZ3NDEKTSV4RRFFQ69G5FAV","iteration_id":"01ARZ3NDEKTSV4RRFFQ69G5FAW","final_score":0.8},"redacted":false}`

func TestValidateLine(t *testing.T) {
	sub := func(old, new string) string {
		if !strings.Contains(validLine, old) {
			panic("test fixture lacks " + old)
		}
		return strings.Replace(validLine, old, new, 1)
	}
	tests := []struct {
		name    string
		line    string
		wantErr string // empty: valid
	}{
		{"valid", validLine, ""},
		{"valid with trailing newline", validLine + "\n", ""},
		{"valid with cost and tokens", sub(`"redacted"`, `"cost_usd":0.25,"token_count":1200,"redacted"`), ""},
		{"valid upper-case uuid", sub(`6ba7b810-9dad-41d1`, `6BA7B810-9DAD-41D1`), ""},
		{"valid gate.blocked with criterion_floor", sub(`"event_type":"tribunal.gate.passed","payload":{"task_id":"01ARZ3NDEKTSV4RRFFQ69G5FAV","iteration_id":"01ARZ3NDEKTSV4RRFFQ69G5FAW","final_score":0.8}`,
			`"event_type":"tribunal.gate.blocked","payload":{"task_id":"t","iteration_id":"i","reason":"criterion_floor","failed_criterion":"tests"}`), ""},
		{"empty", "", "empty line"},
		{"only newline", "\n", "empty line"},
		{"two lines", validLine + "\n" + validLine, "line break"},
		{"CRLF", validLine + "\r\n", "line break"},
		{"invalid UTF-8", sub(`"s1"`, "\"s\xff\""), "UTF-8"},
		{"not JSON", "{nope", "invalid JSON"},
		{"trailing data", validLine + " {}", "invalid JSON"},
		{"array", "[" + validLine + "]", "not a JSON object"},
		{"duplicate envelope key", sub(`"sequence":0`, `"sequence":0,"sequence":1`), `duplicate key "sequence"`},
		{"duplicate payload key", sub(`"final_score":0.8`, `"final_score":0.8,"final_score":0.9`), `duplicate key "final_score"`},
		{"id not a uuid", sub(`6ba7b810-9dad-41d1-80b4-00c04fd430c8`, `01ARZ3NDEKTSV4RRFFQ69G5FAV`), "envelope"},
		{"machine_id not a uuid", sub(`0f8fad5b-d9cb-469f-a165-70867728950e`, `host-1`), "envelope"},
		{"timestamp not a date-time", sub(`2026-05-24T10:00:00.123Z`, `2026-05-24 10:00`), "envelope"},
		{"schema_version", sub(`"1.0"`, `"2.0"`), "envelope"},
		{"runtime", sub(`"claude-code"`, `"vim"`), "envelope"},
		{"negative sequence", sub(`"sequence":0`, `"sequence":-1`), "envelope"},
		{"fractional sequence", sub(`"sequence":0`, `"sequence":1.5`), "envelope"},
		{"negative cost", sub(`"redacted"`, `"cost_usd":-1,"redacted"`), "envelope"},
		{"extra envelope key", sub(`"redacted"`, `"adapterid":"x","redacted"`), "envelope"},
		{"missing session_id", sub(`"session_id":"s1",`, ``), "envelope"},
		{"payload not an object", sub(`"payload":{"task_id":"01ARZ3NDEKTSV4RRFFQ69G5FAV","iteration_id":"01ARZ3NDEKTSV4RRFFQ69G5FAW","final_score":0.8}`, `"payload":[]`), "envelope"},
		{"foreign event type", sub(`tribunal.gate.passed`, `onlooker.tool.call`), "not a tribunal event type"},
		{"unknown tribunal type", sub(`tribunal.gate.passed`, `tribunal.gate.maybe`), "not a tribunal event type"},
		{"payload extra key", sub(`"final_score":0.8`, `"final_score":0.8,"resolution":null`), "tribunal.gate.passed payload"},
		{"payload score above 1", sub(`"final_score":0.8`, `"final_score":1.01`), "tribunal.gate.passed payload"},
		{"payload missing required", sub(`,"final_score":0.8`, ``), "tribunal.gate.passed payload"},
		{"payload null optional", sub(`"final_score":0.8`, `"final_score":0.8,"judges_consulted":null`), "tribunal.gate.passed payload"},
		{"payload judges_consulted 0", sub(`"final_score":0.8`, `"final_score":0.8,"judges_consulted":0`), "tribunal.gate.passed payload"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateLine([]byte(tt.line))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("ValidateLine: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Fatalf("ValidateLine accepted %s", tt.line)
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Fatalf("ValidateLine error %q does not mention %q", err, tt.wantErr)
			}
		})
	}
}

// TestValidateLinePayloadRules spot-checks rules from several $defs so a
// wrong JSON-pointer compile (e.g. every type mapped to one schema) fails.
func TestValidateLinePayloadRules(t *testing.T) {
	const head = `{"id":"6ba7b810-9dad-41d1-80b4-00c04fd430c8","schema_version":"1.0","runtime":"claude-code","plugin":"tribunal","machine_id":"0f8fad5b-d9cb-469f-a165-70867728950e","timestamp":"2026-05-24T10:00:00.123Z","session_id":"s","sequence":3,"event_type":`
	tests := []struct {
		eventType, payload string
		valid              bool
	}{
		{"tribunal.dissent.recorded", `{"task_id":"t","iteration_id":"i","disagreement_score":0.3,"judges":[{"judge_id":"j","score":0.2,"passed":false}]}`, true},
		{"tribunal.dissent.recorded", `{"task_id":"t","iteration_id":"i","disagreement_score":0.3,"judges":[],"resolution":null}`, false},
		{"tribunal.dissent.recorded", `{"task_id":"t","iteration_id":"i","disagreement_score":0.3,"judges":[{"judge_id":"j","score":0.2}]}`, false},
		{"tribunal.meta.start", `{"task_id":"t","iteration_id":"i","verdicts_reviewed":3}`, true},
		{"tribunal.meta.complete", `{"task_id":"t","verdict_quality":"sound","bias_detected":false,"verdicts_reviewed":3}`, false},
		{"tribunal.meta.complete", `{"task_id":"t","verdict_quality":"sound","bias_detected":false,"bias_types":["length"]}`, true},
		{"tribunal.meta.complete", `{"task_id":"t","verdict_quality":"sound","bias_detected":false,"bias_types":["vibes"]}`, false},
		{"tribunal.verdict", `{"task_id":"t","score":0,"passed":false,"judge_type":"security","criterion_scores":{"a":1,"b":0}}`, true},
		{"tribunal.verdict", `{"task_id":"t","score":0,"passed":false,"judge_type":"security","criterion_scores":{"a":1.5}}`, false},
		{"tribunal.verdict", `{"task_id":"t","score":0.5,"passed":"true","judge_type":"standard"}`, false},
		{"tribunal.session.start", `{"task_id":"t","max_iterations":0}`, false},
		{"tribunal.session.start", `{"task_id":"t","max_iterations":1,"gate_policy":"meta_override"}`, true},
		{"tribunal.jury.empaneled", `{"task_id":"t","iteration_id":"i","judges":[{"judge_id":"j","judge_type":"domain","model_id":"m"}],"panel_size":1}`, true},
		{"tribunal.jury.empaneled", `{"task_id":"t","iteration_id":"i","judges":null}`, false},
		{"tribunal.iteration.start", `{"task_id":"t","iteration_id":"i","iteration_number":0,"trigger":"appeal"}`, true},
		{"tribunal.iteration.start", `{"task_id":"t","iteration_id":"i","iteration_number":-1}`, false},
	}
	for _, tt := range tests {
		line := head + `"` + tt.eventType + `","payload":` + tt.payload + `,"redacted":false}`
		err := ValidateLine([]byte(line))
		if tt.valid && err != nil {
			t.Errorf("%s %s: unexpected error: %v", tt.eventType, tt.payload, err)
		}
		if !tt.valid && err == nil {
			t.Errorf("%s %s: accepted, want rejected", tt.eventType, tt.payload)
		}
	}
}

func TestValidateLog(t *testing.T) {
	bad := strings.Replace(validLine, `"final_score":0.8`, `"final_score":2`, 1)
	tests := []struct {
		name    string
		content string
		wantN   int
		wantErr string
	}{
		{"empty file", "", 0, ""},
		{"three lines", validLine + "\n" + validLine + "\n" + validLine + "\n", 3, ""},
		{"bad second line", validLine + "\n" + bad + "\n" + validLine + "\n", 1, "line 2:"},
		{"blank line", validLine + "\n\n", 1, "line 2:"},
		{"torn last line", validLine + "\n" + validLine[:40], 1, "line 2: no trailing newline"},
		{"missing final newline", validLine, 0, "line 1: no trailing newline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "events.jsonl")
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			n, err := ValidateLog(path)
			if n != tt.wantN {
				t.Errorf("n = %d, want %d", n, tt.wantN)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("ValidateLog: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("ValidateLog error = %v, want one mentioning %q", err, tt.wantErr)
			}
		})
	}
}

func TestValidateLogLongLine(t *testing.T) {
	// Longer than bufio.Scanner's default 64 KiB token limit.
	long := strings.Replace(validLine, `"session_id":"s1"`, `"session_id":"`+strings.Repeat("x", 100_000)+`"`, 1)
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, []byte(long+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if n, err := ValidateLog(path); n != 1 || err != nil {
		t.Errorf("ValidateLog = %d, %v; want 1, nil", n, err)
	}
}

func TestValidateLogMissingFile(t *testing.T) {
	if _, err := ValidateLog(filepath.Join(t.TempDir(), "absent.jsonl")); err == nil {
		t.Error("ValidateLog of a missing file succeeded")
	}
}
