package severity

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestLadderOrder(t *testing.T) {
	want := []string{"info", "low", "minor", "moderate", "major", "critical", "blocker"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for i := 1; i < len(want); i++ {
		lo, _ := Parse(want[i-1])
		hi, _ := Parse(want[i])
		if !(lo < hi) {
			t.Errorf("%s (%d) is not below %s (%d)", lo, lo, hi, hi)
		}
	}
}

func TestParse(t *testing.T) {
	cases := []struct {
		in   string
		want Level
		ok   bool
	}{
		{"info", Info, true},
		{"low", Low, true},
		{"minor", Minor, true},
		{"moderate", Moderate, true},
		{"major", Major, true},
		{"critical", Critical, true},
		{"blocker", Blocker, true},
		{"  MAJOR\n", Major, true},
		{"Blocker", Blocker, true},
		{"none", None, false},
		{"", None, false},
		{"warning", None, false},
		{"high", None, false},
		{"majo", None, false},
		{"major critical", None, false},
	}
	for _, c := range cases {
		got, ok := Parse(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Parse(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestString(t *testing.T) {
	cases := []struct {
		l    Level
		want string
	}{
		{None, "none"},
		{Info, "info"},
		{Moderate, "moderate"},
		{Blocker, "blocker"},
		{Level(8), "level(8)"},
		{Level(200), "level(200)"},
	}
	for _, c := range cases {
		if got := c.l.String(); got != c.want {
			t.Errorf("Level(%d).String() = %q, want %q", uint8(c.l), got, c.want)
		}
	}
}

func TestWorst(t *testing.T) {
	cases := []struct {
		name string
		in   []Level
		want Level
		ok   bool
	}{
		{"empty", nil, None, false},
		{"only none", []Level{None, None}, None, false},
		{"single", []Level{Minor}, Minor, true},
		{"max wins", []Level{Low, Critical, Major}, Critical, true},
		{"blocker", []Level{Blocker, Info}, Blocker, true},
		{"out of ladder ignored", []Level{Level(9), Low}, Low, true},
		{"only out of ladder", []Level{Level(42)}, None, false},
	}
	for _, c := range cases {
		got, ok := Worst(c.in...)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: Worst(%v) = %v, %v; want %v, %v", c.name, c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestBlocks(t *testing.T) {
	cases := []struct {
		worst, policy Level
		want          bool
	}{
		{Major, Major, true},
		{Critical, Major, true},
		{Moderate, Major, false},
		{Blocker, Blocker, true},
		{Critical, Blocker, false},
		{Info, Info, true},
		{None, Info, false},        // no findings never block
		{Blocker, None, false},     // policy off never blocks
		{Level(9), Info, false},    // corrupt worst
		{Blocker, Level(9), false}, // corrupt policy
	}
	for _, c := range cases {
		if got := Blocks(c.worst, c.policy); got != c.want {
			t.Errorf("Blocks(%v, %v) = %v, want %v", c.worst, c.policy, got, c.want)
		}
	}
}

func TestTextRoundTrip(t *testing.T) {
	for l := None; l <= Blocker; l++ {
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatalf("marshal %v: %v", l, err)
		}
		var back Level
		if err := json.Unmarshal(b, &back); err != nil || back != l {
			t.Errorf("round trip of %v via %s = %v, %v", l, b, back, err)
		}
	}
	if _, err := json.Marshal(Level(8)); err == nil {
		t.Error("marshalling an out-of-ladder level succeeded")
	}
	var l Level
	if err := json.Unmarshal([]byte(`"severe"`), &l); err == nil {
		t.Error(`unmarshalling "severe" succeeded`)
	}
	if err := json.Unmarshal([]byte(`"CRITICAL"`), &l); err != nil || l != Critical {
		t.Errorf(`unmarshal "CRITICAL" = %v, %v`, l, err)
	}
}
