package ledger

import (
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/redact"
)

// TestAppendRedactsBeforeSigning: a record whose error text quotes an API
// key (an endpoint that echoes it) would keep the key in the signed,
// append-only ledger for good, since scrubbing a line breaks verify
// (issue 18 item 5). The key is replaced before signing and the chain
// verifies.
func TestAppendRedactsBeforeSigning(t *testing.T) {
	f := newFixture(t)
	const key = "sk-secret-0123456789"
	rec := map[string]any{"error": "HTTP 401: bad key Bearer " + key, "list": []string{key + `"quoted`}}
	red := redact.New(key, key+`"quoted`)
	if _, err := Append(f.path, f.keyDir, KindAdvisory, Fields{TaskID: "01JSTOP", Redact: red}, rec, time.Now()); err != nil {
		t.Fatal(err)
	}
	data, _ := f.read(t)
	if strings.Contains(string(data), key) || !strings.Contains(string(data), redact.Mark) {
		t.Fatalf("ledger line: %s", data)
	}
	if _, err := Verify(f.path); err != nil {
		t.Fatalf("verify: %v", err)
	}
}
