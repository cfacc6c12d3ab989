//go:build linux

package stress

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakeclaude"
)

var (
	seedFlag   = flag.Int64("stress.seed", 0, "seed of the kill test's random delays (0: from the clock)")
	roundsFlag = flag.Int("stress.rounds", 5, "stop-gate runs per concurrent worker")
	killsFlag  = flag.Int("stress.kills", 30, "processes the kill test starts and kills")
)

// fakeBin is the directory holding the fake claude: a symlink to this test
// binary, which TestMain turns into fakeclaude.Main when invoked by that
// name.
var fakeBin string

func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "claude" {
		os.Exit(fakeclaude.Main())
	}
	code := func() int {
		dir, err := os.MkdirTemp("", "tribunal-stress-bin-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		self, err := os.Executable()
		if err == nil {
			err = os.Symlink(self, filepath.Join(dir, "claude"))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "cannot put the fake claude on PATH:", err)
			return 1
		}
		fakeBin = dir
		defer func() {
			if builtDir != "" {
				os.RemoveAll(builtDir)
			}
		}()
		return m.Run()
	}()
	os.Exit(code)
}

var (
	buildOnce sync.Once
	builtDir  string
	buildErr  error
)

// binaries builds stop-gate and tribunal-session once per test binary and
// returns their directory. The tests run the shipped commands, not an
// in-process imitation.
func binaries(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("stress tests build and run real processes; skipped under -short")
	}
	buildOnce.Do(func() {
		// go test puts its own GOROOT/bin first on the test's PATH.
		goTool, err := exec.LookPath("go")
		if err != nil {
			buildErr = err
			return
		}
		dir, err := os.MkdirTemp("", "tribunal-stress-build-")
		if err != nil {
			buildErr = err
			return
		}
		builtDir = dir
		cmd := exec.Command(goTool, "build", "-o", dir+string(filepath.Separator),
			"github.com/tribunal-cc/tribunal/cmd/stop-gate",
			"github.com/tribunal-cc/tribunal/cmd/tribunal-session")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtDir
}

// world is one test's home, Onlooker directory and process environment.
type world struct {
	t        *testing.T
	bin      string
	root     string
	home     string
	onlooker string
	mark     string // in every child's environment, to find orphans
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{t: t, bin: binaries(t), root: t.TempDir()}
	w.home = filepath.Join(w.root, "home")
	w.onlooker = filepath.Join(w.root, "onlooker")
	w.mark = fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	if err := os.MkdirAll(w.home, 0o755); err != nil {
		t.Fatal(err)
	}
	// Registered first so it runs last: no orphan may outlive the test
	// and write into a directory being removed.
	t.Cleanup(func() { reapOrphans(t, w.mark) })
	return w
}

// env is the environment of every child: nothing inherited but PATH, so
// that no setting of the machine running the tests leaks in.
func (w *world) env(extra ...string) []string {
	env := []string{
		"PATH=" + fakeBin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + w.home,
		"ONLOOKER_DIR=" + w.onlooker,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Stress", "GIT_AUTHOR_EMAIL=stress@example.com",
		"GIT_COMMITTER_NAME=Stress", "GIT_COMMITTER_EMAIL=stress@example.com",
		"GIT_TERMINAL_PROMPT=0",
		"STRESS_MARK=" + w.mark,
	}
	return append(env, extra...)
}

func (w *world) logPath() string { return filepath.Join(w.onlooker, "logs", "onlooker-events.jsonl") }

// mkrepo creates a git repository with one commit; enabled turns the Stop
// hook on in its .claude/settings.json, in fix mode: these tests watch the
// judge's recording under concurrency, faults and kills inside the one
// process whose exit status and stderr they observe, and fix mode judges
// and records in the hook itself (with passing verdicts it never hands
// anything back). Advisory mode's detached judge runs the same recording
// code (internal/hook/stophook record.go).
func (w *world) mkrepo(name string, enabled bool) string {
	w.t.Helper()
	dir := filepath.Join(w.root, name)
	testkit.WriteFile(w.t, filepath.Join(dir, "README.md"), "# "+name+"\n")
	if enabled {
		testkit.WriteFile(w.t, filepath.Join(dir, ".claude", "settings.json"), `{"tribunal":{"stop_hook":{"enabled":true,"mode":"fix"}}}`+"\n")
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "initial"}} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = w.env()
		if out, err := cmd.CombinedOutput(); err != nil {
			w.t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// verdictJSON is the fake advisory judge's structured output.
const verdictJSON = `{"score":0.86,"passed":true,"judge_type":"standard","feedback_summary":"Adds the file <ok> & tidy.","confidence":0.9}`

// sessionScript is the accept.txtar script of cmd/tribunal-session: an
// actor, two judges and a meta-judge, accepted on the first pass.
const sessionScript = `{"rules":[
 {"role":"actor","reply":{"text":"Created hello.txt with a greeting.","write":{"hello.txt":"hello\n"},"cost":0.1}},
 {"role":"standard","reply":{"structured":{"score":0.9,"passed":true,"criterion_scores":{"correctness":0.9,"completeness":0.9,"safety":0.9,"clarity":0.9},"feedback_summary":"Good.","confidence":0.8},"cost":0.1}},
 {"role":"adversarial","reply":{"structured":{"score":0.88,"passed":true,"criterion_scores":{"correctness":0.9,"completeness":0.85,"safety":0.9,"clarity":0.9},"feedback_summary":"Could not falsify."},"cost":0.1}},
 {"role":"meta","reply":{"structured":{"verdict_quality":"sound","bias_detected":false},"cost":0.1}}
]}`

// sessionEvents is the length of an accepted first-pass chain (accept.txtar).
const sessionEvents = 14

// stopInput is the hook's stdin for one turn.
func stopInput(sid, repo, transcript string) []byte {
	return fmt.Appendf(nil, `{"session_id":%q,"transcript_path":%q,"cwd":%q,"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"I changed the files."}`,
		sid, transcript, repo)
}

// proc is one finished child.
type proc struct {
	code           int
	killed         bool
	stdout, stderr string
	dur            time.Duration
}

// spec describes one child to start.
type spec struct {
	args  []string
	dir   string
	env   []string
	stdin []byte
	// killAfter, when positive, sends SIGKILL after that long.
	killAfter time.Duration
}

func (w *world) run(s spec) proc {
	w.t.Helper()
	cmd := exec.Command(s.args[0], s.args[1:]...)
	cmd.Dir = s.dir
	cmd.Env = s.env
	cmd.Stdin = bytes.NewReader(s.stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		w.t.Fatalf("start %v: %v", s.args, err)
	}
	var timer *time.Timer
	if s.killAfter > 0 {
		timer = time.AfterFunc(s.killAfter, func() { cmd.Process.Signal(syscall.SIGKILL) })
	}
	err := cmd.Wait()
	if timer != nil {
		timer.Stop()
	}
	p := proc{stdout: stdout.String(), stderr: stderr.String(), dur: time.Since(start)}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		p.code = exitErr.ExitCode()
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			p.killed = true
		}
	default:
		w.t.Fatalf("wait %v: %v", s.args, err)
	}
	return p
}

