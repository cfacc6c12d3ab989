package jury

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// panel runs Empanel over a JSON judge_types value with a counting id
// source and a model per effective type.
func panel(t *testing.T, judgeTypes string) ([]Seat, []string, []string) {
	t.Helper()
	var warnings, asked []string
	n := 0
	seats, err := Empanel(rubric.JudgeTypes(json.RawMessage(judgeTypes)),
		func(typ string) string { asked = append(asked, typ); return "model-" + typ },
		func() (string, error) { n++; return fmt.Sprintf("ID%02d", n), nil },
		func(s string) { warnings = append(warnings, s) })
	if err != nil {
		t.Fatal(err)
	}
	if seats == nil {
		t.Fatal("Empanel returned a nil panel; want an empty slice")
	}
	return seats, warnings, asked
}

// TestJudgeTypeTable transcribes spec §3.1 row by row.
func TestJudgeTypeTable(t *testing.T) {
	tests := []struct {
		requested string
		effective string // "" means the seat is refused
		agent     string
		warning   string // "" means silent
	}{
		{"standard", "standard", "tribunal-judge-standard", ""},
		{"security", "security", "tribunal-judge-security", ""},
		{"adversarial", "adversarial", "tribunal-judge-adversarial", ""},
		{"maintainability", "standard", "tribunal-judge-standard", `tribunal-jury: judge_type "maintainability" not shipped in v0.1, degrading to standard`},
		{"domain", "standard", "tribunal-judge-standard", `tribunal-jury: judge_type "domain" not shipped in v0.1, degrading to standard`},
		{"meta", "", "", `tribunal-jury: refusing to add judge_type "meta" to the jury (meta is the Meta-Judge)`},
		{"Standard", "standard", "tribunal-judge-standard", `tribunal-jury: unknown judge_type "Standard", degrading to standard`},
		{"performance", "standard", "tribunal-judge-standard", `tribunal-jury: unknown judge_type "performance", degrading to standard`},
		{"META", "standard", "tribunal-judge-standard", `tribunal-jury: unknown judge_type "META", degrading to standard`},
	}
	for _, tt := range tests {
		t.Run(tt.requested, func(t *testing.T) {
			seats, warnings, asked := panel(t, `["`+tt.requested+`"]`)
			var wantWarnings []string
			if tt.warning != "" {
				wantWarnings = []string{tt.warning}
			}
			if !slices.Equal(warnings, wantWarnings) {
				t.Errorf("warnings = %q, want %q", warnings, wantWarnings)
			}
			if tt.effective == "" {
				if len(seats) != 0 || len(asked) != 0 {
					t.Errorf("seat not refused: %+v", seats)
				}
				return
			}
			want := Seat{JudgeID: "ID01", JudgeType: tt.effective, RequestedType: tt.requested,
				Agent: tt.agent, Model: "model-" + tt.effective}
			if len(seats) != 1 || seats[0] != want {
				t.Errorf("seats = %+v, want [%+v]", seats, want)
			}
			// spec §2.5: the model lookup uses the type after degradation.
			if !slices.Equal(asked, []string{tt.effective}) {
				t.Errorf("model asked for %q, want %q", asked, tt.effective)
			}
		})
	}
}

