package events

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Helper-process protocol: the test binary re-executes itself with
// helperEnv set, and TestMain runs the named helper instead of the tests.
const (
	helperEnv      = "EVENTS_TEST_HELPER"
	helperDirEnv   = "EVENTS_TEST_DIR"
	helperLogEnv   = "EVENTS_TEST_LOG"
	helperCountEnv = "EVENTS_TEST_COUNT"
	helperSessEnv  = "EVENTS_TEST_SESSION"
	helperStartEnv = "EVENTS_TEST_START_UNIX_NANO"
)

var helpers = map[string]func() error{
	"emit":      helperEmit,
	"machineid": helperMachineID,
}

func TestMain(m *testing.M) {
	name := os.Getenv(helperEnv)
	if name == "" {
		os.Exit(m.Run())
	}
	run, ok := helpers[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "unknown helper %q\n", name)
		os.Exit(2)
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// waitForStart lines the helper processes up on a shared instant so that
// they really contend instead of running one after another.
func waitForStart() {
	ns, _ := strconv.ParseInt(os.Getenv(helperStartEnv), 10, 64)
	if d := time.Until(time.Unix(0, ns)); d > 0 {
		time.Sleep(d)
	}
}

// helperEmit emits EVENTS_TEST_COUNT events; the k-th one carries k as its
// iteration_number so the parent can check per-process order.
func helperEmit() error {
	n, err := strconv.Atoi(os.Getenv(helperCountEnv))
	if err != nil {
		return err
	}
	e := &Emitter{
		Dir:       os.Getenv(helperDirEnv),
		LogPath:   os.Getenv(helperLogEnv),
		SessionID: os.Getenv(helperSessEnv),
		Rand:      rand.Reader,
		Now:       time.Now,
	}
	waitForStart()
	for k := range n {
		if err := e.Emit(stressPayload(k)); err != nil {
			return fmt.Errorf("event %d: %w", k, err)
		}
	}
	return nil
}

func helperMachineID() error {
	waitForStart()
	id, err := loadMachineID(os.Getenv(helperDirEnv), rand.Reader, machineIDWait)
	if err != nil {
		return err
	}
	fmt.Println(id)
	return nil
}

// stressPayload rotates through payload types with different shapes; every
// one carries k as iteration_number.
func stressPayload(k int) Payload {
	switch k % 3 {
	case 0:
		return IterationStart{TaskID: testTaskID, IterationID: testIterID, IterationNumber: k, Trigger: "initial"}
	case 1:
		return ActorStart{TaskID: testTaskID, IterationID: testIterID, IterationNumber: Ptr(k), ActorModelID: "<actor & model>"}
	default:
		return GateBlocked{TaskID: testTaskID, IterationID: testIterID, Reason: "low_score", FinalScore: Ptr(0.25), IterationNumber: Ptr(k), WillRetry: Ptr(false)}
	}
}

// startHelpers launches n helper processes and returns them running.
func startHelpers(t *testing.T, name string, n int, env func(i int) []string) []*exec.Cmd {
	t.Helper()
	start := time.Now().Add(300 * time.Millisecond).UnixNano()
	cmds := make([]*exec.Cmd, n)
	for i := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+name, helperStartEnv+"="+strconv.FormatInt(start, 10))
		cmd.Env = append(cmd.Env, env(i)...)
		cmd.Stdout = new(bytes.Buffer)
		cmd.Stderr = new(bytes.Buffer)
		if err := cmd.Start(); err != nil {
			t.Fatalf("start helper %d: %v", i, err)
		}
		cmds[i] = cmd
	}
	return cmds
}

func waitHelpers(t *testing.T, cmds []*exec.Cmd) []string {
	t.Helper()
	outs := make([]string, len(cmds))
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("helper %d: %v\nstderr: %s", i, err, cmd.Stderr)
		}
		outs[i] = cmd.Stdout.(*bytes.Buffer).String()
	}
	return outs
}

const (
	testTaskID  = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
	testIterID  = "01ARZ3NDEKTSV4RRFFQ69G5FAW"
	testJudgeID = "01ARZ3NDEKTSV4RRFFQ69G5FAX"
)

func cryptoReader() io.Reader { return rand.Reader }

// newTestEmitter points an Emitter at a fresh temporary ONLOOKER_DIR.
func newTestEmitter(t testing.TB) *Emitter {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "onlooker")
	return &Emitter{
		Dir:       dir,
		LogPath:   filepath.Join(dir, "logs", "onlooker-events.jsonl"),
		SessionID: "sess-test",
		Now:       time.Now,
		Rand:      rand.Reader,
	}
}

// readLog returns the log's lines without their "\n", failing the test if
// the file does not end with one.
func readLog(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read log: %v", err)
	}
	if len(data) == 0 {
		return nil
	}
	if data[len(data)-1] != '\n' {
		t.Fatalf("log does not end with a newline: %q", data)
	}
	return strings.Split(string(data[:len(data)-1]), "\n")
}

// line is the decoded form of one log line, enough for assertions.
type line struct {
	ID        string          `json:"id"`
	MachineID string          `json:"machine_id"`
	Timestamp string          `json:"timestamp"`
	SessionID string          `json:"session_id"`
	Sequence  int64           `json:"sequence"`
	EventType string          `json:"event_type"`
	Payload   json.RawMessage `json:"payload"`
}

func decodeLine(t *testing.T, s string) line {
	t.Helper()
	var l line
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(&l); err != nil {
		t.Fatalf("decode %q: %v", s, err)
	}
	return l
}

// orderedKeys returns the keys of a JSON object in document order, which
// map-based decoding loses.
func orderedKeys(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %s", raw)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("read key: %v", err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatalf("skip value: %v", err)
		}
	}
	return keys
}

// emitOne emits p to a fresh emitter and returns the single line written.
func emitOne(t *testing.T, e *Emitter, p Payload, opts ...Option) string {
	t.Helper()
	if err := e.Emit(p, opts...); err != nil {
		t.Fatalf("Emit(%T): %v", p, err)
	}
	lines := readLog(t, e.LogPath)
	return lines[len(lines)-1]
}
