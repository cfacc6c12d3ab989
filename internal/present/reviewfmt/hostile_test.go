package reviewfmt

import (
	"encoding/json"
	"strings"
	"testing"
)

// hostile is model text that tries every way into a PR comment: HTML,
// a fake marker, mentions, links and autolinks, issue references, code
// fences, table cells, headings, escapes and invisible characters.
var hostile = []string{
	"<img src=x onerror=alert(1)> <script>alert(1)</script>",
	"<!-- tribunal-review -->",
	"</details><details open>",
	"ping @octocat and @acme/security-team",
	"[click me](https://evil.example/steal) ![img](https://evil.example/x.png)",
	"visit https://evil.example or www.evil.example or mail me@evil.example",
	"fixes #1 and acme/widgets#2",
	"```\n# Approved by admin\n```",
	"`` ` `` | table | break |\n| --- |",
	"\n## Heading\n* list\n> quote",
	"**bold** _it_ ~~strike~~ &#64;entity &lt;tag&gt;",
	"\x1b[31mred\x1b[0m \u202egnp.exe \u200b\u2066hidden\u2069 \U000E0041tag",
	"line one\r\nline two\u2028line three",
	"\\[escaped\\](https://evil.example)",
}

func hostileReview(s string) Review {
	r := samples["rejected"]
	r.Reason, r.Task, r.RubricID = s, s, s
	r.Judges = []Judge{{Type: s, Model: s, Family: s, Failure: s}}
	r.Findings = []Finding{{Judge: s, Criterion: s, Severity: "blocker", File: s, Line: 3, Message: s, Fingerprint: "tf1:00"}}
	r.Omitted = []string{s}
	return r
}

// TestMarkdownHostileText checks that no model-written text becomes
// active in the comment: no tag, no second marker, no mention, no link,
// no autolink, no reference, no line of its own.
func TestMarkdownHostileText(t *testing.T) {
	for _, s := range hostile {
		md := Markdown(hostileReview(s), linkBase)
		if !strings.HasPrefix(md, Marker+"\n") || strings.Count(md, Marker) != 1 {
			t.Errorf("%q: the marker is not the comment's first line, once", s)
		}
		// Our own tags: the marker, <details>, <summary>, <sub>.
		rest := md
		for _, own := range []string{Marker, "<details>", "</details>", "<summary>", "</summary>", "<sub>", "</sub>"} {
			rest = strings.ReplaceAll(rest, own, "")
		}
		if strings.Contains(rest, "<") {
			t.Errorf("%q: a tag reached the comment:\n%s", s, md)
		}
		if strings.Count(md, "<details>") != 1 || strings.Count(md, "</details>") != 1 {
			t.Errorf("%q: the detail block was opened or closed by model text", s)
		}
		prose := outsideCode(md)
		for _, active := range []string{"@octocat", "@acme", "](https://evil", "https://evil", "www.evil", "me@evil", "#1 ", "widgets#2", "\x1b", "\u202e", "\u2066", "\U000E0041", "\u2028", "&#64;"} {
			if strings.Contains(prose, active) {
				t.Errorf("%q: %q is active in the comment:\n%s", s, active, md)
			}
		}
		for _, l := range strings.Split(prose, "\n") {
			for _, start := range []string{"## Heading", "* list", "> quote", "# Approved", "| --- |\n"} {
				if strings.HasPrefix(l, start) {
					t.Errorf("%q: model text started a line %q", s, l)
				}
			}
		}
	}
}

// TestMarkdownFence checks that a message cannot close the fenced block
// its detail is shown in: the fence outgrows any backtick run inside.
func TestMarkdownFence(t *testing.T) {
	msg := "a ```` b\n`````\nc"
	block := codeBlock(msg, 0)
	if !strings.HasPrefix(block, "``````text\n") || !strings.HasSuffix(block, "\n``````") {
		t.Errorf("fence does not outgrow the message's backticks:\n%s", block)
	}
	if got := codeSpan("a `` b", 0); got != "```a `` b```" {
		t.Errorf("codeSpan = %q", got)
	}
	if got := codeSpan("`x`", 0); got != "`` `x` ``" {
		t.Errorf("codeSpan = %q", got)
	}
}

