package ghaction

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// CommentEvent is what `github reply` needs from a
// pull_request_review_comment or issue_comment event.
type CommentEvent struct {
	Number    int    // the pull request
	CommentID int64  // the comment that triggered the run
	InReplyTo int64  // review comments: the thread's first comment; 0 otherwise
	Review    bool   // a review comment (in a thread), not a conversation comment
	Body      string // the comment's text
	User      string // its author's login
}

// ErrNotPRComment says the event is a comment on a plain issue.
var ErrNotPRComment = errors.New("the event is not a comment on a pull request")

// ReadCommentEvent reads a pull_request_review_comment or issue_comment
// event payload ($GITHUB_EVENT_PATH).
func ReadCommentEvent(data []byte) (CommentEvent, error) {
	var ev struct {
		Comment *struct {
			ID          int64  `json:"id"`
			InReplyToID int64  `json:"in_reply_to_id"`
			Body        string `json:"body"`
			User        struct {
				Login string `json:"login"`
			} `json:"user"`
		} `json:"comment"`
		PullRequest *struct {
			Number int `json:"number"`
		} `json:"pull_request"`
		Issue *struct {
			Number      int             `json:"number"`
			PullRequest json.RawMessage `json:"pull_request"`
		} `json:"issue"`
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return CommentEvent{}, fmt.Errorf("the event payload is not JSON: %w", err)
	}
	if ev.Comment == nil {
		return CommentEvent{}, errors.New("the event payload has no comment")
	}
	ce := CommentEvent{CommentID: ev.Comment.ID, InReplyTo: ev.Comment.InReplyToID, Body: ev.Comment.Body, User: ev.Comment.User.Login}
	switch {
	case ev.PullRequest != nil:
		ce.Number, ce.Review = ev.PullRequest.Number, true
	case ev.Issue != nil && len(ev.Issue.PullRequest) > 0 && string(ev.Issue.PullRequest) != "null":
		ce.Number = ev.Issue.Number
	default:
		return CommentEvent{}, ErrNotPRComment
	}
	if ce.Number <= 0 || ce.CommentID <= 0 || ce.User == "" {
		return CommentEvent{}, errors.New("the comment event lacks its pull request number, comment id or user")
	}
	return ce, nil
}

// commandRE is a dismissal command: "/tribunal dismiss REASON" or
// "/tribunal wrong REASON", first on the comment.
var commandRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)^/tribunal[ \t]+(dismiss|wrong)\b[ \t]*(.*)$`)
})

// ParseCommand reads a reply's command: ok is false when the comment is
// not one (any other comment is left alone).
func ParseCommand(body string) (verb, rest string, ok bool) {
	m := commandRE().FindStringSubmatch(strings.TrimSpace(strings.ReplaceAll(body, "\r\n", "\n")))
	if m == nil {
		return "", "", false
	}
	return m[1], strings.TrimSpace(m[2]), true
}

// CanDismiss is the permission rule: write or higher on the repository
// (admin, maintain, write), as the API states it — never anything the
// pull request's files say.
func CanDismiss(permission string) bool {
	switch strings.ToLower(permission) {
	case "admin", "maintain", "write":
		return true
	}
	return false
}

// Dismissal is one dismissal recorded by reply.
type Dismissal struct {
	Fingerprint string `json:"fp"`
	By          string `json:"by"`
	Reason      string `json:"reason"`
	At          string `json:"at"`
	File        string `json:"file,omitempty"`
	Line        int    `json:"line,omitempty"`
}

const dismissalPrefix = "<!-- tribunal:dismissed "

// fingerprintRE is compiled on first use: nothing runs at start.
var fingerprintRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^tf[0-9]+:[0-9a-f]{8,64}$`) })

// DismissalBody is the Action's answer that records d: the words for
// people and, hidden, the record as JSON (HTML-escaped, so no "-->" can
// end the comment early). It is read back only from comments the
// workflow's token wrote.
func DismissalBody(d Dismissal) string {
	data, _ := json.Marshal(d) // a struct of strings and an int
	return fmt.Sprintf("Dismissed by @%s: %s\n\ntribunal will not raise this finding again on this pull request until the code it points at changes.\n%s%s -->\n",
		d.By, safetext.Inline(d.Reason, 500), dismissalPrefix, data)
}

