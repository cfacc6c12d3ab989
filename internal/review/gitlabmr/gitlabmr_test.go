package gitlabmr

import (
	"context"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakegitlab"
)

// retryDiff is one file of GET …/merge_requests/:iid/diffs as GitLab
// answers it: hunks only, no git header. It adds lines 4–6 of retry.go
// and keeps 1–3 and 7 as context.
const retryDiff = "@@ -1,4 +1,7 @@\n package retry\n \n func Retry() {\n+\tfor {\n+\t\tsend()\n+\t}\n }\n"

var refs = DiffRefs{BaseSHA: "b0", StartSHA: "s0", HeadSHA: "h0"}

func TestPlace(t *testing.T) {
	ch := NewChanged([]Diff{
		{OldPath: "retry.go", NewPath: "retry.go", Diff: retryDiff},
		{OldPath: "old/name.go", NewPath: "new/name.go", Diff: "@@ -1 +1 @@\n-a\n+b\n"},
		{OldPath: "gone.go", NewPath: "gone.go", Diff: "@@ -1 +0,0 @@\n-x\n", DeletedFile: true},
		{OldPath: "fresh.go", NewPath: "fresh.go", Diff: "@@ -0,0 +1,2 @@\n+one\n+two\n", NewFile: true},
	})
	for _, tc := range []struct {
		name string
		f    Finding
		refs DiffRefs
		want Position
		why  string
	}{
		{"added line", Finding{File: "retry.go", Line: 5}, refs,
			Position{"text", "b0", "s0", "h0", "retry.go", "retry.go", 5}, ""},
		{"first added line", Finding{File: "retry.go", Line: 4}, refs,
			Position{"text", "b0", "s0", "h0", "retry.go", "retry.go", 4}, ""},
		{"context line", Finding{File: "retry.go", Line: 3}, refs, Position{}, "outside the merge request's changed lines"},
		{"past the hunk", Finding{File: "retry.go", Line: 8}, refs, Position{}, "outside the merge request's changed lines"},
		{"renamed file keeps its old path", Finding{File: "new/name.go", Line: 1}, refs,
			Position{"text", "b0", "s0", "h0", "old/name.go", "new/name.go", 1}, ""},
		{"new file", Finding{File: "fresh.go", Line: 2}, refs,
			Position{"text", "b0", "s0", "h0", "fresh.go", "fresh.go", 2}, ""},
		{"deleted file", Finding{File: "gone.go", Line: 1}, refs, Position{}, "outside the merge request's changed lines"},
		{"file not in the change", Finding{File: "other.go", Line: 1}, refs, Position{}, "outside the merge request's changed lines"},
		{"no line", Finding{File: "retry.go"}, refs, Position{}, "no file:line"},
		{"no file", Finding{Line: 4}, refs, Position{}, "no file:line"},
		{"unverified", Finding{File: "retry.go", Line: 5, Unverified: true}, refs, Position{}, "its file:line is not in the change"},
		{"no start sha: the base", Finding{File: "retry.go", Line: 6}, DiffRefs{BaseSHA: "b0", HeadSHA: "h0"},
			Position{"text", "b0", "b0", "h0", "retry.go", "retry.go", 6}, ""},
		{"no head sha", Finding{File: "retry.go", Line: 6}, DiffRefs{BaseSHA: "b0"}, Position{}, "the merge request's diff commits are unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, why, ok := ch.Place(tc.f, tc.refs)
			if got != tc.want || why != tc.why || ok != (tc.why == "") {
				t.Errorf("Place = %+v, %q, %v; want %+v, %q", got, why, ok, tc.want, tc.why)
			}
		})
	}
}

func TestMarker(t *testing.T) {
	fp := "tf2:0123456789abcdef0123456789abcdef"
	for _, tc := range []struct{ name, body, want string }{
		{"own marker", "**major**\n\ntext\n" + Marker(fp) + "\n", fp},
		{"marker alone", Marker(fp), fp},
		{"no marker", "a human's note quoting tf2:0123", ""},
		{"marker without fingerprint", "<!-- tribunal:fp= -->", ""},
		{"not hex", "<!-- tribunal:fp=tf2:xyz -->", ""},
		{"the review marker is not a finding's", "<!-- tribunal-review -->", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MarkedFingerprint(tc.body); got != tc.want {
				t.Errorf("MarkedFingerprint(%q) = %q, want %q", tc.body, got, tc.want)
			}
		})
	}
	f := Finding{Severity: "major", Criterion: "correctness", Judge: "standard", File: "retry.go", Line: 4,
		Message: "loops forever @alice <script>", Fingerprint: fp}
	body := DiscussionBody(f)
	if MarkedFingerprint(body) != fp || strings.Contains(body, "<script>") || strings.Contains(body, "@alice") {
		t.Errorf("DiscussionBody = %q: want its marker and the message inert", body)
	}
}

const project = "42"

func world(t *testing.T) (*fakegitlab.Server, Client) {
	t.Helper()
	s := fakegitlab.Start("glpat-test")
	t.Cleanup(s.Close)
	s.SetMergeRequest(project, 7, fakegitlab.Refs{BaseSHA: "b0", StartSHA: "s0", HeadSHA: "h0"},
		[]fakegitlab.Diff{{OldPath: "retry.go", NewPath: "retry.go", Diff: retryDiff}})
	return s, Client{APIURL: s.URL, Token: "glpat-test", Project: project}
}