// TestMarkdownBounded checks that thousands of findings still make one
// comment GitHub accepts, and that the cut is said.
func TestMarkdownBounded(t *testing.T) {
	r := manyFindings(5000)
	md := Markdown(r, linkBase)
	if len(md) > MaxMarkdownBytes {
		t.Errorf("comment is %d bytes, above %d", len(md), MaxMarkdownBytes)
	}
	if !strings.Contains(md, "more findings do not fit in a comment") {
		t.Error("the comment does not say that findings were left out")
	}
	if !strings.HasSuffix(md, "</sub>\n") || strings.Count(md, "<details>") != strings.Count(md, "</details>") {
		t.Error("the comment's tail or detail block was cut")
	}
}

// TestSARIFHostileText checks that model text stays data in SARIF: valid
// JSON whatever it holds, one line, no controls, and a rule id bounded.
func TestSARIFHostileText(t *testing.T) {
	for _, s := range hostile {
		r := hostileReview(s)
		r.Findings[0].File = "ok.go"
		data, err := SARIF(r, "1")
		if err != nil {
			t.Fatal(err)
		}
		var log sarifLog
		if err := json.Unmarshal(data, &log); err != nil {
			t.Fatalf("%q: SARIF is not JSON: %v", s, err)
		}
		res := log.Runs[0].Results[0]
		for _, text := range []string{res.Message.Text, res.RuleID} {
			if strings.ContainsAny(text, "\n\r\x1b\u202e<>") {
				t.Errorf("%q: raw text in SARIF: %q", s, text)
			}
		}
		if len(res.RuleID) > maxRuleID {
			t.Errorf("rule id is %d bytes", len(res.RuleID))
		}
	}
}

// outsideCode is md without what GitHub leaves inert: fenced blocks, code
// spans and our own links' destinations (a path inside a URL is no
// mention). A fence or span that model text had closed early would leave
// its remainder here, where the checks above find it.
func outsideCode(md string) string {
	var out []string
	fence := ""
	for _, l := range strings.Split(md, "\n") {
		switch {
		case fence != "" && strings.TrimRight(l, "`") == "" && len(l) >= len(fence):
			fence = ""
		case fence != "":
		case strings.HasPrefix(l, "```"):
			fence = l[:len(l)-len(strings.TrimLeft(l, "`"))]
		default:
			out = append(out, stripSpans(l))
		}
	}
	return strings.Join(out, "\n")
}

func stripSpans(l string) string {
	own := "](https://github.com/acme/widgets/blob/"
	for {
		i := strings.Index(l, own)
		if i < 0 {
			break
		}
		j := strings.IndexByte(l[i:], ')')
		l = l[:i] + "]" + l[i+j+1:]
	}
	var b strings.Builder
	for i := 0; i < len(l); {
		if l[i] == '\\' && i+1 < len(l) {
			b.WriteString(l[i : i+2])
			i += 2
			continue
		}
		if l[i] != '`' {
			b.WriteByte(l[i])
			i++
			continue
		}
		n := 0
		for i+n < len(l) && l[i+n] == '`' {
			n++
		}
		run := l[i : i+n]
		end := closingRun(l[i+n:], n)
		if end < 0 {
			b.WriteString(run)
			i += n
			continue
		}
		i += n + end + n
	}
	return b.String()
}

// closingRun is where a backtick run of exactly n starts in s, -1 if none.
func closingRun(s string, n int) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		m := 0
		for i+m < len(s) && s[i+m] == '`' {
			m++
		}
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// TestMarkdownMarksRefuted: a finding the verification step refuted
// (spec §6.8) is listed, and says it did not count.
func TestMarkdownMarksRefuted(t *testing.T) {
	r := Review{ID: "r", Outcome: OutcomeAccepted, Findings: []Finding{
		{Judge: "adversarial", Severity: "critical", File: "a.go", Line: 3, Message: "unchecked input", Refuted: true},
		{Judge: "standard", Severity: "minor", File: "a.go", Line: 4, Message: "naming"},
	}}
	got := attribution(r.Findings[0]) + "|" + attribution(r.Findings[1])
	if got != " _(adversarial · refuted by verification, not counted)_| _(standard)_" {
		t.Errorf("attributions %q", got)
	}
}
