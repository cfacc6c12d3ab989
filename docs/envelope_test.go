package docs

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/events"
)

// TestEnvelopeOrderIsTheWriters: spec §10.1's table lists the envelope's
// fields in the order the emitter writes them (issue 32: they differed).
func TestEnvelopeOrderIsTheWriters(t *testing.T) {
	data, err := os.ReadFile("spec.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	start := strings.Index(s, "### 10.1 Envelope")
	end := strings.Index(s, "### 10.2 ")
	if start < 0 || end < start {
		t.Fatal("spec.md has no §10.1 followed by §10.2")
	}
	var spec []string
	cell := regexp.MustCompile("^\\| ((?:`[a-z_]+`(?:, )?)+) \\|")
	for _, line := range strings.Split(s[start:end], "\n") {
		if m := cell.FindStringSubmatch(line); m != nil {
			for _, f := range strings.Split(m[1], ", ") {
				spec = append(spec, strings.Trim(f, "`"))
			}
		}
	}
	dir := t.TempDir()
	e := &events.Emitter{Dir: dir, LogPath: filepath.Join(dir, "events.jsonl"), SessionID: "s", Now: time.Now, Rand: rand.Reader}
	if err := e.Emit(events.SessionStart{TaskID: "01HZ0000000000000000000007"}, events.WithCost(0.1), events.WithTokens(3)); err != nil {
		t.Fatal(err)
	}
	line, err := os.ReadFile(e.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	var written []string
	dec.Token() // {
	for dec.More() {
		k, _ := dec.Token()
		written = append(written, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(spec, written) {
		t.Errorf("spec §10.1 lists %q,\nthe emitter writes %q", spec, written)
	}
}

// TestPayloadOrderIsTheWriters: spec §7.5's table names each event's
// payload fields in the order they are written, which is the schema's
// property order (internal/store/events' TestEmitEveryPayload holds the
// writer to it).
func TestPayloadOrderIsTheWriters(t *testing.T) {
	data, err := os.ReadFile("spec.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	start := strings.Index(s, "### 7.5 ")
	end := strings.Index(s[start:], "\n### ") + start
	raw, err := os.ReadFile("../internal/testkit/schemacheck/testdata/tribunal-payloads.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| [0-9a-z]+ \\| `(tribunal\\.[a-z.]+)`[^|]* \\| (.*) \\|$")
	name := regexp.MustCompile("`([a-z_]+)`")
	rows := 0
	for _, line := range strings.Split(s[start:end], "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		order := propertyOrder(t, doc.Defs[m[1]])
		last, lastName := -1, ""
		for _, n := range name.FindAllStringSubmatch(m[2], -1) {
			i := slices.Index(order, n[1])
			if i < 0 {
				continue // a value, not a field
			}
			rows++
			if i < last {
				t.Errorf("spec §7.5 %s: %s is listed after %s, but written before it (%q)", m[1], n[1], lastName, order)
			}
			last, lastName = i, n[1]
		}
	}
	if rows == 0 {
		t.Fatal("no payload fields found in spec §7.5")
	}
}

// propertyOrder returns a payload schema's property names in document
// order.
func propertyOrder(t *testing.T, def json.RawMessage) []string {
	t.Helper()
	var d struct {
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(def, &d); err != nil || d.Properties == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(d.Properties))
	dec.Token()
	var out []string
	for dec.More() {
		k, _ := dec.Token()
		out = append(out, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
