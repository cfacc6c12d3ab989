package gitlabmr

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
)

// Input is what Publish puts on merge request IID.
type Input struct {
	IID      int
	Markdown string    // the review's Markdown (review --output md=FILE): the sticky note
	Findings []Finding // the review's findings (review --output json=FILE)
	// Refs stand in when the API's merge request has no diff_refs:
	// $CI_MERGE_REQUEST_DIFF_BASE_SHA and $CI_COMMIT_SHA.
	Refs   DiffRefs
	Inline bool // discuss findings on their lines
}

// Result says what Publish did.
type Result struct {
	Note     string // "created", "updated" or "unchanged"
	NoteID   int64
	Posted   int      // discussions started now
	Kept     int      // findings whose open discussion an earlier pipeline started
	Resolved int      // discussions resolved: their finding is gone
	Fallback []string // findings kept in the note only though they sit in the diff, "file:line: why"
	Problems []string // API answers that did not stop publishing, one line each
}

// Publish keeps the review on the merge request: one discussion per
// finding on a line the change added (one already open is not posted
// again; one whose finding is gone is resolved), and one note — the
// first note by the token's own account that starts with
// reviewfmt.Marker — edited to the review, or created. Only the token's
// own notes count, so nobody can make it edit theirs by pasting the
// marker. A position GitLab refuses, a rate limit or a server error while
// posting a finding keeps that finding in the note and says so; only the
// note itself failing is an error.
func Publish(ctx context.Context, c Client, in Input) (Result, error) {
	var res Result
	me, err := c.Me(ctx)
	if err != nil {
		return res, fmt.Errorf("read the token's own account: %w", err)
	}
	var links []string
	if in.Inline {
		links = discuss(ctx, c, in, me, &res)
	}
	body := strings.TrimRight(in.Markdown, "\n") + "\n" + footer(res, links)
	return res, upsertNote(ctx, c, in.IID, me, body, &res)
}

// discuss starts, keeps and resolves the inline discussions; it returns
// the links of the open ones.
func discuss(ctx context.Context, c Client, in Input, me User, res *Result) []string {
	mr, err := c.MergeRequest(ctx, in.IID)
	if err != nil {
		res.Problems = append(res.Problems, "no inline discussions: "+err.Error())
		return nil
	}
	refs := mr.DiffRefs
	if refs.HeadSHA == "" {
		refs = in.Refs
	}
	diffs, err := c.Diffs(ctx, in.IID)
	if err == nil {
		var ds []Discussion
		if ds, err = c.Discussions(ctx, in.IID); err == nil {
			return reconcile(ctx, c, in, mr, refs, NewChanged(diffs), ours(ds, me), res)
		}
	}
	res.Problems = append(res.Problems, "no inline discussions: "+err.Error())
	return nil
}

// ours maps each fingerprint to the open or resolved discussion the
// token's account started for it.
func ours(ds []Discussion, me User) map[string]Discussion {
	out := map[string]Discussion{}
	for _, d := range ds {
		if len(d.Notes) == 0 || d.Notes[0].Author.ID != me.ID {
			continue
		}
		if fp := MarkedFingerprint(d.Notes[0].Body); fp != "" {
			if prev, seen := out[fp]; !seen || prev.Notes[0].Resolved {
				out[fp] = d
			}
		}
	}
	return out
}

func reconcile(ctx context.Context, c Client, in Input, mr MergeRequest, refs DiffRefs, ch Changed, open map[string]Discussion, res *Result) []string {
	var links []string
	present := map[string]bool{}
	stop := "" // after a rate limit or server error, nothing more is posted
	for _, f := range in.Findings {
		if f.Fingerprint == "" || present[f.Fingerprint] {
			continue
		}
		present[f.Fingerprint] = true
		if d, ok := open[f.Fingerprint]; ok && !d.Notes[0].Resolved {
			res.Kept++
			links = append(links, link(mr, f, d))
			continue
		}
		pos, _, ok := ch.Place(f, refs)
		if !ok {
			continue // the note lists it, as every finding
		}
		where := f.File + ":" + strconv.Itoa(f.Line)
		if stop != "" {
			res.Fallback = append(res.Fallback, where+": "+stop)
			continue
		}
		d, err := c.CreateDiscussion(ctx, in.IID, DiscussionBody(f), pos)
		if err != nil {
			res.Fallback = append(res.Fallback, where+": "+refusal(err))
			if Transient(err) {
				stop = "not posted after " + refusal(err)
			}
			continue
		}
		res.Posted++
		links = append(links, link(mr, f, d))
	}
	for fp, d := range open {
		if present[fp] || d.Notes[0].Resolved {
			continue
		}
		if err := c.ResolveDiscussion(ctx, in.IID, d.ID); err != nil {
			res.Problems = append(res.Problems, "a fixed finding's discussion stays open: "+err.Error())
			continue
		}
		res.Resolved++
	}
	return links
}

// refusal words why GitLab did not take a discussion.
func refusal(err error) string {
	var api *APIError
	if errors.As(err, &api) {
		switch {
		case api.Status == http.StatusTooManyRequests:
			return "GitLab's rate limit (429)"
		case api.Status >= 500:
			return fmt.Sprintf("a GitLab server error (%d)", api.Status)
		}
		return fmt.Sprintf("GitLab refused the position (%d %s)", api.Status, api.Message)
	}
	return "no answer from GitLab: " + err.Error()
}

func link(mr MergeRequest, f Finding, d Discussion) string {
	where := f.File + ":" + strconv.Itoa(f.Line)
	if mr.WebURL == "" || len(d.Notes) == 0 {
		return where
	}
	return fmt.Sprintf("[%s](%s#note_%d)", where, mr.WebURL, d.Notes[0].ID)
}

// DiscussionBody is finding f's thread, with its fingerprint's marker.
func DiscussionBody(f Finding) string {
	return reviewfmt.Discussion(reviewfmt.Finding{Judge: f.Judge, Criterion: f.Criterion, Severity: f.Severity, File: f.File,
		Line: f.Line, Message: f.Message, Unverified: f.Unverified, Refuted: f.Refuted, Fingerprint: f.Fingerprint}, Marker(f.Fingerprint))
}

// footer is the note's closing lines: the open discussions and the
// findings that could not be posted on their lines.
func footer(res Result, links []string) string {
	var b strings.Builder
	if len(links) > 0 {
		fmt.Fprintf(&b, "\n**On their lines:** %s\n", strings.Join(links, " · "))
	}
	for _, f := range res.Fallback {
		fmt.Fprintf(&b, "\n- not discussed on its line, listed above: %s", f)
	}
	if len(res.Fallback) > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

func upsertNote(ctx context.Context, c Client, iid int, me User, body string, res *Result) error {
	notes, err := c.Notes(ctx, iid)
	if err != nil {
		return fmt.Errorf("list the merge request's notes: %w", err)
	}
	for _, n := range notes {
		if n.System || n.Author.ID != me.ID || !strings.HasPrefix(n.Body, reviewfmt.Marker) {
			continue
		}
		res.NoteID = n.ID
		if n.Body == body {
			res.Note = "unchanged"
			return nil
		}
		res.Note = "updated"
		if err := c.UpdateNote(ctx, iid, n.ID, body); err != nil {
			return fmt.Errorf("edit the review note: %w", err)
		}
		return nil
	}
	n, err := c.CreateNote(ctx, iid, body)
	if err != nil {
		return fmt.Errorf("write the review note: %w", err)
	}
	res.Note, res.NoteID = "created", n.ID
	return nil
}
