package proc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	requireSh(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	realDir, _ := filepath.EvalSymlinks(dir)
	bigInput := strings.Repeat("x", 1<<20) // far beyond a pipe's buffer
	with := func(c Cmd, f func(*Cmd)) Cmd { f(&c); return c }
	tests := []struct {
		name    string
		cmd     Cmd
		stdout  string // exact
		stderr  string // exact
		output  string // exact (Combined)
		exit    int
		signal  string
		errIs   func(error) bool
		maxTime time.Duration
	}{
		{name: "exit status, stdout and stderr apart", cmd: sh("echo out; echo err >&2; exit 3"),
			stdout: "out\n", stderr: "err\n", exit: 3},
		{name: "stdout is kept from its start, capped", cmd: with(sh("i=0; while [ $i -lt 300 ]; do echo $i; i=$((i+1)); done"), func(c *Cmd) { c.MaxStdout = 6 }),
			stdout: "0\n1\n2\n"},
		{name: "stderr keeps its tail", cmd: with(sh("echo first >&2; echo last >&2"), func(c *Cmd) { c.MaxTail = 5 }),
			stderr: "last\n"},
		{name: "combined output interleaves", cmd: with(sh("echo out; echo err >&2; echo out2"), func(c *Cmd) { c.Combined = true }),
			output: "out\nerr\nout2\n"},
		{name: "combined output keeps its tail", cmd: with(sh("echo first; echo last >&2; exit 1"), func(c *Cmd) { c.Combined = true; c.MaxTail = 5 }),
			output: "last\n", exit: 1},
		{name: "stdin is delivered and closed", cmd: with(sh("cat"), func(c *Cmd) { c.Stdin = "the prompt" }),
			stdout: "the prompt"},
		{name: "no stdin reads as empty", cmd: sh("cat; echo end"), stdout: "end\n"},
		{name: "a child that never reads its input", cmd: with(sh("exit 0"), func(c *Cmd) { c.Stdin = bigInput }),
			maxTime: PipeGrace},
		{name: "environment is exactly Env", cmd: with(sh(`echo "A=$A HOME=$HOME"`), func(c *Cmd) { c.Env = append(c.Env, "A=1") }),
			stdout: "A=1 HOME=\n"},
		{name: "no environment inherited from this process", cmd: with(Cmd{Path: "/usr/bin/env"}, func(c *Cmd) {
			if _, err := os.Stat(c.Path); err != nil {
				c.Path = "/bin/true"
			}
		})},
		{name: "working directory", cmd: with(sh("pwd"), func(c *Cmd) { c.Dir = dir }), stdout: realDir + "\n"},
		{name: "killed by a signal", cmd: sh("kill -9 $$"), exit: -1, signal: "killed"},
		{name: "not executable", cmd: Cmd{Path: plain}, errIs: isStart},
		{name: "missing working directory", cmd: Cmd{Path: "/bin/sh", Dir: filepath.Join(dir, "nope")}, errIs: isStart},
		{name: "timeout kills and keeps the output so far", cmd: with(sh("echo before; sleep 30"), func(c *Cmd) {
			c.Timeout = 300 * time.Millisecond
			c.Combined = true
		}), output: "before\n", exit: -1, signal: "killed", maxTime: 10 * time.Second,
			errIs: func(err error) bool {
				var te *TimeoutError
				return errors.As(err, &te) && te.After == 300*time.Millisecond && err.Error() == "timed out after 300ms and was killed"
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			res, err := Run(context.Background(), tt.cmd)
			took := time.Since(start)
			if tt.errIs != nil {
				if !tt.errIs(err) {
					t.Fatalf("err = %v (%T)", err, err)
				}
			} else if err != nil {
				t.Fatalf("err = %v", err)
			}
			if string(res.Stdout) != tt.stdout || res.Stderr != tt.stderr || res.Output != tt.output {
				t.Errorf("stdout, stderr, output = %q, %q, %q; want %q, %q, %q", res.Stdout, res.Stderr, res.Output, tt.stdout, tt.stderr, tt.output)
			}
			if res.ExitCode != tt.exit || res.Signal != tt.signal {
				t.Errorf("exit, signal = %d, %q; want %d, %q", res.ExitCode, res.Signal, tt.exit, tt.signal)
			}
			if tt.maxTime > 0 && took > tt.maxTime {
				t.Errorf("took %s, want under %s", took, tt.maxTime)
			}
		})
	}
}

func isStart(err error) bool {
	var se *StartError
	return errors.As(err, &se)
}

func TestRunArgv0(t *testing.T) {
	requireSh(t)
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	c := sh(`tr '\0' ' ' < /proc/$$/cmdline`)
	c.Argv0 = "tests"
	res, err := Run(context.Background(), c)
	if err != nil || !strings.HasPrefix(string(res.Stdout), "tests -c ") {
		t.Fatalf("cmdline = %q, %v; want argv[0] %q", res.Stdout, err, "tests")
	}
}

