package history

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	t1 := id("01HZA", 1)
	t2 := id("01HZB", 2)
	writeTask(t, dir, t1, "", "", nil)
	writeTask(t, dir, t2, "", "", nil)
	// Two tasks of the same second: only their random ends tell them apart.
	t3, t4 := "01J00000007Q2B3C4D5E6F7G8H", "01J0000000K9M3NX4P5R6S7T8V"
	writeTask(t, dir, t3, "", "", nil)
	writeTask(t, dir, t4, "", "", nil)
	stopFile(t, dir, "3f2a9c1b-aaaa", id("01HZ3", 1), "accepted", 0.9, "")
	stopFile(t, dir, "3f2a9c1b-bbbb", id("01HZ3", 2), "accepted", 0.9, "")
	// The Stop hook names "a/b c" a_b_c_<hash>: its prefix resolves (one of
	// records.MinPrefix characters).
	odd := records.StopPath(store.ForKey(dir, "").Dir, "a/b c")
	testkit.WriteFile(t, filepath.Join(dir, filepath.Base(odd)), `{}`)
	cases := []struct {
		in      string
		kind    string
		target  string
		wantErr error
	}{
		{in: t1, kind: KindTask, target: t1},
		{in: strings.ToLower(t2), kind: KindTask, target: t2},
		{in: "01HZA", kind: KindTask, target: t1},
		{in: " " + t1 + " ", kind: KindTask, target: t1},
		{in: "3f2a9c1b-aaaa", kind: KindAdvisory, target: "stop-3f2a9c1b-aaaa.json"},
		{in: "3f2a9c1b-b", kind: KindAdvisory, target: "stop-3f2a9c1b-bbbb.json"},
		{in: "a/b c", kind: KindAdvisory, target: filepath.Base(odd)},
		{in: "a/b_", kind: KindAdvisory, target: filepath.Base(odd)},
		{in: "a/b", wantErr: records.ErrShortID},
		{in: "01H", wantErr: records.ErrShortID},
		{in: "3f2a9c1b", wantErr: ErrAmbiguous},
		{in: "01HZ", wantErr: ErrAmbiguous},
		{in: "7g8h", kind: KindTask, target: t3},   // the end, any case
		{in: "NX4P5R", kind: KindTask, target: t4}, // any part
		{in: "aaaa", kind: KindAdvisory, target: "stop-3f2a9c1b-aaaa.json"},
		{in: "01J0000000", wantErr: ErrAmbiguous},
		{in: "nothing", wantErr: ErrNotFound},
		{in: "../../etc", wantErr: ErrNotFound},
		{in: "", wantErr: ErrNotFound},
	}
	for _, c := range cases {
		ref, err := Resolve(dir, c.in)
		if c.wantErr != nil {
			if !errors.Is(err, c.wantErr) {
				t.Errorf("Resolve(%q) err = %v, want %v", c.in, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Resolve(%q): %v", c.in, err)
			continue
		}
		got := ref.TaskID
		if ref.Kind == KindAdvisory {
			got = filepath.Base(ref.StopPath)
		}
		if ref.Kind != c.kind || got != c.target {
			t.Errorf("Resolve(%q) = %s %s, want %s %s", c.in, ref.Kind, got, c.kind, c.target)
		}
	}
	// An ambiguous id lists its candidates with their kind, newest first.
	_, err := Resolve(dir, "3f2a9c1b")
	var amb *records.AmbiguousError
	if !errors.As(err, &amb) || len(amb.Candidates) != 2 ||
		!strings.HasPrefix(amb.Candidates[0], "verdict session 3f2a9c1b-bbbb (") ||
		!strings.HasPrefix(amb.Candidates[1], "verdict session 3f2a9c1b-aaaa (") {
		t.Errorf("ambiguity does not list the candidates: %v", err)
	}
	_, err = Resolve(dir, "01j0000000")
	if !errors.As(err, &amb) || len(amb.Candidates) != 2 || !strings.HasPrefix(amb.Candidates[0], "task "+t4+" (") {
		t.Errorf("ambiguity does not list the tasks: %v", err)
	}
}

func TestShowTaskReadsEveryArtifact(t *testing.T) {
	dir := t.TempDir()
	task := ulidAt(base, 1)
	its := writeTask(t, dir, task, manifest(task, "fix it", params("majority", 0.75)),
		`{"outcome":"exhausted_iterations","final_score":0.82,"iterations_used":2,"total_cost_usd":0.5,"total_duration_ms":1500}`,
		[]iter{
			{
				actor: "line one\nline two\n",
				verdicts: []string{
					`{"score":0.85,"passed":true,"criterion_scores":{"correctness":0.9,"safety":0.3},"feedback_summary":"Unsafe.","confidence":0.7}`,
					`{"score":1.5,"passed":true,"criterion_scores":{"safety":"high"}}`,
					`{"failed":true,"error":"judge timed out"}`,
				},
				consensus: `{"aggregated_score":0.85,"passed":true,"aggregation_method":"mean"}`,
				meta:      `{"verdict_quality":"biased","bias_detected":true,"bias_types":["length"],"override_recommendation":"reject","bias_probes":["length probe"]}`,
				gate:      `{"passed":false,"reason":"criterion_floor","failed_criterion":"safety","final_score":0.85,"will_retry":true}`,
			},
			{
				verdicts:  []string{`{"score":0.8,"passed":true}`, `{"score":0.2,"passed":false}`},
				consensus: `{"aggregated_score":0.5,"passed":false,"aggregation_method":"mean"}`,
				dissent:   `{"disagreement_score":0.6}`,
				meta:      `{"verdict_quality":"questionable","bias_detected":false,"failed":true,"error":"meta crashed"}`,
				gate:      `{"passed":false,"reason":"dissent_unresolved","final_score":0.5,"will_retry":false}`,
			},
		})
	v := ShowTask(dir, "", task)
	if len(v.Problems) != 0 {
		t.Fatalf("problems:\n%s", problemText(v.Problems))
	}
	if v.Manifest.TaskSummary != "fix it" || v.Params.GatePolicy != "majority" || *v.Params.ScoreThreshold != 0.75 ||
		v.Complete.Outcome != "exhausted_iterations" || v.CompleteSource != "session-complete.json" || len(v.Iterations) != 2 {
		t.Fatalf("view %+v", v)
	}
	it := v.Iterations[0]
	if it.ID != its[0] || it.Number != 0 || it.ActorText != "line one\nline two" {
		t.Errorf("iteration header %+v", it)
	}
	j := it.Judges
	if len(j) != 3 || *j[0].Score != 0.85 || !j[0].Passed || j[0].Feedback != "Unsafe." || *j[0].Confidence != 0.7 ||
		string(j[0].CriterionScores["safety"]) != "0.3" || j[0].Type != "t0" || j[0].Model != "m0" {
		t.Errorf("judge 0 %+v", j[0])
	}
	if j[1].Score != nil || string(j[1].RawScore) != "1.5" || string(j[1].CriterionScores["safety"]) != `"high"` {
		t.Errorf("judge 1 (unusable score) %+v", j[1])
	}
	if !j[2].Failed || j[2].Error != "judge timed out" || j[2].Passed {
		t.Errorf("judge 2 (failed) %+v", j[2])
	}
	if f := it.Floor; f == nil || f.Criterion != "safety" || *f.Lowest != 0.3 || *f.Floor != 0.8 {
		t.Errorf("floor facts %+v", it.Floor)
	}
	if it.Meta.OverrideRecommendation != "reject" || it.Meta.BiasTypes[0] != "length" || it.Dissent != nil {
		t.Errorf("meta %+v dissent %+v", it.Meta, it.Dissent)
	}
	if v.Iterations[1].Dissent.DisagreementScore != 0.6 || !v.Iterations[1].Meta.Failed {
		t.Errorf("iteration 2 %+v", v.Iterations[1])
	}

	out := RenderTask(v)
	for _, want := range []string{
		"## tribunal task " + task + " — ✗ not accepted, score 0.82",
		"**Task:** fix it",
		"started 2026-05-24 10:00Z · session sess-1 · rubric default · policy majority · threshold 0.75 · dissent threshold 0.25 · aggregation mean",
		"iterations 2 of 3 · cost $0.5000 · 1.5 s",
		"> line one\n> line two\n",
		"- t0 0.85 ✓ pass (m0, confidence 0.70, judge " + id("01HZ2", 100) + ")\n  criteria: correctness 0.9, safety 0.3\n  feedback, quoted:\n> Unsafe.\n",
		"- t1 unusable score 1.5 (m1, judge ",
		"  criteria: safety \"high\"",
		"- t2 — failed: judge timed out (m2, judge ",
		"- **Meta-judge:** jury biased; bias detected: length; recommended reject; probe: length probe",
		"- **Gate:** blocked (criterion_floor): safety scored 0.30, below its floor 0.80 despite an overall 0.85; retried",
		"- **Dissent:** recorded, disagreement 0.60",
		"- **Meta-judge:** failed (meta crashed); treated as questionable with no bias",
		"- **Gate:** blocked (dissent_unresolved): the judges disagreed, or too few voted to pass\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
}

func TestShowTaskDamageAndEndedIterations(t *testing.T) {
	dir := t.TempDir()
	task := ulidAt(base, 1)
	its := writeTask(t, dir, task, "", "", []iter{
		{
			verdicts: []string{`{"score":0.9,"passed":true}`, ""}, // second verdict file missing
			meta:     "{",
			gate:     `{"passed":false,"reason":"low_score"}`,
		},
		{verdicts: []string{"", ""}}, // interrupted while the jury deliberated
	})
	v := ShowTask(dir, "", task)
	text := problemText(v.Problems)
	d0 := filepath.Join(dir, task, "iteration-"+its[0])
	for _, want := range []string{
		filepath.Join(dir, task, "manifest.json") + `": missing`,
		filepath.Join(d0, "meta.json") + `": not valid JSON`,
		filepath.Join(d0, "consensus.json") + `": missing`,
		filepath.Join(d0, "verdicts") + "/",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("problems lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, its[1]) {
		t.Errorf("an ended iteration is not damage:\n%s", text)
	}
	if len(v.Problems) != 4 {
		t.Errorf("%d problems:\n%s", len(v.Problems), text)
	}
	if !v.Iterations[0].Judges[1].Missing || v.Iterations[0].Judges[0].Score == nil || !v.Iterations[1].Ended {
		t.Errorf("iterations %+v", v.Iterations)
	}
	out := RenderTask(v)
	for _, want := range []string{
		"## tribunal task " + task + " — … incomplete, score —",
		"no completion record",
		"- t1 — verdict file missing or unreadable",
		"- **Gate:** blocked (low_score): the aggregate is below the score threshold",
		"- **Gate:** none (the iteration ended before the gate)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
}

func TestShowAdvisoryUsesStopFileMarkerAndEvents(t *testing.T) {
	dir := t.TempDir()
	taskID := id("01HZ3", 7)
	cost := 0.02
	f := records.StopFile{
		TaskID: taskID, SessionID: "sess/9", Outcome: "rejected", Mode: records.Mode,
		Verdict: events.Verdict{TaskID: taskID, Score: 0.3, JudgeType: "standard", FeedbackSummary: "Too risky.",
			Confidence: events.Ptr(0.6), JudgeModelID: "claude-opus-4-7"},
		Fingerprint: "fp", WrittenAt: base.Format(time.RFC3339), CostUSD: &cost,
	}
	p := filepath.Join(dir, records.StopFileName(f.SessionID))
	if err := store.WriteJSON(p, f); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(t.TempDir(), "events.jsonl")
	testkit.WriteFile(t, logPath, `{"event_type":"tribunal.verdict","token_count":321,"payload":{"task_id":"`+taskID+`","score":0.3}}
{"event_type":"tribunal.session.complete","payload":{"task_id":"`+taskID+`","outcome":"rejected","total_duration_ms":2500}}
`)
	v, err := ShowAdvisory(dir, logPath, p)
	if err != nil {
		t.Fatal(err)
	}
	if v.Surfaced != nil || *v.DurationMS != 2500 || *v.TokenCount != 321 || v.SessionID != "sess/9" || v.Feedback != "Too risky." {
		t.Errorf("view %+v", v)
	}
	out := RenderAdvisory(v, base.Add(3*time.Hour))
	for _, want := range []string{
		"## tribunal advisory verdict — ✗ rejected, score 0.30",
		"Session: sess/9",
		"written 2026-05-24 10:00Z (3 h ago) · judge standard (claude-opus-4-7) · confidence 0.60 · cost $0.0200 · 2.5 s · 321 tokens",
		"**Feedback** (the judge's words, quoted):\n\n> Too risky.\n\n",
		"Not yet shown (it is shown at the session's next prompt, or when a new session starts).",
		"Task id " + taskID + " · fingerprint fp",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
	testkit.WriteFile(t, filepath.Join(dir, "surfaced", strings.TrimSuffix(records.StopFileName("sess/9"), ".json")+"."+taskID), `{"surfaced_at":"2026-05-24T11:00:00Z","session_id":"later"}`)
	v, _ = ShowAdvisory(dir, "", p)
	if out := RenderAdvisory(v, base); !strings.Contains(out, "Shown when a new session started at 2026-05-24 11:00Z (session later).") {
		t.Errorf("surfaced render:\n%s", out)
	}
	// Shown at the next prompt of the session that produced it: never "a
	// new session" (issue 22).
	testkit.WriteFile(t, filepath.Join(dir, "surfaced", strings.TrimSuffix(records.StopFileName("sess/9"), ".json")+"."+taskID), `{"surfaced_at":"2026-05-24T11:00:00Z","session_id":"sess/9"}`)
	v, _ = ShowAdvisory(dir, "", p)
	if out := RenderAdvisory(v, base); !strings.Contains(out, "Shown at the next prompt of its own session at 2026-05-24 11:00Z.") ||
		strings.Contains(out, "new session") {
		t.Errorf("same-session render:\n%s", out)
	}
	// The diff the judge was shown, kept beside the judgement record.
	testkit.WriteFile(t, records.JudgementDiffPath(dir, "sess/9", taskID), "diff --git a/x b/x\n+y\n")
	v, _ = ShowAdvisory(dir, "", p)
	if v.Diff != "diff --git a/x b/x\n+y\n" || !strings.Contains(RenderAdvisory(v, base), "Diff: `tribunal-session show sess_9_") {
		t.Errorf("kept diff: %q\n%s", v.Diff, RenderAdvisory(v, base))
	}
	testkit.WriteFile(t, p, "[]")
	if _, err := ShowAdvisory(dir, "", p); err == nil || !strings.Contains(err.Error(), "not a valid advisory verdict") {
		t.Errorf("corrupt stop file: %v", err)
	}
}

func TestShowTaskRendersAdditionalChecks(t *testing.T) {
	dir := t.TempDir()
	task := ulidAt(base, 1)
	writeTask(t, dir, task, manifest(task, "t", params("majority", 0.75)), "", []iter{{
		verdicts:  []string{`{"score":0.9,"passed":true}`},
		consensus: `{"aggregated_score":0.9,"aggregation_method":"mean"}`,
		meta:      `{"verdict_quality":"sound","bias_detected":false}`,
		gate: `{"passed":false,"reason":"criterion_floor","failed_criterion":"command:tests","blocked_by":"command",
		  "trust":{"trustworthy":false,"reasons":["spread 0.6 above 0.5"],"alpha":0.1,"alpha_measured":true},
		  "worst_severity":"critical",
		  "findings":[{"severity":"critical","message":"SQL built by\nconcatenation","file":"db.go","line":12},{"severity":"minor","message":"naming"}],
		  "command_judges":[{"name":"tests","required":true,"passed":false,"feedback":"sh exited 1: FAIL"},{"name":"lint","required":false,"passed":true}]}`,
	}})
	v := ShowTask(dir, "", task)
	if len(v.Problems) != 0 {
		t.Fatalf("problems:\n%s", problemText(v.Problems))
	}
	out := RenderTask(v)
	for _, want := range []string{
		"- **Command judge tests:** failed — sh exited 1: FAIL",
		"- **Command judge lint:** passed (not required)",
		"- **Findings** (worst critical): [1] critical: SQL built by concatenation (db.go:12); [2] minor: naming",
		"- **Trust:** untrustworthy: spread 0.6 above 0.5 (alpha 0.10)",
		"- **Gate:** blocked (criterion_floor): command judge tests failed (the command check, after the jury's gate passed)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
}

func TestResolveLastAndRuns(t *testing.T) {
	dir := t.TempDir()
	older := ulidAt(base.Add(-time.Hour), 1)
	newer := ulidAt(base, 2)
	writeTask(t, dir, older, "", "", nil)
	writeTask(t, dir, newer, "", "", nil)
	ref, err := Resolve(dir, "last")
	if err != nil || ref.TaskID != newer {
		t.Errorf("last = %+v, %v; want %s", ref, err, newer)
	}
	// An advisory verdict written after the newest task is the last record.
	stopFile(t, dir, "s-late", id("01HZ3", 1), "accepted", 0.9, base.Add(time.Minute).Format(time.RFC3339))
	ref, err = Resolve(dir, "LAST")
	if err != nil || ref.Kind != KindAdvisory || filepath.Base(ref.StopPath) != "stop-s-late.json" {
		t.Errorf("last = %+v, %v; want the advisory verdict", ref, err)
	}
	if _, err := Resolve(t.TempDir(), "last"); !errors.Is(err, ErrNotFound) {
		t.Errorf("last of an empty project: %v", err)
	}

	runs := filepath.Join(t.TempDir(), "runs")
	for _, r := range []string{older, newer, "not-a-run"} {
		testkit.WriteFile(t, filepath.Join(runs, r, "pid"), "1")
	}
	cases := []struct {
		in, want string
		err      error
	}{
		{"last", newer, nil},
		{newer, newer, nil},
		{strings.ToLower(older[:12]), older, nil},
		{older[:5], "", ErrAmbiguous},
		{"not-a-run", "", nil},
		{"../../etc", "", nil},
		{"", "", ErrNotFound},
	}
	for _, c := range cases {
		got, err := ResolveRun(runs, c.in)
		switch {
		case c.want != "" && (err != nil || got != c.want):
			t.Errorf("ResolveRun(%q) = %q, %v; want %q", c.in, got, err, c.want)
		case c.want == "" && (err == nil || c.err != nil && !errors.Is(err, c.err)):
			t.Errorf("ResolveRun(%q) = %q, %v; want an error %v", c.in, got, err, c.err)
		}
	}
	if _, err := ResolveRun(filepath.Join(t.TempDir(), "none"), "last"); !errors.Is(err, ErrNotFound) {
		t.Errorf("last without runs: %v", err)
	}
}

func TestShortIDs(t *testing.T) {
	// a and b were made in the same second; c's end is inside b.
	a, b := "01HZAAAAAA7Q2B3C4D5E6F7G8H", "01HZAAAAAAK9M3NX4P5R6S7T8V"
	c := "01HZAAAAAB00000000004D5E6F"
	got := ShortIDs([]string{a, b, c, "stop-3f2a9c1b-aaaa", "stop-3f2a9c1b-bbbb", "stop-x"})
	want := map[string]string{
		a: "6F7G8H", b: "6S7T8V", c: "04D5E6F",
		"stop-3f2a9c1b-aaaa": "3f2a9c1b-a", "stop-3f2a9c1b-bbbb": "3f2a9c1b-b", "stop-x": "x",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("short id of %s = %q, want %q", k, got[k], w)
		}
	}
	// Every short id resolves to its record and to nothing else.
	dir := t.TempDir()
	for _, id := range []string{a, b, c} {
		writeTask(t, dir, id, "", "", nil)
	}
	for _, id := range []string{a, b, c} {
		if ref, err := Resolve(dir, got[id]); err != nil || ref.TaskID != id {
			t.Errorf("Resolve(%q) = %+v, %v; want %s", got[id], ref, err, id)
		}
	}
}

func TestJudgementRecordsResolveByShortID(t *testing.T) {
	dir := t.TempDir()
	rec1 := ulidAt(base.Add(-time.Hour), 7)
	rec2 := ulidAt(base, 8)
	for _, r := range []struct{ id, outcome string }{{rec1, "rejected"}, {rec2, "failed"}} {
		verdict := `,"verdict":{"score":0.4,"passed":false,"judge_type":"standard","feedback_summary":"fb"}`
		if r.outcome == "failed" {
			verdict = `,"error":"judge timed out"`
		}
		testkit.WriteFile(t, filepath.Join(dir, "stop-sess-1", r.id+".json"), `{"task_id":"`+r.id+`","session_id":"sess-1","outcome":"`+
			r.outcome+`"`+verdict+`,"mode":"stop-advisory","fingerprint":"f","written_at":"`+records.TaskTime(r.id).Format(time.RFC3339)+`"}`)
	}
	res := Log(dir, "", LogOptions{})
	if len(res.Problems) != 0 || len(res.Entries) != 2 {
		t.Fatalf("log %+v problems %s", res.Entries, problemText(res.Problems))
	}
	for _, e := range res.Entries {
		if e.ShortID == "" || len(e.ShortID) >= len(e.ID) {
			t.Errorf("record %s: short id %q", e.ID, e.ShortID)
		}
		ref, err := Resolve(dir, e.ShortID)
		if err != nil || ref.Kind != KindAdvisory || ref.StopPath != e.Ref(dir).StopPath ||
			filepath.Base(ref.StopPath) != e.ID+".json" {
			t.Errorf("Resolve(%q) = %+v, %v; want the record %s", e.ShortID, ref, err, e.ID)
		}
	}
	if ref, err := Resolve(dir, "last"); err != nil || filepath.Base(ref.StopPath) != rec2+".json" {
		t.Errorf("last = %+v, %v", ref, err)
	}
	failed := Log(dir, "", LogOptions{Outcomes: []string{"failed"}})
	if len(failed.Entries) != 1 || failed.Entries[0].ID != rec2 {
		t.Errorf("--outcome failed: %+v", failed.Entries)
	}
}

// TestDiffFIFO: a named pipe in place of a stored diff is an error naming
// it for `show --diff` and no own diff for `view`, not a read that waits
// for a writer forever (a regression hangs this test until go test's
// timeout).
func TestDiffFIFO(t *testing.T) {
	project := t.TempDir()
	task := id("01HZ0", 1)
	its := writeTask(t, project, task, manifest(task, "s", params("all", 0.8)), "", []iter{{}})
	dir := filepath.Join(project, task, "iteration-"+its[0])
	for _, name := range []string{records.DiffSnapshotFile, records.DiffPreviousFile} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
	}
	for _, previous := range []bool{false, true} {
		if _, err := records.IterationDiff(project, task, 1, previous); err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("IterationDiff(previous=%v) of a named pipe = %v, want an error naming it", previous, err)
		}
	}
	if got := (IterationView{Dir: dir}).OwnDiff(); got != "" {
		t.Errorf("OwnDiff of a named pipe = %q, want \"\"", got)
	}
}

// An id that names no record says what does exist: a tune run's id (tune
// prints it) points at view; any other id lists every kind show reads.
func TestResolveNotFoundWords(t *testing.T) {
	dir := t.TempDir()
	run := ulidAt(time.Date(2026, 12, 7, 8, 0, 0, 0, time.UTC), 7)
	testkit.WriteFile(t, filepath.Join(records.TunePath(dir, run), records.TuneResultFile), "{}")
	_, err := Resolve(dir, strings.ToLower(run))
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), run+" is a tune run, not a task or a verdict: 'tribunal-session view "+run+"' shows its page") {
		t.Errorf("a tune run's id: %v", err)
	}
	other := ulidAt(time.Date(2026, 12, 7, 8, 0, 0, 0, time.UTC), 8)
	if _, err := Resolve(dir, other); err == nil || !strings.Contains(err.Error(), `no task, review, answer or advisory verdict "`+other+`"`) {
		t.Errorf("an unknown id: %v", err)
	}
}
