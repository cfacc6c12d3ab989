package history

import (
	"fmt"
	"strings"
	"testing"
)

// gateJSON renders a recorded gate decision: "pass" or a block reason,
// optionally with ",fc=<criterion>".
func gateJSON(decision string) string {
	if decision == "pass" {
		return `{"passed":true}`
	}
	reason, fc, _ := strings.Cut(decision, ",fc=")
	if fc != "" {
		return fmt.Sprintf(`{"passed":false,"reason":%q,"failed_criterion":%q}`, reason, fc)
	}
	return fmt.Sprintf(`{"passed":false,"reason":%q}`, reason)
}

// The rows of spec §6.4 where tribunal 1.2.7 decided differently from
// the Go rules. Recorded with tribunal 1.2.7's decision, a replay must
// report the Go decision as a change; recorded with the Go decision, it
// must report "same".
func TestReplayDetectsTheReferenceRuleChanges(t *testing.T) {
	cases := []struct {
		row       int
		policy    string
		threshold float64
		verdicts  []string
		meta      string
		aggregate string
		reference string
		goResult  string
		// dissent.json as each rule recorded it ("" when not recorded).
		refDissent, goDissent string
	}{
		{9, "majority", 0.5, []string{`{"score":0.68,"passed":true}`, `{"score":0.43,"passed":true}`},
			`{"verdict_quality":"sound","bias_detected":false}`, "0.555", "dissent_unresolved", "pass", "0.25000000000000006", ""},
		{19, "majority", 0.75, []string{`{"score":0.95,"passed":true}`, `{"score":0.6,"passed":true}`},
			`{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"reject"}`, "0.775", "pass", "dissent_unresolved", "0.35", "0.35"},
		{20, "meta_override", 0.75, []string{`{"score":0.95,"passed":true}`, `{"score":0.6,"passed":true}`},
			`{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"bogus"}`, "0.775", "pass", "dissent_unresolved", "0.35", "0.35"},
		{52, "meta_override", 0.75, nil,
			`{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"accept"}`, "0", "pass", "low_score", "", ""},
		{53, "meta_override", 0.75, []string{`{"passed":true}`},
			`{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"accept"}`, "0", "pass", "low_score", "", ""},
	}
	for _, c := range cases {
		for i, recorded := range []string{c.reference, c.goResult} {
			dissent := []string{c.refDissent, c.goDissent}[i]
			if dissent != "" {
				dissent = `{"disagreement_score":` + dissent + `}`
			}
			t.Run(fmt.Sprintf("case %d recorded %s", c.row, recorded), func(t *testing.T) {
				dir := t.TempDir()
				task := ulidAt(base, c.row)
				writeTask(t, dir, task, manifest(task, "t", params(c.policy, c.threshold)), "", []iter{{
					verdicts: c.verdicts, meta: c.meta, gate: gateJSON(recorded),
					consensus: `{"aggregated_score":` + c.aggregate + `}`, dissent: dissent,
				}})
				res := Replay(dir, task)
				if len(res.Problems) != 0 {
					t.Fatalf("problems:\n%s", problemText(res.Problems))
				}
				it := res.Iterations[0]
				now := "pass"
				if !it.Replayed.Passed {
					now = it.Replayed.Reason
				}
				if now != c.goResult {
					t.Fatalf("replayed %s, want %s (warnings %v)", now, c.goResult, it.Warnings)
				}
				wantDiff := i == 0
				if it.DecisionChanged != wantDiff || res.Differs() != wantDiff {
					t.Errorf("changed %v differs %v, want %v: %v", it.DecisionChanged, res.Differs(), wantDiff, it.Differences)
				}
				if wantDiff && (it.Status != StatusDiffers || !strings.HasPrefix(it.Differences[0], "gate: recorded ")) {
					t.Errorf("status %s differences %v", it.Status, it.Differences)
				}
				if !wantDiff && it.Status != StatusSame {
					t.Errorf("status %s differences %v", it.Status, it.Differences)
				}
			})
		}
	}
}