// ParseDismissal reads the record back from body.
func ParseDismissal(body string) (Dismissal, bool) {
	i := strings.Index(body, dismissalPrefix)
	if i < 0 {
		return Dismissal{}, false
	}
	rest := body[i+len(dismissalPrefix):]
	j := strings.Index(rest, " -->")
	if j < 0 {
		return Dismissal{}, false
	}
	var d Dismissal
	if json.Unmarshal([]byte(rest[:j]), &d) != nil || !fingerprintRE().MatchString(d.Fingerprint) || d.By == "" {
		return Dismissal{}, false
	}
	return d, true
}

// Dismissals are the dismissals recorded on pull request number: the
// records in comments author (the workflow's token) wrote, in review
// threads or the conversation; a record in anyone else's comment is
// ignored, so a pull request's author cannot forge one.
func (c Client) Dismissals(ctx context.Context, number int, author string) ([]Dismissal, error) {
	rcs, err := c.ReviewComments(ctx, number)
	if err != nil {
		return nil, err
	}
	ics, err := c.IssueComments(ctx, number)
	if err != nil {
		return nil, err
	}
	var out []Dismissal
	seen := map[string]bool{}
	add := func(login, body string) {
		if d, ok := ParseDismissal(body); ok && strings.EqualFold(login, author) && !seen[d.Fingerprint] {
			seen[d.Fingerprint] = true
			out = append(out, d)
		}
	}
	for _, rc := range rcs {
		add(rc.User.Login, rc.Body)
	}
	for _, ic := range ics {
		add(ic.User.Login, ic.Body)
	}
	return out, nil
}

// Replied says what HandleReply did, for the job log.
type Replied struct {
	Action string // "ignored", "recorded", "refused", "unknown-thread"
	Dismissal
}

// HandleReply acts on a comment: a dismissal command by a user with write
// permission on a tribunal thread is recorded (answered in the thread);
// one by anyone else is politely refused; any other comment is ignored.
func (c Client) HandleReply(ctx context.Context, ev CommentEvent, author string, now time.Time) (Replied, error) {
	verb, rest, ok := ParseCommand(ev.Body)
	if !ok || strings.EqualFold(ev.User, author) {
		return Replied{Action: "ignored"}, nil
	}
	d := Dismissal{By: ev.User, Reason: rest, At: now.UTC().Format(time.RFC3339)}
	answer := func(body string) error {
		if ev.Review {
			// GitHub takes replies to a thread's first comment only.
			root := ev.InReplyTo
			if root == 0 {
				root = ev.CommentID
			}
			return c.Reply(ctx, ev.Number, root, body)
		}
		return c.Comment(ctx, ev.Number, body)
	}
	if ev.Review {
		root, err := c.threadRoot(ctx, ev, author)
		if err != nil {
			return Replied{}, err
		}
		d.Fingerprint, d.File, d.Line = reviewfmt.ThreadFingerprint(root.Body), root.Path, root.Line
	} else if fp, reason, _ := strings.Cut(rest, " "); fingerprintRE().MatchString(fp) {
		d.Fingerprint, d.Reason = fp, strings.TrimSpace(reason)
	}
	if d.Fingerprint == "" {
		return Replied{Action: "unknown-thread"}, answer("@" + ev.User + " `/tribunal " + verb + "` works as a reply in one of tribunal's review threads (or, in the conversation, as `/tribunal " + verb + " FINGERPRINT REASON`); nothing was recorded.")
	}
	perm, err := c.Permission(ctx, ev.User)
	if err != nil {
		return Replied{}, fmt.Errorf("read @%s's permission: %w", ev.User, err)
	}
	if !CanDismiss(perm) {
		return Replied{Action: "refused", Dismissal: d}, answer("Thanks @" + ev.User + " — only people with write access to this repository can dismiss tribunal's findings, so nothing was recorded. A maintainer can reply `/tribunal " + verb + " <reason>` here.")
	}
	if d.Reason == "" {
		return Replied{Action: "refused", Dismissal: d}, answer("@" + ev.User + " please give a reason: `/tribunal " + verb + " <why this finding does not apply>`; nothing was recorded.")
	}
	return Replied{Action: "recorded", Dismissal: d}, answer(DismissalBody(d))
}

// threadRoot is the first comment of the thread ev replies in, when the
// workflow's token wrote it and it names a finding; else an empty one.
func (c Client) threadRoot(ctx context.Context, ev CommentEvent, author string) (ReviewComment, error) {
	if ev.InReplyTo == 0 {
		return ReviewComment{}, nil
	}
	root, err := c.ReviewComment(ctx, ev.InReplyTo)
	if err != nil {
		return ReviewComment{}, fmt.Errorf("read the thread's first comment: %w", err)
	}
	if !strings.EqualFold(root.User.Login, author) {
		return ReviewComment{}, nil
	}
	return root, nil
}