// stopGate runs the hook for one turn in repo.
func (w *world) stopGate(sid, repo, transcript string, killAfter time.Duration, extraEnv ...string) proc {
	return w.run(spec{
		args:      []string{filepath.Join(w.bin, "stop-gate")},
		dir:       repo, // Claude Code runs hooks in the project directory
		env:       w.env(append([]string{"FAKE_CLAUDE_STRUCTURED=" + verdictJSON, "FAKE_CLAUDE_COST=0.01"}, extraEnv...)...),
		stdin:     stopInput(sid, repo, transcript),
		killAfter: killAfter,
	})
}

// session runs `tribunal-session run` in repo with the accepting script.
func (w *world) session(repo, script string, killAfter time.Duration, extraEnv ...string) proc {
	return w.run(spec{
		args:      []string{filepath.Join(w.bin, "tribunal-session"), "run", "add a hello.txt file"},
		dir:       repo,
		env:       w.env(append([]string{"FAKE_CLAUDE_SCRIPT=" + script}, extraEnv...)...),
		killAfter: killAfter,
	})
}

// reapOrphans kills whatever still runs with this test's mark: children of
// a killed parent (a fake claude started by a stop-gate that was SIGKILLed)
// are reparented and would otherwise outlive the test.
func reapOrphans(t *testing.T, mark string) {
	needle := []byte("STRESS_MARK=" + mark + "\x00")
	deadline := time.Now().Add(5 * time.Second)
	for {
		var alive []int
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
			if err != nil || !bytes.Contains(env, needle) {
				continue
			}
			if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
				if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
					continue // a zombie holds no files
				}
			}
			alive = append(alive, pid)
		}
		if len(alive) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range alive {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Logf("killed %d leftover child process(es)", len(alive))
			deadline = time.Now().Add(5 * time.Second)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// lines splits s into its lines, without the final empty one.
func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