func TestReplayComparesNumbers(t *testing.T) {
	two := []string{`{"score":0.68,"passed":true}`, `{"score":0.43,"passed":true}`}
	meta := `{"verdict_quality":"sound","bias_detected":false}`
	cases := []struct {
		name      string
		consensus string
		dissent   string
		gate      string
		want      []string
		changed   bool
	}{
		{name: "same", consensus: `{"aggregated_score":0.555}`, gate: gateJSON("pass")},
		{name: "aggregate within 1e-9", consensus: `{"aggregated_score":0.5550000000001}`, gate: gateJSON("pass")},
		{name: "aggregate changed", consensus: `{"aggregated_score":0.6}`, gate: gateJSON("pass"),
			want: []string{"aggregate: recorded 0.6, now 0.555"}},
		{name: "no consensus: gate final_score", gate: `{"passed":true,"final_score":0.7}`,
			want: []string{"aggregate: recorded 0.7, now 0.555"}},
		{name: "dissent recorded, no longer", consensus: `{"aggregated_score":0.555}`,
			dissent: `{"disagreement_score":0.25000000000000006}`, gate: gateJSON("dissent_unresolved"), changed: true,
			want: []string{"gate: recorded blocked (dissent_unresolved), now passed",
				"dissent: recorded at 0.25, now 0.25 does not exceed 0.25"}},
		{name: "failed criterion differs", consensus: `{"aggregated_score":0.555}`,
			gate: gateJSON("low_score,fc=safety"), changed: true,
			want: []string{"gate: recorded blocked (low_score, failed criterion safety), now passed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			task := ulidAt(base, 1)
			writeTask(t, dir, task, manifest(task, "t", params("majority", 0.5)), "", []iter{{
				verdicts: two, meta: meta, consensus: c.consensus, dissent: c.dissent, gate: c.gate,
			}})
			res := Replay(dir, task)
			it := res.Iterations[0]
			if strings.Join(it.Differences, "|") != strings.Join(c.want, "|") || it.DecisionChanged != c.changed {
				t.Errorf("differences %q changed %v, want %q %v", it.Differences, it.DecisionChanged, c.want, c.changed)
			}
		})
	}
	// A disagreement that now exceeds the threshold although none was
	// recorded.
	dir := t.TempDir()
	task := ulidAt(base, 2)
	writeTask(t, dir, task, manifest(task, "t", params("majority", 0.5)), "", []iter{{
		verdicts: []string{`{"score":0.9,"passed":true}`, `{"score":0.3,"passed":false}`}, meta: meta,
		consensus: `{"aggregated_score":0.6}`, gate: gateJSON("dissent_unresolved"),
	}})
	it := Replay(dir, task).Iterations[0]
	if len(it.Differences) != 1 || it.Differences[0] != "dissent: not recorded, now 0.6 exceeds 0.25" {
		t.Errorf("differences %q", it.Differences)
	}
}

func TestReplayIncompleteArtifacts(t *testing.T) {
	meta := `{"verdict_quality":"sound","bias_detected":false}`
	v := `{"score":0.9,"passed":true}`
	cons := `{"aggregated_score":0.9}`
	cases := []struct {
		name     string
		manifest string
		its      []iter
		status   []string
		why      string
		complete bool
	}{
		{name: "all good", manifest: "ok", its: []iter{{verdicts: []string{v}, meta: meta, consensus: cons, gate: gateJSON("pass")}},
			status: []string{StatusSame}, complete: true},
		{name: "ended before the gate", manifest: "ok", its: []iter{
			{verdicts: []string{v}, meta: meta, consensus: cons, gate: gateJSON("low_score")},
			{verdicts: []string{""}},
		}, status: []string{StatusDiffers, StatusNoGate}, complete: true},
		{name: "no manifest", its: []iter{{verdicts: []string{v}, meta: meta, consensus: cons, gate: gateJSON("pass")}},
			status: []string{StatusNotReplayed}, why: "parameters are unknown"},
		{name: "manifest without params", manifest: "bare", its: []iter{{verdicts: []string{v}, meta: meta, consensus: cons, gate: gateJSON("pass")}},
			status: []string{StatusNotReplayed}, why: "parameters are unknown"},
		{name: "missing meta", manifest: "ok", its: []iter{{verdicts: []string{v}, gate: gateJSON("pass")}},
			status: []string{StatusNotReplayed}, why: "meta.json is missing"},
		{name: "corrupt gate", manifest: "ok", its: []iter{{verdicts: []string{v}, meta: meta, consensus: cons, gate: "{"}},
			status: []string{StatusNotReplayed}, why: "gate.json is missing or unreadable"},
		{name: "missing verdict", manifest: "ok", its: []iter{{verdicts: []string{v, ""}, meta: meta, consensus: cons, gate: gateJSON("pass")}},
			status: []string{StatusNotReplayed}, why: "verdict file " + id("01HZ2", 101) + ".json is missing"},
		{name: "meta not an object", manifest: "ok", its: []iter{{verdicts: []string{v}, meta: `[1]`, gate: gateJSON("pass")}},
			status: []string{StatusNotReplayed}, why: "meta.json is not a JSON object"},
		// Without jury.json the verdict files still make the panel; the
		// damage is reported, so the replay counts as incomplete.
		{name: "no jury", manifest: "ok", its: []iter{{verdicts: []string{v}, noJury: true, meta: meta, consensus: cons, gate: gateJSON("pass")}},
			status: []string{StatusSame}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			task := ulidAt(base, 1)
			m := ""
			switch c.manifest {
			case "ok":
				m = manifest(task, "t", params("majority", 0.75))
			case "bare":
				m = `{"task_id":"` + task + `","task_summary":"t"}`
			}
			writeTask(t, dir, task, m, "", c.its)
			res := Replay(dir, task)
			var got []string
			for _, it := range res.Iterations {
				got = append(got, it.Status)
				if it.Why != "" && !strings.Contains(it.Why, c.why) {
					t.Errorf("why %q, want %q", it.Why, c.why)
				}
			}
			if strings.Join(got, ",") != strings.Join(c.status, ",") {
				t.Errorf("statuses %v, want %v", got, c.status)
			}
			if res.Complete() != c.complete {
				t.Errorf("complete %v, want %v; problems:\n%s", res.Complete(), c.complete, problemText(res.Problems))
			}
		})
	}
}

