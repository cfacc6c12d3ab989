package ghaction

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
)

// Inline posts a review's findings as review threads on one pull
// request and keeps the threads in step with later pushes.
type Inline struct {
	Client Client
	Number int
	Head   string // the reviewed head commit: the review's commit_id
	Author string // the login the workflow's token writes as
}

// Posted is what Inline did. Every finding stays in the summary
// comment's list; those inside the diff are also in Threads, or in
// Summary with why they have no thread, so none is lost.
type Posted struct {
	Threads  []reviewfmt.ThreadLink // findings that have a thread (new or kept)
	New      int                    // threads created by this run
	Summary  []reviewfmt.ThreadLink // findings inside the diff left to the summary, with why
	Resolved int                    // threads of findings no longer raised, resolved or answered
	Notes    []string               // one line each for the job log and summary
}

// Sides are the lines of each file (by head path) the PR's diff shows.
func Sides(diff []byte) map[string]unidiff.Sides {
	out := map[string]unidiff.Sides{}
	for _, f := range unidiff.Parse(diff) {
		if f.NewPath != "" && !f.Binary {
			out[f.NewPath] = f.DiffSides()
		}
	}
	return out
}

// Sync posts the findings with a line inside the diff that have no
// thread yet as ONE review, keeps the threads of findings still raised,
// and resolves those of findings gone (current holds every fingerprint
// the review raised, located or not). It never fails: what cannot be
// posted falls back to the summary, with a note.
func (in Inline) Sync(ctx context.Context, findings []reviewfmt.Finding, sides map[string]unidiff.Sides, current map[string]bool) Posted {
	var p Posted
	existing, err := in.Client.ReviewComments(ctx, in.Number)
	if err != nil {
		p.Notes = append(p.Notes, "the review threads could not be read ("+err.Error()+"); every finding is in the summary comment")
		p.Summary = links(findings, "the review threads could not be read")
		return p
	}
	roots, fixed := in.threadRoots(existing)
	var todo []reviewfmt.Finding
	seen := map[string]bool{}
	for _, f := range findings {
		if f.Fingerprint == "" || seen[f.Fingerprint] {
			continue
		}
		seen[f.Fingerprint] = true
		if rc, ok := roots[f.Fingerprint]; ok {
			p.Threads = append(p.Threads, reviewfmt.ThreadLink{Finding: f, URL: rc.HTMLURL})
			continue
		}
		if sides[f.File].Side(f.Line) == "" {
			continue // outside the diff: the summary's list has it
		}
		todo = append(todo, f)
	}
	if len(todo) > 0 {
		in.post(ctx, todo, &p)
	}
	in.resolveGone(ctx, roots, fixed, current, &p)
	return p
}

// threadRoots are the first comments of the Action's own threads by
// fingerprint, and the fingerprints it already said were fixed: only the
// token's own comments count, so nobody can plant a marker.
func (in Inline) threadRoots(cs []ReviewComment) (map[string]ReviewComment, map[string]bool) {
	roots, fixed := map[string]ReviewComment{}, map[string]bool{}
	for _, c := range cs {
		if !strings.EqualFold(c.User.Login, in.Author) {
			continue
		}
		if fp := reviewfmt.ThreadFingerprint(c.Body); fp != "" && c.InReplyToID == 0 {
			if _, dup := roots[fp]; !dup {
				roots[fp] = c
			}
		}
		if fp := reviewfmt.FixedFingerprint(c.Body); fp != "" {
			fixed[fp] = true
		}
	}
	return roots, fixed
}