// TestEmpanel covers the spec §3.2 rules.
func TestEmpanel(t *testing.T) {
	tests := []struct {
		name      string
		types     string
		wantTypes []string
		warnings  int
	}{
		{"default panel", `["standard","adversarial"]`, []string{"standard", "adversarial"}, 0},
		{"order kept", `["security","standard","adversarial"]`, []string{"security", "standard", "adversarial"}, 0},
		{"duplicates seat twice", `["standard","standard"]`, []string{"standard", "standard"}, 0},
		{"null skipped silently", `[null,"security"]`, []string{"security"}, 0},
		{"empty string skipped silently", `["","security"]`, []string{"security"}, 0},
		{`string "null" skipped silently`, `["null","security"]`, []string{"security"}, 0},
		{"meta refused, rest seated", `["meta","standard"]`, []string{"standard"}, 1},
		{"only meta: empty panel", `["meta"]`, []string{}, 1},
		{"empty list: empty panel", `[]`, []string{}, 0},
		{"only nulls: empty panel", `[null,"",null]`, []string{}, 0},
		{"non-array string: empty panel", `"standard"`, []string{}, 0},
		{"non-array object: empty panel", `{"0":"standard"}`, []string{}, 0},
		{"null value: empty panel", `null`, []string{}, 0},
		{"absent value: empty panel", ``, []string{}, 0},
		{"number entry degrades", `[5]`, []string{"standard"}, 1},
		{"bool entry degrades", `[true]`, []string{"standard"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seats, warnings, _ := panel(t, tt.types)
			got := []string{}
			for _, s := range seats {
				got = append(got, s.JudgeType)
			}
			if !slices.Equal(got, tt.wantTypes) {
				t.Errorf("types = %q, want %q", got, tt.wantTypes)
			}
			if len(warnings) != tt.warnings {
				t.Errorf("warnings = %q, want %d", warnings, tt.warnings)
			}
		})
	}
}

func TestEmpanelNonStringEntryNamedByJSON(t *testing.T) {
	seats, warnings, _ := panel(t, `[ {"a": 1} ]`)
	if len(seats) != 1 || seats[0].RequestedType != `{"a":1}` {
		t.Fatalf("seats = %+v", seats)
	}
	if want := `tribunal-jury: unknown judge_type "{\"a\":1}", degrading to standard`; !slices.Equal(warnings, []string{want}) {
		t.Errorf("warnings = %q, want %q", warnings, want)
	}
}

func TestEmpanelFreshIDs(t *testing.T) {
	seats, _, _ := panel(t, `["standard","standard","security"]`)
	ids := []string{}
	for _, s := range seats {
		ids = append(ids, s.JudgeID)
	}
	if !slices.Equal(ids, []string{"ID01", "ID02", "ID03"}) {
		t.Errorf("ids = %q, want one new id per seat", ids)
	}
}

func TestEmpanelIDError(t *testing.T) {
	boom := errors.New("no entropy")
	_, err := Empanel(rubric.JudgeTypes(json.RawMessage(`["standard"]`)), nil,
		func() (string, error) { return "", boom }, nil)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want it to wrap %v", err, boom)
	}
}

func TestEmpanelNilCallbacks(t *testing.T) {
	seats, err := Empanel(rubric.JudgeTypes(json.RawMessage(`["domain"]`)), nil,
		func() (string, error) { return "X", nil }, nil)
	if err != nil || len(seats) != 1 || seats[0].Model != "" {
		t.Fatalf("seats = %+v, err = %v", seats, err)
	}
}

func TestSeatJSON(t *testing.T) {
	tests := []struct {
		seat Seat
		want string
	}{
		{Seat{JudgeID: "01J", JudgeType: "standard", RequestedType: "domain", Agent: "tribunal-judge-standard", Model: "claude-opus-4-7"},
			`{"judge_id":"01J","judge_type":"standard","subagent":"tribunal-judge-standard","model":"claude-opus-4-7"}`},
		{Seat{JudgeID: "01K", JudgeType: "security", Agent: "tribunal-judge-security"},
			`{"judge_id":"01K","judge_type":"security","subagent":"tribunal-judge-security","model":null}`},
	}
	for _, tt := range tests {
		got, err := json.Marshal(tt.seat)
		if err != nil || string(got) != tt.want {
			t.Errorf("Marshal = %s, %v; want %s", got, err, tt.want)
		}
	}
	// A panel marshals as the jury.json array.
	got, _ := json.Marshal([]Seat{tests[1].seat})
	if string(got) != "["+tests[1].want+"]" {
		t.Errorf("panel = %s", got)
	}
}
