package transcript

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		request string
		reply   string
	}{
		{"empty", "", "", ""},
		{
			"prompt, tool use, tool result, final text, hook feedback",
			`{"type":"user","message":{"role":"user","content":"RUNTOOL please"},"rowSource":"local"}
{"type":"attachment","attachment":{"type":"date"}}
{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"I will run a command."}]}}
{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"OUT"}]},"toolUseResult":{"stdout":"OUT"}}
{"type":"assistant","message":{"id":"m2","content":[{"type":"text","text":"All done."}]}}
{"type":"user","isMeta":true,"rowSource":"hook","message":{"role":"user","content":"Stop hook feedback:\nplease say CHERRY"}}
{"type":"system","subtype":"stop_hook_summary"}
`,
			"RUNTOOL please", "All done.",
		},
		{
			"text blocks of one message are joined; a new message id starts over",
			`{"type":"user","message":{"content":[{"type":"text","text":"part one"},{"type":"image"},{"type":"text","text":"part two"}]}}
{"type":"assistant","message":{"id":"a","content":[{"type":"text","text":"old"}]}}
{"type":"assistant","message":{"id":"b","content":[{"type":"text","text":"first"}]}}
{"type":"assistant","message":{"id":"b","content":[{"type":"thinking","thinking":"hmm"}]}}
{"type":"assistant","message":{"id":"b","content":[{"type":"text","text":"second"}]}}
`,
			"part one\n\npart two", "first\n\nsecond",
		},
		{
			"a tool-only last message keeps the previous text",
			`{"type":"user","message":{"content":"do it"}}
{"type":"assistant","message":{"id":"a","content":[{"type":"text","text":"said"}]}}
{"type":"assistant","message":{"id":"b","content":[{"type":"tool_use","name":"Read"}]}}
`,
			"do it", "said",
		},
		{
			"torn first line, garbage, invalid JSON, blank prompt",
			`ntent":"tail of a cut line"}}
not json
{"type":"user","message":{"content":"real ask"}}
{"type":"user","message":{"content":"   "}}
{"type":"user","message":{"content":
{"type":"assistant","message":{"content":"plain string reply"}}
[1,2,3]
`,
			"real ask", "plain string reply",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Parse([]byte(tc.in))
			if got.Request != tc.request || got.Reply != tc.reply {
				t.Errorf("Parse = %+v, want request %q reply %q", got, tc.request, tc.reply)
			}
		})
	}
}

func TestReadWidensOnlyWhenNeeded(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.jsonl")
	filler := `{"type":"user","message":{"content":[{"type":"tool_result","content":"` + strings.Repeat("x", 1000) + `"}]},"toolUseResult":{}}` + "\n"
	content := `{"type":"user","message":{"content":"the ask"}}` + "\n" +
		strings.Repeat(filler, FirstReadBytes/len(filler)+10) +
		`{"type":"assistant","message":{"id":"z","content":[{"type":"text","text":"done"}]}}` + "\n"
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	ex, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Request != "the ask" || ex.Reply != "done" {
		t.Errorf("Read = %+v", ex)
	}
}

func TestReadMissingAndFifo(t *testing.T) {
	if _, err := Read(filepath.Join(t.TempDir(), "absent.jsonl")); err == nil {
		t.Error("missing transcript: want an error")
	}
	mkfifo, err := exec.LookPath("mkfifo")
	if err != nil {
		t.Skip("mkfifo not available")
	}
	p := filepath.Join(t.TempDir(), "fifo")
	if out, err := exec.Command(mkfifo, p).CombinedOutput(); err != nil {
		t.Fatalf("mkfifo: %v: %s", err, out)
	}
	done := make(chan error, 1)
	go func() { _, err := Read(p); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("FIFO transcript: want an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read blocked on a FIFO")
	}
}
