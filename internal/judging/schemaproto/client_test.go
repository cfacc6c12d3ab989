package schemaproto

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/proc"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// beside installs a tribunal-schema shell script beside a fake
// tribunal-session and returns the latter's path.
func beside(t *testing.T, script string) string {
	t.Helper()
	bin := t.TempDir()
	self := filepath.Join(bin, "tribunal-session")
	testkit.WriteFileMode(t, self, "#!/bin/sh\n", 0o755)
	if script != "" {
		testkit.WriteFileMode(t, filepath.Join(bin, Program), "#!/bin/sh\n"+script, 0o755)
	}
	return self
}

var one = &Request{Schemas: []Schema{{Name: "s", Source: []byte(`{}`)}}, Documents: []Document{{Data: []byte(`1`)}}}

func TestHelperMissing(t *testing.T) {
	self := beside(t, "")
	_, err := Helper{Self: self}.Validate(context.Background(), one)
	var missing *MissingError
	if !errors.As(err, &missing) || !errors.Is(err, proc.ErrNoHelper) {
		t.Fatalf("error %v (%T), want a *MissingError wrapping proc.ErrNoHelper", err, err)
	}
	if want := "tribunal-schema is not installed in " + filepath.Dir(self); err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if _, err := (Helper{}).Validate(context.Background(), one); !errors.As(err, &missing) || !strings.Contains(err.Error(), "path is unknown") {
		t.Errorf("no self: %v, want a *MissingError saying the path is unknown", err)
	}
}

// TestHelperBounds: whatever the program does, the client returns, with
// an error that says what went wrong; a request it must refuse never
// starts it.
func TestHelperBounds(t *testing.T) {
	tests := []struct {
		name, script string
		req          *Request
		ctx          func() context.Context
		want         string // "" → the response is one ok document
	}{
		{"answers", `cat >/dev/null; echo '{"schemas":[{}],"documents":[{}]}'`, one, nil, ""},
		{"refuses", `echo 'tribunal: error: tribunal-schema: no' >&2; exit 2`, one, nil, "tribunal-schema exited with status 2: tribunal: error: tribunal-schema: no"},
		{"hangs", `exec sleep 60`, one, nil, "tribunal-schema: timed out after 200ms and was killed"},
		{"cancelled", `exec sleep 60`, one, func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, "context canceled"},
		{"floods", `cat >/dev/null; head -c 2000000 /dev/zero`, one, nil, "its answer is over"},
		{"miscounts", `cat >/dev/null; echo '{"schemas":[{}],"documents":[]}'`, one, nil, "it answered 1 schema(s) and 0 document(s), asked 1 and 1"},
		{"garbles", `cat >/dev/null; echo '{"schemas":'`, one, nil, "its answer is not one"},
		{"oversized request", `touch "$0.ran"`, &Request{Schemas: []Schema{{Name: "s", Source: []byte(`{}`)}},
			Documents: []Document{{Data: make([]byte, MaxItemBytes+1)}}}, nil, "document 0 is over 4194304 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			self := beside(t, tc.script)
			ctx := context.Background()
			if tc.ctx != nil {
				ctx = tc.ctx()
			}
			start := time.Now()
			res, err := Helper{Self: self, Timeout: 200 * time.Millisecond}.Validate(ctx, tc.req)
			if tc.want == "" {
				if err != nil || len(res.Documents) != 1 || res.Documents[0].Error != "" {
					t.Fatalf("Validate = %+v, %v; want one ok document", res, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %v: the helper was waited on", d)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(self), Program+".ran")); err == nil {
				t.Error("the helper ran on a request the client must refuse")
			}
		})
	}
}

func TestFlatten(t *testing.T) {
	for _, tc := range []struct {
		in     string
		detail bool
		want   string
	}{
		{"unexpected EOF", false, "unexpected EOF"},
		{"jsonschema validation failed with '" + Base + "a.json#'\n- at '/port': got string, want integer\n  - at '/x': more", true,
			"at '/port': got string, want integer; at '/x': more"},
		{"at '" + Base + "a.json': one\ntwo", false, "at 'a.json': one; two"},
	} {
		if got := Flatten(tc.in, tc.detail); got != tc.want {
			t.Errorf("Flatten(%q, %v) = %q, want %q", tc.in, tc.detail, got, tc.want)
		}
	}
}