func finding(line int, fp string) Finding {
	return Finding{Severity: "major", Criterion: "correctness", Judge: "standard", File: "retry.go", Line: line,
		Message: "finding at " + fp, Fingerprint: "tf2:" + fp + "000000"}
}

const md = "<!-- tribunal-review -->\n## tribunal review: rejected\n"

func TestPublishTwoPipelines(t *testing.T) {
	s, c := world(t)
	ctx := context.Background()
	// A human's note quoting the marker is never edited.
	s.SeedNote(project, 7, fakegitlab.User{ID: 1, Username: "mallory"}, md+"fake")
	in := Input{IID: 7, Markdown: md, Inline: true, Findings: []Finding{
		finding(4, "aa"), finding(5, "bb"), finding(2, "cc"), {Severity: "minor", Message: "no place", Fingerprint: "tf2:dd"},
	}}
	res, err := Publish(ctx, c, in)
	if err != nil || res.Note != "created" || res.Posted != 2 || res.Kept != 0 || len(res.Fallback) != 0 {
		t.Fatalf("first pipeline: %+v, %v", res, err)
	}
	ds := s.Discussions(project, 7)
	if len(ds) != 2 || ds[0].Notes[0].Position["new_line"] != float64(4) || MarkedFingerprint(ds[1].Notes[0].Body) != "tf2:bb000000" {
		t.Fatalf("discussions = %+v", ds)
	}
	notes := s.Notes(project, 7)
	if len(notes) != 2 || notes[0].Body != md+"fake" || !strings.Contains(notes[1].Body, "#note_") {
		t.Fatalf("notes = %+v", notes)
	}

	// The second pipeline: bb is fixed, aa stays, ee is new.
	in.Findings = []Finding{finding(4, "aa"), finding(6, "ee"), finding(2, "cc")}
	res, err = Publish(ctx, c, in)
	if err != nil || res.Note != "updated" || res.Posted != 1 || res.Kept != 1 || res.Resolved != 1 {
		t.Fatalf("second pipeline: %+v, %v", res, err)
	}
	ds = s.Discussions(project, 7)
	if len(ds) != 3 || ds[0].Notes[0].Resolved || !ds[1].Notes[0].Resolved || MarkedFingerprint(ds[2].Notes[0].Body) != "tf2:ee000000" {
		t.Fatalf("discussions after the fix = %+v", ds)
	}
	if n := len(s.Notes(project, 7)); n != 2 {
		t.Fatalf("%d notes after the second pipeline, want the same 2", n)
	}
	// A third, identical pipeline writes nothing.
	before := len(s.Calls())
	if res, err = Publish(ctx, c, in); err != nil || res.Note != "unchanged" || len(s.Calls()) != before {
		t.Fatalf("third pipeline: %+v, %v, calls %v", res, err, s.Calls()[before:])
	}
}

func TestPublishFallsBack(t *testing.T) {
	for _, tc := range []struct {
		name       string
		status     int
		wantPosted int
		wantWhy    string
	}{
		{"bad position", 400, 1, "GitLab refused the position (400"},
		{"rate limit stops posting", 429, 0, "GitLab's rate limit (429)"},
		{"server error", 502, 0, "a GitLab server error (502)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, c := world(t)
			s.Fail("POST", "/discussions", tc.status, 1)
			res, err := Publish(context.Background(), c, Input{IID: 7, Markdown: md, Inline: true,
				Findings: []Finding{finding(4, "aa"), finding(5, "bb")}})
			if err != nil || res.Note != "created" || res.Posted != tc.wantPosted || len(res.Fallback) != 2-tc.wantPosted {
				t.Fatalf("%+v, %v", res, err)
			}
			body := s.Notes(project, 7)[0].Body
			if !strings.Contains(res.Fallback[0], tc.wantWhy) || !strings.Contains(body, "retry.go:4: "+tc.wantWhy) {
				t.Errorf("fallback %q, note:\n%s", res.Fallback, body)
			}
		})
	}
	t.Run("position off the diff", func(t *testing.T) {
		s, c := world(t)
		// GitLab's diff moved on since the review: line 4 is context now.
		s.SetMergeRequest(project, 7, fakegitlab.Refs{BaseSHA: "b0", StartSHA: "s0", HeadSHA: "h0"},
			[]fakegitlab.Diff{{OldPath: "retry.go", NewPath: "retry.go", Diff: "@@ -1,4 +1,5 @@\n a\n b\n c\n d\n+e\n"}})
		res, err := Publish(context.Background(), c, Input{IID: 7, Markdown: md, Inline: true, Findings: []Finding{finding(5, "aa")}})
		if err != nil || res.Posted != 1 {
			t.Fatalf("%+v, %v", res, err)
		}
	})
	t.Run("note fails", func(t *testing.T) {
		s, c := world(t)
		s.Fail("POST", "/notes", 500, 1)
		if _, err := Publish(context.Background(), c, Input{IID: 7, Markdown: md}); err == nil {
			t.Fatal("a note GitLab did not take: no error")
		}
	})
}