func TestRenderReplay(t *testing.T) {
	dir := t.TempDir()
	task := ulidAt(base, 1)
	meta := `{"verdict_quality":"sound","bias_detected":false}`
	its := writeTask(t, dir, task, manifest(task, "t", params("majority", 0.5)), "", []iter{
		{verdicts: []string{`{"score":0.68,"passed":true}`, `{"score":0.43,"passed":true}`}, meta: meta,
			consensus: `{"aggregated_score":0.555}`, dissent: `{"disagreement_score":0.25000000000000006}`, gate: gateJSON("dissent_unresolved")},
		{verdicts: []string{`{"score":0.9,"passed":true}`}, meta: meta, consensus: `{"aggregated_score":0.9}`, gate: gateJSON("pass")},
		{verdicts: []string{`{"score":0.9,"passed":true}`}, gate: gateJSON("pass")},
	})
	out := RenderReplay(Replay(dir, task))
	want := "replay of task " + task + " (policy majority, threshold 0.5, dissent threshold 0.25, mean) with the current rules\n" +
		"iteration 1 (" + its[0] + "): differs — gate: recorded blocked (dissent_unresolved), now passed; dissent: recorded at 0.25, now 0.25 does not exceed 0.25\n" +
		"iteration 2 (" + its[1] + "): same — passed at 0.9\n" +
		"iteration 3 (" + its[2] + "): not replayed — meta.json is missing or unreadable\n" +
		"result: 1 of 2 replayed iteration(s) differ; 1 could not be replayed\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// tribunal's additional checks (command judges, severity, trust) block
// only after the core gate passed; replay recomputes the spec's
// gate and says that the later block is not recomputed.
func TestReplayAdditionalChecks(t *testing.T) {
	meta := `{"verdict_quality":"sound","bias_detected":false}`
	cases := []struct {
		name     string
		verdicts []string
		want     string
	}{
		{"core gate still passes", []string{`{"score":0.9,"passed":true}`},
			"same — passed (then blocked by the command check, which replay does not recompute) at 0.9"},
		{"core gate now blocks", []string{`{"score":0.5,"passed":false}`},
			"differs — gate: recorded passed (then blocked by the command check, which replay does not recompute), now blocked (low_score)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			task := ulidAt(base, 1)
			writeTask(t, dir, task, manifest(task, "t", params("majority", 0.75)), "", []iter{{
				verdicts: c.verdicts, meta: meta,
				gate: `{"passed":false,"reason":"criterion_floor","failed_criterion":"command:tests","blocked_by":"command",
				  "command_judges":[{"name":"tests","required":true,"passed":false,"feedback":"exit 1"}]}`,
			}})
			out := RenderReplay(Replay(dir, task))
			if !strings.Contains(out, c.want) {
				t.Errorf("replay:\n%s\nwant %q", out, c.want)
			}
		})
	}
}
