package history

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

var base = time.Date(2026, 5, 24, 10, 0, 0, 0, time.UTC)

func TestLogOrderAndFields(t *testing.T) {
	dir := t.TempDir()
	tOld := ulidAt(base.Add(-3*time.Hour), 1)
	tNew := ulidAt(base.Add(-1*time.Hour), 2)
	writeTask(t, dir, tOld, manifest(tOld, "old task", params("majority", 0.75)),
		`{"task_id":"x","outcome":"exhausted_iterations","final_score":0.5,"iterations_used":3,"total_cost_usd":1.5}`,
		[]iter{{}, {}, {}})
	writeTask(t, dir, tNew, manifest(tNew, "new task", params("majority", 0.75)),
		`{"task_id":"x","outcome":"accepted","final_score":0.9,"iterations_used":1,"total_cost_usd":0.25}`,
		[]iter{{}})
	stopFile(t, dir, "s-mid", id("01HZ3", 1), "rejected", 0.42, base.Add(-2*time.Hour).Format(time.RFC3339))
	stopFile(t, dir, "s-newest", id("01HZ3", 2), "accepted", 0.8, base.Format(time.RFC3339))
	// Things that are not records.
	for _, d := range []string{"runs", "surfaced", "01hz0000000000000000000001", "iteration-x"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	testkit.WriteFile(t, filepath.Join(dir, "manifest.json"), `{"project_key":"k"}`)

	res := Log(dir, "", LogOptions{})
	if len(res.Problems) != 0 {
		t.Fatalf("problems:\n%s", problemText(res.Problems))
	}
	var got []string
	for _, e := range res.Entries {
		got = append(got, e.Kind+":"+e.ID)
	}
	want := []string{"advisory:s-newest", "task:" + tNew, "advisory:s-mid", "task:" + tOld}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("order %v, want %v", got, want)
	}
	if res.Total != 4 {
		t.Errorf("total %d", res.Total)
	}
	e := res.Entries[1]
	if e.Summary != "new task" || e.Outcome != "accepted" || *e.FinalScore != 0.9 || *e.Iterations != 1 ||
		*e.CostUSD != 0.25 || e.SessionID != "sess-1" || !e.Time.Equal(base.Add(-time.Hour)) || e.Source != "" {
		t.Errorf("task entry %+v", e)
	}
	a := res.Entries[2]
	if a.Summary != "fb s-mid" || a.Outcome != "rejected" || *a.FinalScore != 0.42 || *a.Iterations != 1 ||
		*a.CostUSD != 0.01 || a.TaskID != id("01HZ3", 1) || a.SessionID != "s-mid" {
		t.Errorf("advisory entry %+v", a)
	}

	limited := Log(dir, "", LogOptions{Limit: 2})
	if len(limited.Entries) != 2 || limited.Total != 4 || limited.Entries[1].ID != tNew {
		t.Errorf("limit 2: %d entries, total %d", len(limited.Entries), limited.Total)
	}
}

func TestLogEmptyAndMissingProject(t *testing.T) {
	for _, dir := range []string{t.TempDir(), filepath.Join(t.TempDir(), "absent")} {
		res := Log(dir, "", LogOptions{Limit: 20})
		if len(res.Entries) != 0 || res.Total != 0 || len(res.Problems) != 0 {
			t.Errorf("%s: %+v", dir, res)
		}
		if !strings.Contains(RenderLog(res), "No tribunal tasks") {
			t.Errorf("empty render: %s", RenderLog(res))
		}
	}
}

func TestLogFillsGapsFromTheEventsLog(t *testing.T) {
	dir := t.TempDir()
	done := ulidAt(base, 1)
	running := ulidAt(base.Add(time.Minute), 2)
	writeTask(t, dir, done, manifest(done, "done", params("majority", 0.75)), "", []iter{{}, {}})
	writeTask(t, dir, running, manifest(running, "running", params("majority", 0.75)), "", []iter{{}})
	logPath := filepath.Join(t.TempDir(), "events.jsonl")
	testkit.WriteFile(t, logPath, strings.Join([]string{
		`{"event_type":"other.plugin","payload":{"task_id":"` + done + `"}}`,
		`not json but mentions "tribunal.session.complete" and "` + done + `"`,
		`{"event_type":"tribunal.session.complete","session_id":"s","payload":{"task_id":"` + done + `","outcome":"aborted","final_score":0.3,"iterations_used":2,"total_cost_usd":0.7}}`,
		`{"event_type":"tribunal.session.complete","payload":{"task_id":"someone-else","outcome":"accepted"}}`,
	}, "\n")) // no final newline: the last line still counts
	res := Log(dir, logPath, LogOptions{})
	if len(res.Problems) != 0 {
		t.Fatalf("problems:\n%s", problemText(res.Problems))
	}
	byID := map[string]Entry{}
	for _, e := range res.Entries {
		byID[e.ID] = e
	}
	d := byID[done]
	if d.Outcome != "aborted" || d.Source != "events log" || *d.FinalScore != 0.3 || *d.Iterations != 2 || *d.CostUSD != 0.7 {
		t.Errorf("done from events: %+v", d)
	}
	r := byID[running]
	if r.Outcome != OutcomeIncomplete || r.Source != "" || *r.Iterations != 1 || r.FinalScore != nil {
		t.Errorf("running: %+v", r)
	}
	if !strings.Contains(RenderLog(res), "aborted (events log)") || !strings.Contains(RenderLog(res), "… incomplete") {
		t.Errorf("render:\n%s", RenderLog(res))
	}
}

