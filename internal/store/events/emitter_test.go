package events

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit/schemacheck"
)

// countingBytes returns 0, 1, 2, … so UUIDs minted from it are predictable.
func countingBytes(n int) *bytes.Reader {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return bytes.NewReader(b)
}

func fixedClock(t time.Time) func() time.Time { return func() time.Time { return t } }

func TestEmitGoldenLine(t *testing.T) {
	e := newTestEmitter(t)
	e.SessionID = "sess-1"
	// The first 16 bytes become the event id, the next 16 the new machine id.
	e.Rand = countingBytes(32)
	e.Now = fixedClock(time.Date(2026, 5, 24, 11, 0, 0, 123_456_789, time.FixedZone("CET", 3600)))
	got := emitOne(t, e, GatePassed{TaskID: "T", IterationID: "I", FinalScore: 0.75, IterationNumber: Ptr(0), JudgesConsulted: Ptr(1)})
	want := `{"id":"00010203-0405-4607-8809-0a0b0c0d0e0f","schema_version":"1.0","runtime":"claude-code","plugin":"tribunal",` +
		`"machine_id":"10111213-1415-4617-9819-1a1b1c1d1e1f","timestamp":"2026-05-24T10:00:00.123Z","session_id":"sess-1",` +
		`"sequence":0,"event_type":"tribunal.gate.passed",` +
		`"payload":{"task_id":"T","iteration_id":"I","final_score":0.75,"iteration_number":0,"judges_consulted":1},"redacted":false}`
	if got != want {
		t.Errorf("line =\n%s\nwant\n%s", got, want)
	}
	raw, err := os.ReadFile(e.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(raw) != want+"\n" {
		t.Errorf("log file = %q, want exactly one line ending in \\n", raw)
	}
	if err := schemacheck.ValidateLine(raw); err != nil {
		t.Errorf("schema rejects golden line: %v", err)
	}
}

func TestEmitTimestamp(t *testing.T) {
	tests := []struct {
		now  time.Time
		want string
	}{
		{time.Date(2026, 5, 24, 10, 0, 0, 0, time.UTC), "2026-05-24T10:00:00.000Z"},
		{time.Date(2026, 5, 24, 10, 0, 0, 120_000_000, time.UTC), "2026-05-24T10:00:00.120Z"},
		{time.Date(2026, 5, 24, 10, 0, 0, 999_999_999, time.UTC), "2026-05-24T10:00:00.999Z"},
		{time.Date(2026, 12, 31, 23, 59, 59, 999_900_000, time.UTC), "2026-12-31T23:59:59.999Z"},
		{time.Date(2026, 1, 1, 0, 30, 0, 5_000_000, time.FixedZone("", 5*3600+1800)), "2025-12-31T19:00:00.005Z"},
	}
	for _, tt := range tests {
		e := newTestEmitter(t)
		e.Now = fixedClock(tt.now)
		l := decodeLine(t, emitOne(t, e, SessionStart{TaskID: "t"}))
		if l.Timestamp != tt.want {
			t.Errorf("Now %v: timestamp = %q, want %q", tt.now, l.Timestamp, tt.want)
		}
	}
}

func TestEmitEnvelopeFieldOrder(t *testing.T) {
	base := []string{"id", "schema_version", "runtime", "plugin", "machine_id", "timestamp", "session_id", "sequence", "event_type", "payload"}
	tests := []struct {
		name     string
		opts     []Option
		extra    []string
		contains string
	}{
		{"no options", nil, nil, `"payload":{"task_id":"t"},"redacted":false}`},
		{"cost and tokens", []Option{WithTokens(1200), WithCost(0.0125)}, []string{"cost_usd", "token_count"}, `"cost_usd":0.0125,"token_count":1200,"redacted":false}`},
		{"zero cost", []Option{WithCost(0)}, []string{"cost_usd"}, `"cost_usd":0,"redacted":false}`},
		{"zero tokens", []Option{WithTokens(0)}, []string{"token_count"}, `"token_count":0,"redacted":false}`},
		{"nil option ignored", []Option{nil}, nil, `"redacted":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := emitOne(t, newTestEmitter(t), SessionStart{TaskID: "t"}, tt.opts...)
			want := append(append(slices.Clone(base), tt.extra...), "redacted")
			if keys := orderedKeys(t, []byte(got)); !slices.Equal(keys, want) {
				t.Errorf("keys = %q, want %q", keys, want)
			}
			if !strings.HasSuffix(got, tt.contains) {
				t.Errorf("line %s does not end with %s", got, tt.contains)
			}
			if err := schemacheck.ValidateLine([]byte(got)); err != nil {
				t.Errorf("schema rejects line: %v", err)
			}
		})
	}
}

func TestEmitRejectsBadOptions(t *testing.T) {
	tests := []struct {
		name string
		opt  Option
		want string
	}{
		{"negative cost", WithCost(-0.5), "cost_usd"},
		{"NaN cost", WithCost(math.NaN()), "cost_usd"},
		{"infinite cost", WithCost(math.Inf(1)), "cost_usd"},
		{"negative tokens", WithTokens(-1), "token_count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEmitter(t)
			err := e.Emit(SessionStart{TaskID: "t"}, tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Emit error = %v, want one naming %s", err, tt.want)
			}
			if _, err := os.Stat(e.LogPath); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("refused Emit touched the log (stat: %v)", err)
			}
		})
	}
}

func TestEmitSessionID(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", "unknown"},
		{"7f3c2a9e-real-session", "7f3c2a9e-real-session"},
	} {
		e := newTestEmitter(t)
		e.SessionID = tt.in
		if l := decodeLine(t, emitOne(t, e, SessionStart{TaskID: "t"})); l.SessionID != tt.want {
			t.Errorf("SessionID %q: envelope session_id = %q, want %q", tt.in, l.SessionID, tt.want)
		}
	}
}

func TestEmitDoesNotEscapeHTML(t *testing.T) {
	e := newTestEmitter(t)
	e.SessionID = "a<b>&c"
	got := emitOne(t, e, Verdict{TaskID: "t", JudgeType: "standard", FeedbackSummary: `<script>alert("x") && 1</script>`})
	got2 := emitOne(t, e, JuryEmpaneled{TaskID: "t", IterationID: "i", Judges: []JuryMember{{JudgeID: "j", JudgeType: "standard", ModelID: "<m&>"}}})
	for _, l := range []string{got, got2} {
		if strings.Contains(l, `\u003c`) || strings.Contains(l, `\u0026`) || strings.Contains(l, `\u003e`) {
			t.Errorf("line escapes HTML: %s", l)
		}
	}
	for _, want := range []string{`<script>alert(\"x\") && 1</script>`, `"session_id":"a<b>&c"`} {
		if !strings.Contains(got, want) {
			t.Errorf("line %s lacks literal %s", got, want)
		}
	}
	if !strings.Contains(got2, `"model_id":"<m&>"`) {
		t.Errorf("nested payload escaped HTML: %s", got2)
	}
}

func TestEmitRefusesMisuse(t *testing.T) {
	var nilEmitter *Emitter
	tests := []struct {
		name string
		emit func() error
		want string
	}{
		{"nil emitter", func() error { return nilEmitter.Emit(SessionStart{TaskID: "t"}) }, "nil emitter"},
		{"nil payload", func() error { return newTestEmitter(t).Emit(nil) }, "nil payload"},
		{"typed nil payload", func() error { return newTestEmitter(t).Emit((*Verdict)(nil)) }, "nil payload"},
		{"no dir", func() error { e := newTestEmitter(t); e.Dir = ""; return e.Emit(SessionStart{TaskID: "t"}) }, "must both be set"},
		{"no log path", func() error { e := newTestEmitter(t); e.LogPath = ""; return e.Emit(SessionStart{TaskID: "t"}) }, "must both be set"},
		{"entropy failure", func() error {
			e := newTestEmitter(t)
			e.Rand = iotest.ErrReader(errors.New("no entropy"))
			return e.Emit(SessionStart{TaskID: "t"})
		}, "no entropy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.emit()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Emit error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestEmitPointerPayload(t *testing.T) {
	got := emitOne(t, newTestEmitter(t), &GatePassed{TaskID: "t", IterationID: "i", FinalScore: 0.5})
	if l := decodeLine(t, got); l.EventType != "tribunal.gate.passed" {
		t.Errorf("event_type = %q", l.EventType)
	}
}

func TestEmitDefaultsClockAndEntropy(t *testing.T) {
	e := newTestEmitter(t)
	e.Now, e.Rand = nil, nil
	before := time.Now().UTC().Truncate(time.Millisecond)
	l := decodeLine(t, emitOne(t, e, SessionStart{TaskID: "t"}))
	ts, err := time.Parse(time.RFC3339Nano, l.Timestamp)
	if err != nil {
		t.Fatal(err)
	}
	if ts.Before(before) || ts.After(time.Now()) {
		t.Errorf("timestamp %v not between %v and now", ts, before)
	}
	if !isUUID(l.ID) || !isUUID(l.MachineID) {
		t.Errorf("ids %q, %q are not UUIDs", l.ID, l.MachineID)
	}
}

func TestEmitCreatesPrivateFiles(t *testing.T) {
	e := newTestEmitter(t)
	emitOne(t, e, SessionStart{TaskID: "t"})
	tests := []struct {
		path string
		mode fs.FileMode
	}{
		{e.Dir, fs.ModeDir | 0o700},
		{filepath.Dir(e.LogPath), fs.ModeDir | 0o700},
		{e.LogPath, 0o600},
		{filepath.Join(e.Dir, machineIDFile), 0o600},
		{filepath.Join(e.Dir, sequenceFile), 0o600},
		{filepath.Join(e.Dir, lockFile), 0o600},
	}
	for _, tt := range tests {
		fi, err := os.Stat(tt.path)
		if err != nil {
			t.Errorf("stat: %v", err)
			continue
		}
		if fi.Mode() != tt.mode {
			t.Errorf("%s: mode %v, want %v", tt.path, fi.Mode(), tt.mode)
		}
	}
}

func TestEmitAppends(t *testing.T) {
	e := newTestEmitter(t)
	if err := os.MkdirAll(filepath.Dir(e.LogPath), 0o700); err != nil {
		t.Fatal(err)
	}
	foreign := `{"event_type":"other.plugin.event"}` + "\n"
	if err := os.WriteFile(e.LogPath, []byte(foreign), 0o600); err != nil {
		t.Fatal(err)
	}
	emitOne(t, e, SessionStart{TaskID: "t"})
	emitOne(t, e, SessionComplete{TaskID: "t", Outcome: "accepted"})
	lines := readLog(t, e.LogPath)
	if len(lines) != 3 || lines[0]+"\n" != foreign {
		t.Fatalf("log = %q, want the foreign line kept and two appended", lines)
	}
}

func TestEmitLogOpenFailure(t *testing.T) {
	e := newTestEmitter(t)
	if err := os.MkdirAll(e.LogPath, 0o700); err != nil { // a directory where the log should be
		t.Fatal(err)
	}
	err := e.Emit(SessionStart{TaskID: "t"})
	if err == nil || !strings.Contains(err.Error(), "open log") {
		t.Fatalf("Emit error = %v, want an open log error", err)
	}
	if _, err := os.Stat(filepath.Join(e.Dir, sequenceFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failed append consumed a sequence number (stat: %v)", err)
	}
}

func TestResolvePaths(t *testing.T) {
	tests := []struct {
		name        string
		env         map[string]string
		home        string
		wantDir     string
		wantLogPath string
	}{
		{"defaults", nil, "/home/u", "/home/u/.onlooker", "/home/u/.onlooker/logs/onlooker-events.jsonl"},
		{"ONLOOKER_DIR", map[string]string{"ONLOOKER_DIR": "/data/ol"}, "/home/u", "/data/ol", "/data/ol/logs/onlooker-events.jsonl"},
		{"ONLOOKER_EVENTS_LOG", map[string]string{"ONLOOKER_EVENTS_LOG": "/tmp/ev.jsonl"}, "/home/u", "/home/u/.onlooker", "/tmp/ev.jsonl"},
		{"both", map[string]string{"ONLOOKER_DIR": "/data/ol", "ONLOOKER_EVENTS_LOG": "/tmp/ev.jsonl"}, "/home/u", "/data/ol", "/tmp/ev.jsonl"},
		{"empty vars count as unset", map[string]string{"ONLOOKER_DIR": "", "ONLOOKER_EVENTS_LOG": ""}, "/home/u", "/home/u/.onlooker", "/home/u/.onlooker/logs/onlooker-events.jsonl"},
		{"trailing slash in home", nil, "/home/u/", "/home/u/.onlooker", "/home/u/.onlooker/logs/onlooker-events.jsonl"},
		{"empty home", nil, "", "/.onlooker", "/.onlooker/logs/onlooker-events.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, logPath := ResolvePaths(func(k string) string { return tt.env[k] }, tt.home)
			if dir != tt.wantDir || logPath != tt.wantLogPath {
				t.Errorf("ResolvePaths = %q, %q; want %q, %q", dir, logPath, tt.wantDir, tt.wantLogPath)
			}
		})
	}
}

func BenchmarkEmit(b *testing.B) {
	e := newTestEmitter(b)
	p := Verdict{TaskID: testTaskID, Score: 0.72, Passed: true, JudgeType: "standard", IterationID: testIterID, JudgeID: testJudgeID,
		FeedbackSummary: "Solid change; one missing test.", Confidence: Ptr(0.6), JudgeModelID: "claude-sonnet-4-6"}
	for b.Loop() {
		if err := e.Emit(p); err != nil {
			b.Fatal(err)
		}
	}
}
