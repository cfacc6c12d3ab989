package surface

import (
	"strings"
	"testing"
	"time"
)

func TestAge(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want string
	}{
		{-time.Hour, "just now"},
		{0, "just now"},
		{59 * time.Second, "just now"},
		{time.Minute, "1 min ago"},
		{59*time.Minute + 59*time.Second, "59 min ago"},
		{time.Hour, "1 h ago"},
		{2*time.Hour + 30*time.Minute, "2 h ago"},
		{47 * time.Hour, "47 h ago"},
		{48 * time.Hour, "2 d ago"},
		{71 * time.Hour, "2 d ago"},
		{72 * time.Hour, "3 d ago"},
		{400 * 24 * time.Hour, "400 d ago"},
	}
	for _, c := range cases {
		if got := Age(c.d); got != c.want {
			t.Errorf("Age(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestOneLine(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"", 10, ""},
		{"plain", 10, "plain"},
		{"  lead and trail  ", 40, "lead and trail"},
		{"a\nb\r\n\tc", 40, "a b c"},
		{"a\x00\x1b[31mb", 40, "a [31mb"},
		{"bad \xff byte", 40, "bad byte"},
		{"exactly ten", 11, "exactly ten"},
		{"one two three four", 10, "one two…"},
		// "é" is two bytes: a cut never splits it.
		{"ééééé", 8, "éé…"},
		{"ééééé", 10, "ééééé"},
	}
	for _, c := range cases {
		got := OneLine(c.in, c.max)
		if got != c.want {
			t.Errorf("OneLine(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
		if len(got) > c.max {
			t.Errorf("OneLine(%q, %d) is %d bytes", c.in, c.max, len(got))
		}
	}
}

func adv(name string, score float64, outcome, feedback string, at time.Time) Advisory {
	return Advisory{Name: "stop-" + name, TaskID: tid, Outcome: outcome, Score: score, Feedback: feedback, WrittenAt: at}
}

func TestNote(t *testing.T) {
	now := time.Date(2026, 5, 24, 12, 0, 0, 0, time.UTC)
	one := Note([]Advisory{adv("3f2a9c1b-7777-4444-8888-000000000000", 0.42, "rejected", "Breaks\nthe \"help\" test.", now.Add(-2*time.Hour))}, now)
	wantOne := "tribunal: an advisory verdict from an earlier session of this project has not been shown to the user yet:\n" +
		"- rejected, score 0.42 (2 h ago, session 3f2a9c1b): \"Breaks the \\\"help\\\" test.\"\n" +
		"Mention this to the user if it bears on their work. Details: /tribunal-log, or `tribunal-session show 3f2a9c1b`."
	if one != wantOne {
		t.Errorf("one verdict:\n%s\nwant\n%s", one, wantOne)
	}

	var many []Advisory
	for i, s := range []float64{0.9, 0.8, 0.7, 0.6, 0.5} {
		many = append(many, adv(string(rune('a'+i)), s, "accepted", "", now.Add(-time.Duration(i)*time.Minute)))
	}
	got := Note(many, now)
	wantMany := "tribunal: 5 advisory verdicts from earlier sessions of this project have not been shown to the user yet:\n" +
		"- accepted, score 0.90 (just now, session a)\n" +
		"- accepted, score 0.80 (1 min ago, session b)\n" +
		"- accepted, score 0.70 (2 min ago, session c)\n" +
		"- and 2 more\n" +
		"Mention this to the user if it bears on their work. Details: /tribunal-log, or `tribunal-session show a`."
	if got != wantMany {
		t.Errorf("five verdicts:\n%s\nwant\n%s", got, wantMany)
	}
	if n := strings.Count(Note(many[:3], now), "\n- "); n != 3 {
		t.Errorf("three verdicts: %d list lines", n)
	}
	if strings.Contains(Note(many[:3], now), "more") {
		t.Error("three verdicts must not say 'more'")
	}

	long := adv("x", 0.1, "rejected", strings.Repeat("word ", 100), now)
	line := strings.Split(Note([]Advisory{long}, now), "\n")[1]
	if !strings.Contains(line, "…\"") || len(line) > 60+maxFeedback {
		t.Errorf("long feedback not cut: %d bytes: %s", len(line), line)
	}
}