// The caller's context ending is reported as its own error, not as the
// child's timeout.
func TestRunCancelled(t *testing.T) {
	requireSh(t)
	for _, tt := range []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"cancelled", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			return ctx, cancel
		}, context.Canceled},
		{"caller's deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 100*time.Millisecond)
		}, context.DeadlineExceeded},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := tt.ctx()
			defer cancel()
			c := sh("sleep 30")
			c.Timeout = time.Hour
			start := time.Now()
			_, err := Run(ctx, c)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s to give up", d)
			}
		})
	}
}

func TestBuffers(t *testing.T) {
	for _, tt := range []struct {
		writes     []string
		max        int
		head, tail string
	}{
		{[]string{"abc", "defg", "h"}, 5, "abcde", "defgh"},
		{[]string{"ab"}, 5, "ab", "ab"},
		{[]string{"abcdefgh"}, 3, "abc", "fgh"},
		{nil, 3, "", ""},
	} {
		h, tl := &headBuffer{max: tt.max}, &tailBuffer{max: tt.max}
		for _, w := range tt.writes {
			if n, err := h.Write([]byte(w)); n != len(w) || err != nil {
				t.Errorf("head Write(%q) = %d, %v: a capped buffer still takes everything", w, n, err)
			}
			tl.Write([]byte(w))
		}
		if string(h.Bytes()) != tt.head || tl.String() != tt.tail {
			t.Errorf("%q max %d: head %q tail %q; want %q %q", tt.writes, tt.max, h.Bytes(), tl.String(), tt.head, tt.tail)
		}
	}
}

// teeProbe is a StderrTee that tells when a line arrives.
type teeProbe struct {
	mu    sync.Mutex
	got   strings.Builder
	lines chan string
}

func (p *teeProbe) Write(b []byte) (int, error) {
	p.mu.Lock()
	p.got.Write(b)
	p.mu.Unlock()
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		p.lines <- l
	}
	return len(b), nil
}

// TestRunStderrTee: the tee gets stderr while the child runs — the child
// waits, on a FIFO, for the test to have seen its first line — and the
// Result still keeps it whole.
func TestRunStderrTee(t *testing.T) {
	requireSh(t)
	fifo := filepath.Join(t.TempDir(), "go-on")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs:", err)
	}
	probe := &teeProbe{lines: make(chan string, 8)}
	c := sh(`echo one >&2; read x < "$0"; echo two >&2; echo out`, fifo)
	c.StderrTee = probe
	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome, 1)
	go func() { res, err := Run(context.Background(), c); done <- outcome{res, err} }()
	if l := <-probe.lines; l != "one" {
		t.Fatalf("first tee line %q, want one", l)
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := <-done
	if o.err != nil || string(o.res.Stdout) != "out\n" || o.res.Stderr != "one\ntwo\n" {
		t.Fatalf("Run = %q, %q, %v", o.res.Stdout, o.res.Stderr, o.err)
	}
	if probe.got.String() != "one\ntwo\n" {
		t.Errorf("tee got %q", probe.got.String())
	}
}

// TestRunStderrTeeFailing: a tee that fails takes nothing from the kept
// stderr.
func TestRunStderrTeeFailing(t *testing.T) {
	requireSh(t)
	c := sh("echo one >&2; echo two >&2")
	c.StderrTee = failingWriter{}
	res, err := Run(context.Background(), c)
	if err != nil || res.Stderr != "one\ntwo\n" {
		t.Fatalf("Run = %q, %v", res.Stderr, err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("gone") }

// TestRunInterrupt: with an Interrupt grace, cancellation first asks the
// child to stop (SIGTERM), and kills its group only when it does not.
func TestRunInterrupt(t *testing.T) {
	requireSh(t)
	tests := []struct {
		name, script string
		grace        time.Duration
		stderr       string
		exit         int
		signal       string
	}{
		{"the child winds down by itself", `trap 'echo stopped >&2; exit 7' TERM; echo ready >&2; sleep 300 & wait $!`,
			time.Minute, "ready\nstopped\n", 7, ""},
		{"a child that ignores it is killed after the grace", `trap '' TERM; echo ready >&2; sleep 300 & wait $!; wait $!`,
			300 * time.Millisecond, "ready\n", -1, "killed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			probe := &teeProbe{lines: make(chan string, 8)}
			c := sh(tt.script)
			c.Timeout, c.Interrupt, c.StderrTee = 0, tt.grace, probe
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type outcome struct {
				res Result
				err error
			}
			done := make(chan outcome, 1)
			go func() { res, err := Run(ctx, c); done <- outcome{res, err} }()
			if l := <-probe.lines; l != "ready" {
				t.Fatalf("first line %q", l)
			}
			start := time.Now()
			cancel()
			var o outcome
			select {
			case o = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("Run did not return after the cancellation")
			}
			if !errors.Is(o.err, context.Canceled) || o.res.Stderr != tt.stderr || o.res.ExitCode != tt.exit || o.res.Signal != tt.signal {
				t.Errorf("Run = %v, stderr %q, exit %d, signal %q; want canceled, %q, %d, %q",
					o.err, o.res.Stderr, o.res.ExitCode, o.res.Signal, tt.stderr, tt.exit, tt.signal)
			}
			took := time.Since(start)
			if took > tt.grace+10*time.Second || (tt.signal != "" && took < tt.grace) {
				t.Errorf("took %s after the cancellation, grace %s", took, tt.grace)
			}
		})
	}
}
