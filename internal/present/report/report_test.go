package report

import (
	"crypto/sha256"
	"encoding/base64"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestPageEscapesAndCarriesCSP(t *testing.T) {
	its := fixtureIterations()
	its[0].judges[0].feedback = "<script>alert(1)</script>"
	page, _ := renderFixture(t, writeFixture(t, `"><svg onload=alert(1)>`, its))
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if strings.Count(s, "<script") != 1 || strings.Contains(s, "<svg onload") {
		t.Fatalf("model text reached the page unescaped")
	}
	if !strings.Contains(s, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the judge's summary is not shown as text")
	}
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]+)">`).FindStringSubmatch(s)
	if m == nil {
		t.Fatal("no Content-Security-Policy meta tag")
	}
	policy := html.UnescapeString(m[1])
	for _, want := range []string{"default-src 'none'", "base-uri 'none'", "form-action 'none'"} {
		if !strings.Contains(policy, want) {
			t.Errorf("policy %q lacks %q", policy, want)
		}
	}
	if strings.Contains(policy, "unsafe-inline") || strings.Contains(policy, "http") {
		t.Errorf("policy %q is not restrictive", policy)
	}
	// The hashes in the policy are those of the page's inline blocks.
	for _, block := range []string{"style", "script"} {
		body := regexp.MustCompile(`(?s)<` + block + `>(.*?)</` + block + `>`).FindStringSubmatch(s)
		if body == nil {
			t.Fatalf("no <%s> block", block)
		}
		sum := sha256.Sum256([]byte(body[1]))
		if h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(policy, block+"-src "+h) {
			t.Errorf("%s block hash %s is not what the policy allows (%s)", block, h, policy)
		}
	}
}

func TestDistanceClass(t *testing.T) {
	floor := 0.7
	for _, c := range []struct {
		score float64
		floor *float64
		want  string
	}{
		{0.69, &floor, "below"}, {0.7, &floor, "near"}, {0.79, &floor, "near"}, {0.8, &floor, "clear"},
		{0.1, nil, "nofloor"},
	} {
		if got, _ := distanceClass(c.score, c.floor); got != c.want {
			t.Errorf("distanceClass(%v, %v) = %s, want %s", c.score, c.floor, got, c.want)
		}
	}
}

func TestDiffFilesAndHighlight(t *testing.T) {
	diff := "diff --git a/main.go b/main.go\nindex 1..2 100644\n--- a/main.go\n+++ b/main.go\n@@ -1,2 +1,2 @@\n package main\n-// old\n+func greet() string { return \"hi <b>\" } // 42\n" +
		"diff --git a/notes.txt b/notes.txt\nnew file mode 100644\n--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1 @@\n+func is not a keyword here\n"
	files := diffFiles(diff)
	if len(files) != 2 || files[0].Path != "main.go" || files[0].Added != 1 || files[0].Deleted != 1 ||
		files[1].Path != "notes.txt" || files[1].Kind != "added" {
		t.Fatalf("files %+v", files)
	}
	var classes []string
	for _, l := range files[0].Lines {
		classes = append(classes, l.Class)
	}
	if got := strings.Join(classes, " "); got != "file file file file hunk ctx del add" {
		t.Errorf("line classes %q", got)
	}
	add := files[0].Lines[7].Spans
	var got []string
	var text strings.Builder
	for _, s := range add {
		text.WriteString(s.Text)
		if s.Class != "" {
			got = append(got, s.Class+":"+s.Text)
		}
	}
	if text.String() != "+func greet() string { return \"hi <b>\" } // 42" {
		t.Errorf("spans lose text: %q", text.String())
	}
	want := []string{"tk:func", "tk:string", "tk:return", `ts:"hi <b>"`, "tc:// 42"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("coloured spans %q, want %q", got, want)
	}
	for _, s := range files[1].Lines[len(files[1].Lines)-1].Spans {
		if s.Class != "" {
			t.Errorf("a .txt file was coloured: %+v", s)
		}
	}
}

func TestSentenceAndRounding(t *testing.T) {
	page, _ := renderFixture(t, writeFixture(t, "x", fixtureIterations()))
	data, _ := os.ReadFile(page)
	s := string(data)
	if !strings.Contains(s, "Accepted after 3 iterations; the last gate passed at 0.90 (threshold 0.75, policy majority).") {
		t.Error("no one-sentence decision")
	}
	// The recorded value keeps full precision for machines (data-score),
	// but no text shows it.
	text := regexp.MustCompile(`(?s)<[^>]*>`).ReplaceAllString(s, "")
	if strings.Contains(text, "0.9000000000000002") {
		t.Error("an unrounded number is shown as text")
	}
}

func TestLedgerSaysWhereVerifyStopsHolding(t *testing.T) {
	project := writeFixture(t, "x", fixtureIterations())
	path := filepath.Join(project, "ledger.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[1] = strings.Replace(lines[1], `"passed":false`, `"passed":true`, 1)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	page, _ := renderFixture(t, project)
	out, _ := os.ReadFile(page)
	s := string(out)
	if strings.Count(s, "✓ holds") != 1 || strings.Count(s, "✗ does not hold") != 2 {
		t.Errorf("holds %d, does not hold %d; want 1 and 2", strings.Count(s, "✓ holds"), strings.Count(s, "✗ does not hold"))
	}
	if !strings.Contains(s, "verify fails: entry 1 (line 2)") {
		t.Error("the page does not say where verify fails")
	}
}

// TestPageShowsTheRubricsDirectives: the instructions every judge was
// given are on the page, as text; a rubric without them shows no list.
func TestPageShowsTheRubricsDirectives(t *testing.T) {
	project := writeFixture(t, "add a greeting", fixtureIterations())
	plain, _ := renderFixture(t, project)
	if data, _ := os.ReadFile(plain); strings.Contains(string(data), `id="directives"`) {
		t.Fatal("a rubric without directives shows a directives list")
	}
	manifest := filepath.Join(project, fixtureTask, "manifest.json")
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	withDirectives := strings.Replace(string(data), `"id":"default",`, `"id":"default","directives":["Count off-by-one errors as correctness failures","Ignore <b>style</b>"],`, 1)
	if withDirectives == string(data) {
		t.Fatal("the fixture's rubric did not take the directives")
	}
	testkit.WriteFile(t, manifest, withDirectives)
	page, _ := renderFixture(t, project)
	out, _ := os.ReadFile(page)
	want := `<ol><li>Count off-by-one errors as correctness failures</li><li>Ignore &lt;b&gt;style&lt;/b&gt;</li></ol>`
	if !strings.Contains(string(out), want) {
		t.Fatalf("the page lacks the directives list %s", want)
	}
}
