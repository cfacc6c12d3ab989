package testcmds

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// JaegerVersion is the Jaeger the otel tier runs, pinned in
// tools/jaeger/go.mod and built by scripts/build-jaeger.sh.
const JaegerVersion = "v1.75.0"

// JaegerBin is where scripts/build-jaeger.sh leaves the binary:
// $TRIBUNAL_JAEGER_BIN, else the user's cache directory.
func JaegerBin(getenv func(string) string) string {
	if p := getenv("TRIBUNAL_JAEGER_BIN"); p != "" {
		return p
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "tribunal", "jaeger-"+JaegerVersion)
}

// jaegerConfig is an all-in-one Jaeger on loopback ports of the test's
// choosing: OTLP/HTTP in, in-memory storage, the query API out, a health
// check to wait on, and no self-telemetry listener (the default one is a
// fixed port that parallel runs would fight over).
const jaegerConfig = `service:
  extensions: [jaeger_storage, jaeger_query, healthcheckv2]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_storage:
    backends:
      mem:
        memory:
          max_traces: 1000
  jaeger_query:
    storage:
      traces: mem
    http:
      endpoint: 127.0.0.1:%d
    grpc:
      endpoint: 127.0.0.1:%d
  healthcheckv2:
    use_v2: true
    http:
      endpoint: 127.0.0.1:%d
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:%d
processors:
  batch:
    timeout: 50ms
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
`

