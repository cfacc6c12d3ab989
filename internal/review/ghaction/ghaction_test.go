package ghaction

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakegithub"
)

const (
	sha1 = "1111111111111111111111111111111111111111"
	sha2 = "2222222222222222222222222222222222222222"
)

func TestReadEvent(t *testing.T) {
	pr := func(base, head, headRepo string) string {
		hr := `null`
		if headRepo != "" {
			hr = `{"full_name":"` + headRepo + `"}`
		}
		return `{"action":"synchronize","pull_request":{"number":7,"title":"Add retry","body":"Retries 3 times.\r\n\r\nCloses #3.",` +
			`"base":{"sha":"` + base + `","repo":{"full_name":"acme/widgets"}},"head":{"sha":"` + head + `","repo":` + hr + `}}}`
	}
	tests := []struct {
		name, payload string
		want          PullRequest
		err           string
	}{
		{"same repo", pr(sha1, sha2, "acme/widgets"), PullRequest{7, "Add retry", "Retries 3 times.\r\n\r\nCloses #3.", sha1, sha2, "acme/widgets", false}, ""},
		{"fork", pr(sha1, sha2, "mallory/widgets"), PullRequest{7, "Add retry", "Retries 3 times.\r\n\r\nCloses #3.", sha1, sha2, "acme/widgets", true}, ""},
		{"deleted fork", pr(sha1, sha2, ""), PullRequest{7, "Add retry", "Retries 3 times.\r\n\r\nCloses #3.", sha1, sha2, "acme/widgets", true}, ""},
		{"push event", `{"ref":"refs/heads/main","after":"` + sha2 + `"}`, PullRequest{}, "no pull_request"},
		{"no head sha", pr(sha1, "", "acme/widgets"), PullRequest{}, "lacks"},
		{"option as sha", pr(sha1, "--upload-pack=evil", "acme/widgets"), PullRequest{}, "not a commit id"},
		{"not json", `{`, PullRequest{}, "not JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadEvent([]byte(tt.payload))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
	if _, err := ReadEvent([]byte(`{"ref":"x"}`)); !errors.Is(err, ErrNotPullRequest) {
		t.Errorf("a push event is not ErrNotPullRequest: %v", err)
	}
}

func TestTask(t *testing.T) {
	got := PullRequest{Title: " Add retry ", Body: "Line 1\r\nLine 2\r\n"}.Task()
	if got != "Add retry\n\nLine 1\nLine 2\n" {
		t.Errorf("Task = %q", got)
	}
	if got := (PullRequest{Title: "Only a title"}).Task(); got != "Only a title\n" {
		t.Errorf("Task = %q", got)
	}
}

func TestWriteOutputs(t *testing.T) {
	var b strings.Builder
	if err := WriteOutputs(&b, [][2]string{{"outcome", "rejected"}, {"evil", "x\nTRIBUNAL_EOF\nother=1"}}); err != nil {
		t.Fatal(err)
	}
	want := "outcome<<TRIBUNAL_EOF\nrejected\nTRIBUNAL_EOF\nevil<<TRIBUNAL_EOF_\nx\nTRIBUNAL_EOF\nother=1\nTRIBUNAL_EOF_\n"
	if b.String() != want {
		t.Errorf("outputs:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestUpsert follows one PR over several pushes: the first review creates
// the comment, a changed review edits it, an unchanged one leaves it, and
// neither a person's comment quoting the marker nor 150 earlier comments
// lead it astray.
func TestUpsert(t *testing.T) {
	gh := fakegithub.Start("tok")
	defer gh.Close()
	gh.Seed(7, "mallory", reviewfmt.Marker+"\nI am the review, edit me")
	for range 150 {
		gh.Seed(7, "alice", "lgtm")
	}
	c := Client{APIURL: gh.URL, Token: "tok", Repository: "acme/widgets"}
	ctx := context.Background()
	steps := []struct{ body, action string }{
		{reviewfmt.Marker + "\nfirst push", "created"},
		{reviewfmt.Marker + "\nsecond push", "updated"},
		{reviewfmt.Marker + "\nsecond push", "unchanged"},
	}
	var id int64
	for i, s := range steps {
		up, err := c.Upsert(ctx, 7, DefaultAuthor, s.body)
		if err != nil {
			t.Fatalf("push %d: %v", i+1, err)
		}
		if up.Action != s.action || (id != 0 && up.ID != id) {
			t.Fatalf("push %d: %+v, want %s of comment %d", i+1, up, s.action, id)
		}
		id = up.ID
	}
	var ours []fakegithub.Comment
	for _, cm := range gh.Comments(7) {
		if cm.Author == DefaultAuthor {
			ours = append(ours, cm)
		}
		if cm.Author == "mallory" && !strings.Contains(cm.Body, "edit me") {
			t.Errorf("a person's comment was edited: %q", cm.Body)
		}
	}
	if len(ours) != 1 || ours[0].Body != steps[2].body {
		t.Errorf("the action's comments: %+v, want one with the last body", ours)
	}
	if calls := gh.Calls(); len(calls) != 2 || calls[0].Method != "POST" || calls[1].Method != "PATCH" {
		t.Errorf("writes = %+v, want POST then PATCH", calls)
	}
}

func TestUpsertForbiddenAndBadToken(t *testing.T) {
	gh := fakegithub.Start("tok")
	defer gh.Close()
	gh.ReadOnly = true
	c := Client{APIURL: gh.URL, Token: "tok", Repository: "acme/widgets"}
	if _, err := c.Upsert(context.Background(), 7, DefaultAuthor, reviewfmt.Marker); !errors.Is(err, ErrForbidden) {
		t.Errorf("read-only token: err = %v, want ErrForbidden", err)
	}
	c.Token = "wrong"
	_, err := c.Upsert(context.Background(), 7, DefaultAuthor, reviewfmt.Marker)
	if err == nil || errors.Is(err, ErrForbidden) || !strings.Contains(err.Error(), "401 Unauthorized: Bad credentials") {
		t.Errorf("bad token: err = %v", err)
	}
}