// post sends todo as one review; a 422 (a line GitHub will not place)
// retries each comment alone so one moved line costs only its own
// thread; a rate limit or any other failure leaves them to the summary.
func (in Inline) post(ctx context.Context, todo []reviewfmt.Finding, p *Posted) {
	comments := make([]NewComment, len(todo))
	for i, f := range todo {
		comments[i] = NewComment{Path: f.File, Line: f.Line, Side: unidiff.SideRight, Body: reviewfmt.ThreadBody(f)}
	}
	body := fmt.Sprintf("tribunal found %d problem(s) on lines this pull request changes; the summary comment lists every finding.", len(todo))
	err := in.Client.PostReview(ctx, in.Number, in.Head, body, comments)
	var apiErr *APIError
	switch {
	case err == nil:
	case errors.As(err, &apiErr) && apiErr.Status == http.StatusUnprocessableEntity:
		p.Notes = append(p.Notes, "GitHub refused the review ("+apiErr.Message+"); posting its comments one by one")
		var kept []reviewfmt.Finding
		for i, f := range todo {
			if err := in.Client.PostComment(ctx, in.Number, in.Head, comments[i]); err != nil {
				p.Summary = append(p.Summary, reviewfmt.ThreadLink{Finding: f, Why: why(err)})
				p.Notes = append(p.Notes, fmt.Sprintf("%s:%d stays in the summary: %v", f.File, f.Line, err))
				continue
			}
			kept = append(kept, f)
		}
		todo = kept
	default:
		p.Notes = append(p.Notes, fmt.Sprintf("the review threads were not posted (%v); their %d finding(s) are in the summary comment", err, len(todo)))
		p.Summary = append(p.Summary, links(todo, why(err))...)
		return
	}
	p.New += len(todo)
	urls := map[string]string{}
	if after, err := in.Client.ReviewComments(ctx, in.Number); err == nil {
		roots, _ := in.threadRoots(after)
		for fp, rc := range roots {
			urls[fp] = rc.HTMLURL
		}
	}
	for _, f := range todo {
		p.Threads = append(p.Threads, reviewfmt.ThreadLink{Finding: f, URL: urls[f.Fingerprint]})
	}
}

// why is a failure in the words the summary gives it.
func why(err error) string {
	var apiErr *APIError
	switch {
	case errors.As(err, &apiErr) && apiErr.RateLimited():
		return "GitHub's rate limit"
	case errors.As(err, &apiErr) && apiErr.Status == http.StatusUnprocessableEntity:
		return "GitHub could not place the line (it moved?)"
	case errors.As(err, &apiErr) && apiErr.Status/100 == 5:
		return "GitHub's API failed"
	}
	return "the thread could not be posted"
}

func links(fs []reviewfmt.Finding, reason string) []reviewfmt.ThreadLink {
	out := make([]reviewfmt.ThreadLink, 0, len(fs))
	for _, f := range fs {
		out = append(out, reviewfmt.ThreadLink{Finding: f, Why: reason})
	}
	return out
}

// resolveGone resolves the threads of findings this review no longer
// raises; without the permission to resolve (GraphQL refuses the token)
// it replies once that the finding is fixed.
func (in Inline) resolveGone(ctx context.Context, roots map[string]ReviewComment, fixed, current map[string]bool, p *Posted) {
	var gone []ReviewComment
	for fp, rc := range roots {
		if !current[fp] {
			gone = append(gone, rc)
		}
	}
	if len(gone) == 0 {
		return
	}
	threads, terr := in.Client.ReviewThreads(ctx, in.Number)
	byFirst := map[int64]Thread{}
	for _, t := range threads {
		byFirst[t.FirstID] = t
	}
	for _, rc := range gone {
		fp := reviewfmt.ThreadFingerprint(rc.Body)
		t, ok := byFirst[rc.ID]
		if ok && t.Resolved {
			continue
		}
		err := terr
		if err == nil && ok {
			err = in.Client.ResolveThread(ctx, t.ID)
		}
		if err == nil && ok {
			p.Resolved++
			continue
		}
		if fixed[fp] {
			continue
		}
		if rerr := in.Client.Reply(ctx, in.Number, rc.ID, reviewfmt.FixedBody(in.Head, fp)); rerr != nil {
			p.Notes = append(p.Notes, fmt.Sprintf("the thread of %s:%d was neither resolved nor answered: %v", rc.Path, rc.Line, rerr))
			continue
		}
		p.Resolved++
	}
}
