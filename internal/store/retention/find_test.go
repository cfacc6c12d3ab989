package retention_test

import (
	"crypto/rand"
	"strings"
	"testing"
	"time"

	storepkg "github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/retention"
)

// TestFindNamesAPrunedSession: a pruned advisory verdict is found by its
// Claude Code session id as by its own id — whole, sanitised as its stop
// file was named, or a part one pruned session alone has — and the
// session's latest pruned verdict speaks for it.
func TestFindNamesAPrunedSession(t *testing.T) {
	s := newStore(t)
	path, keys := ledger.PathFor(s.project), ledger.KeyDir(s.onlooker)
	id := func(days int) string {
		v, err := events.NewULID(rand.Reader, now.Add(-time.Duration(days)*24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	prune := func(taskID, session, kind string, at time.Time) {
		rec := retention.Entry{Pruned: kind, Digest: "sha256:00", Files: 1, Bytes: 1, By: "gc", OlderThan: "90d"}
		if _, err := ledger.Append(path, keys, ledger.KindPrune, ledger.Fields{TaskID: taskID, SessionID: session}, rec, at); err != nil {
			t.Fatal(err)
		}
	}
	older, newer, other, task := id(200), id(150), id(120), id(100)
	odd := "sess:with/odd chars"
	prune(older, "abc12345-session", retention.KindAdvisory, now)
	prune(newer, "abc12345-session", retention.KindAdvisory, now.Add(time.Minute))
	prune(other, storepkg.SanitizeSessionID(odd), retention.KindAdvisory, now)
	prune(task, "", retention.KindTask, now)

	for _, tc := range []struct{ typed, id, session string }{
		{"abc12345-session", newer, "abc12345-session"},
		{"abc12345", newer, "abc12345-session"},
		{"12345-sess", newer, "abc12345-session"},
		{odd, other, storepkg.SanitizeSessionID(odd)},
		{older, older, ""},
		{task, task, ""},
	} {
		p, ok := retention.Find(s.project, tc.typed)
		if !ok || p.ID != tc.id || p.Session != tc.session {
			t.Errorf("Find(%q) = %+v, %v; want id %s, session %q", tc.typed, p, ok, tc.id, tc.session)
			continue
		}
		want := retention.KindAdvisory + " " + tc.id + " was pruned on "
		if tc.session != "" {
			want = "the advisory verdict of session " + tc.session + " (" + tc.id + ") was pruned on "
		}
		if tc.id == task {
			want = retention.KindTask + " " + task + " was pruned on "
		}
		if got := p.Sentence(); !strings.HasPrefix(got, want) || !strings.Contains(got, " by gc (older than 90d)") {
			t.Errorf("Find(%q).Sentence() = %q, want it to start %q", tc.typed, got, want)
		}
	}
	for _, typed := range []string{"nosuchsession", "se", "last"} {
		if p, ok := retention.Find(s.project, typed); ok {
			t.Errorf("Find(%q) found %+v", typed, p)
		}
	}
}