func TestLogReportsDamageAndKeepsListing(t *testing.T) {
	dir := t.TempDir()
	bad := ulidAt(base, 1)
	good := ulidAt(base.Add(time.Minute), 2)
	writeTask(t, dir, bad, "{", `{"outcome":`, nil)
	writeTask(t, dir, good, manifest(good, "good", params("majority", 0.75)), `{"outcome":"accepted"}`, nil)
	testkit.WriteFile(t, filepath.Join(dir, "stop-broken.json"), "[]")
	res := Log(dir, "", LogOptions{})
	text := problemText(res.Problems)
	for _, want := range []string{
		filepath.Join(dir, bad, "manifest.json") + `": not valid JSON`,
		filepath.Join(dir, bad, "session-complete.json") + `": not valid JSON`,
		filepath.Join(dir, "stop-broken.json") + `": not a valid advisory verdict: not a JSON object`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("problems lack %q:\n%s", want, text)
		}
	}
	if len(res.Problems) != 3 {
		t.Errorf("%d problems:\n%s", len(res.Problems), text)
	}
	if len(res.Entries) != 2 || res.Entries[1].ID != bad || res.Entries[1].Outcome != OutcomeIncomplete {
		t.Errorf("entries %+v", res.Entries)
	}
}

func TestRenderLogEscapesCells(t *testing.T) {
	s := 0.5
	out := RenderLog(LogResult{Total: 3, Entries: []Entry{{
		Kind: KindTask, ID: "T", Time: base, Summary: "a | b\nc " + strings.Repeat("x", 200), Outcome: "accepted", FinalScore: &s,
	}}})
	line := strings.Split(out, "\n")[2]
	if !strings.Contains(line, `a \| b c x`) || strings.Count(line, "|")-strings.Count(line, `\|`) != 9 {
		t.Errorf("row not escaped: %s", line)
	}
	if !strings.Contains(out, "1 of 3 records") {
		t.Errorf("no limit note:\n%s", out)
	}
}

func TestScanEventsMissingLog(t *testing.T) {
	evs, err := scanEvents(filepath.Join(t.TempDir(), "absent"), []string{"x"})
	if err != nil || len(evs) != 0 {
		t.Errorf("%v %v", evs, err)
	}
	d := t.TempDir()
	_, err = scanEvents(d, []string{"x"}) // a directory cannot be read as a log
	var p *records.Problem
	if !errors.As(err, &p) || p.Path != d {
		t.Errorf("directory as log: %v", err)
	}
}

func TestRenderLogTableFitsTheWidth(t *testing.T) {
	score, n := 0.9000000000000002, 2
	long := strings.Repeat("word ", 60)
	r := LogResult{Total: 1, Entries: []Entry{{Kind: KindTask, ID: id("01HZ9", 1), ShortID: "01HZ9000", Time: base,
		Summary: long + "\x1b[31mred", Outcome: "accepted", FinalScore: &score, Iterations: &n}}}
	for _, width := range []int{0, 80, 100, 160} {
		out := RenderLogTable(r, width)
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if len(lines) != 2 {
			t.Fatalf("width %d: %q", width, out)
		}
		// The other columns take 66 here; the summary keeps at least 20
		// characters however narrow the terminal.
		limit := max(width, 66+minSummaryWidth)
		if width == 0 {
			limit = 66 + defaultSummaryWidth
		}
		for _, l := range lines {
			if n := len([]rune(l)); n > limit {
				t.Errorf("width %d: line of %d characters: %q", width, n, l)
			}
		}
		if strings.Contains(out, "\x1b") || strings.Contains(out, "0.9000000000000002") || !strings.Contains(lines[1], " 0.90 ") {
			t.Errorf("width %d: unsafe or unrounded: %q", width, out)
		}
		if !strings.HasPrefix(lines[1], "2026-05-24 10:00Z  task  ✓ accepted") || !strings.Contains(lines[1], "01HZ9000  word") {
			t.Errorf("width %d: columns %q", width, lines[1])
		}
	}
}