// freePorts returns n loopback ports nothing listens on right now.
func freePorts(t testing.TB, n int) []int {
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// StartJaeger runs bin as an all-in-one Jaeger for the rest of the test
// and returns its OTLP/HTTP base URL and its query API's URL once its
// health check says it is ready (within a minute; a Jaeger that exits or
// never gets ready fails the test with what it printed).
func StartJaeger(t testing.TB, bin string) (otlp, query string) {
	t.Helper()
	p := freePorts(t, 4)
	cfg := filepath.Join(t.TempDir(), "jaeger.yaml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, jaegerConfig, p[0], p[1], p[2], p[3]), 0o600); err != nil {
		t.Fatal(err)
	}
	out := &testkit.LockedBuffer{}
	cmd := exec.Command(bin, "--config=file:"+cfg)
	cmd.Stdout, cmd.Stderr = out, out
	// Jaeger's own tracing would otherwise dial the OTLP default port
	// (127.0.0.1:4317), where another test's receiver may listen.
	cmd.Env = append(os.Environ(), "OTEL_SDK_DISABLED=true", "OTEL_TRACES_EXPORTER=none")
	if err := cmd.Start(); err != nil {
		t.Fatalf("start jaeger: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	health := fmt.Sprintf("http://127.0.0.1:%d/status", p[2])
	deadline := time.Now().Add(time.Minute)
	for {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("jaeger exited before it was ready (%v):\n%s", err, out.String())
		default:
		}
		if resp, err := http.Get(health); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return fmt.Sprintf("http://127.0.0.1:%d", p[3]), fmt.Sprintf("http://127.0.0.1:%d", p[0])
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("jaeger not ready within a minute:\n%s", out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// jaegerTrace is the part of the query API's answer the checks read.
type jaegerTrace struct {
	TraceID string `json:"traceID"`
	Spans   []struct {
		SpanID     string `json:"spanID"`
		Operation  string `json:"operationName"`
		StartTime  int64  `json:"startTime"`
		ProcessID  string `json:"processID"`
		References []struct {
			RefType string `json:"refType"`
			SpanID  string `json:"spanID"`
		} `json:"references"`
		Tags []struct {
			Key   string `json:"key"`
			Value any    `json:"value"`
		} `json:"tags"`
	} `json:"spans"`
	Processes map[string]struct {
		ServiceName string `json:"serviceName"`
		Tags        []struct {
			Key   string `json:"key"`
			Value any    `json:"value"`
		} `json:"tags"`
	} `json:"processes"`
}

// jaegerTraceCmd is `jaeger-trace TASK_ID N`: it polls $JAEGER_QUERY's
// /api/traces/<trace id> (the task's ULID in hex) until the trace holds N
// spans (within 30s), checks that they form one tree (a single root, every
// parent present), and prints the tree: each span's operation, indented
// under its parent (siblings by name, then start), with its stable tags
// (no ids, times or durations), then the service's name and resource
// tags, for cmp against a golden file.
func jaegerTraceCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: jaeger-trace TASK_ID N")
	}
	id, err := ulid.ParseStrict(args[0])
	ts.Check(err)
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	url := ts.Getenv("JAEGER_QUERY") + "/api/traces/" + hex.EncodeToString(id[:])
	var tr jaegerTrace
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		tr = fetchTrace(ctx, url)
		cancel()
		if len(tr.Spans) >= want || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(tr.Spans) != want {
		ts.Fatalf("%s: %d spans, want %d", url, len(tr.Spans), want)
	}
	ts.Stdout().Write([]byte(renderTrace(ts, tr)))
}

func fetchTrace(ctx context.Context, url string) jaegerTrace {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return jaegerTrace{}
	}
	defer resp.Body.Close()
	var body struct {
		Data []jaegerTrace `json:"data"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&body) != nil || len(body.Data) != 1 {
		return jaegerTrace{}
	}
	return body.Data[0]
}

// stableTags are the tags renderTrace prints: what a recorded task fixes,
// not its ids, clock or cost.
var stableTags = map[string]bool{
	"gen_ai.operation.name": true, "gen_ai.system": true, "gen_ai.request.model": true, "gen_ai.agent.name": true,
	"gen_ai.usage.input_tokens": true, "gen_ai.usage.output_tokens": true, "tribunal.kind": true,
	"tribunal.outcome": true, "tribunal.gate.decision": true, "tribunal.gate.reason": true,
	"tribunal.verdict.score": true, "tribunal.iteration.number": true, "tribunal.call.role": true,
	"tribunal.consensus.score": true, "tribunal.iterations_used": true, "tribunal.rubric.id": true,
	"span.kind": true, "otel.status_code": true,
}

func renderTrace(ts *testscript.TestScript, tr jaegerTrace) string {
	kids := map[string][]int{}
	ids := map[string]bool{}
	for _, s := range tr.Spans {
		ids[s.SpanID] = true
	}
	var roots []int
	for i, s := range tr.Spans {
		parent := ""
		for _, r := range s.References {
			if r.RefType == "CHILD_OF" {
				parent = r.SpanID
			}
		}
		switch {
		case parent == "":
			roots = append(roots, i)
		case !ids[parent]:
			ts.Fatalf("span %s (%s) names a parent %s that is not in the trace", s.SpanID, s.Operation, parent)
		default:
			kids[parent] = append(kids[parent], i)
		}
	}
	if len(roots) != 1 {
		ts.Fatalf("%d root spans, want 1", len(roots))
	}
	var b strings.Builder
	var walk func(i, depth int)
	walk = func(i, depth int) {
		s := tr.Spans[i]
		var tags []string
		for _, t := range s.Tags {
			if stableTags[t.Key] {
				tags = append(tags, fmt.Sprintf("%s=%v", t.Key, t.Value))
			}
		}
		sort.Strings(tags)
		fmt.Fprintf(&b, "%s%s %s\n", strings.Repeat("  ", depth), s.Operation, strings.Join(tags, " "))
		k := kids[s.SpanID]
		sort.Slice(k, func(x, y int) bool {
			a, c := tr.Spans[k[x]], tr.Spans[k[y]]
			if a.Operation != c.Operation {
				return a.Operation < c.Operation
			}
			return a.StartTime < c.StartTime
		})
		for _, c := range k {
			walk(c, depth+1)
		}
	}
	walk(roots[0], 0)
	p := tr.Processes[tr.Spans[roots[0]].ProcessID]
	var tags []string
	for _, t := range p.Tags {
		if t.Key != "service.version" {
			tags = append(tags, fmt.Sprintf("%s=%v", t.Key, t.Value))
		}
	}
	sort.Strings(tags)
	fmt.Fprintf(&b, "service %s %s\n", p.ServiceName, strings.Join(tags, " "))
	return b.String()
}

func init() {
	Cmds["jaeger-trace"] = jaegerTraceCmd
}
