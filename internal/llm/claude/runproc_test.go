package claude

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// RunProc words every way a model CLI's run can end in the CLI's own
// terms, whatever internal/proc reported.
func TestRunProcErrors(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	plain := filepath.Join(t.TempDir(), "codex")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	shell := func(script string, timeout time.Duration) Proc {
		return Proc{Program: "codex", Path: "/bin/sh", Args: []string{"-c", script}, Env: []string{"PATH=/usr/bin:/bin"}, Timeout: timeout}
	}
	tests := []struct {
		name string
		p    Proc
		ctx  func() (context.Context, context.CancelFunc)
		want func(error) bool
		msg  string // the error's message starts with this
	}{
		{name: "success", p: shell("echo ok", time.Minute), want: func(err error) bool { return err == nil }},
		{name: "no path", p: Proc{}, want: func(err error) bool { return errors.Is(err, ErrNotFound) }, msg: "claude executable not found"},
		{name: "non-zero exit", p: shell("echo warming up >&2; echo bad key >&2; exit 2", time.Minute),
			want: func(err error) bool {
				var e *ExitError
				return errors.As(err, &e) && e.Code == 2 && e.Program == "codex"
			}, msg: "codex exited with status 2: bad key"},
		{name: "own deadline", p: shell("sleep 30", 200*time.Millisecond),
			want: func(err error) bool {
				var e *TimeoutError
				return errors.As(err, &e) && e.After == 200*time.Millisecond
			}, msg: "codex did not finish within 200ms and was killed"},
		{name: "the caller's deadline first", p: shell("sleep 30", time.Hour),
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 200*time.Millisecond)
			},
			want: func(err error) bool { var e *TimeoutError; return errors.As(err, &e) }, msg: "codex did not finish within 1h0m0s"},
		{name: "cancelled", p: shell("sleep 30", time.Hour),
			ctx: func() (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(200*time.Millisecond, cancel)
				return ctx, cancel
			},
			want: func(err error) bool { return errors.Is(err, context.Canceled) }},
		{name: "not executable", p: Proc{Program: "codex", Path: plain},
			want: func(err error) bool { return err != nil && !errors.Is(err, ErrNotFound) }, msg: "run codex: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if tt.ctx != nil {
				ctx, cancel = tt.ctx()
			}
			defer cancel()
			_, err := RunProc(ctx, tt.p)
			if !tt.want(err) {
				t.Fatalf("err = %v (%T)", err, err)
			}
			if tt.msg != "" && !strings.HasPrefix(err.Error(), tt.msg) {
				t.Errorf("message %q, want it to start %q", err, tt.msg)
			}
		})
	}
}
