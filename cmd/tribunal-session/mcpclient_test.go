package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/testkit/testcmds"
)

// TestMCPScripts runs testdata/mcp: the real `tribunal-session mcp`
// driven over stdio by the Go SDK's own client (mcp-client).
func TestMCPScripts(t *testing.T) {
	testscript.Run(t, testcmds.Params("testdata/mcp", *update))
}

// mcpClient is the mcp-client program of the scripts: it starts
// `tribunal-session mcp` (from PATH, with the script's environment) as an
// MCP client over stdio would, and
//
//	mcp-client tools               prints each tool's name and input schema, one per line
//	mcp-client call TOOL ARGS      calls TOOL with ARGS (a JSON object, or @FILE) and
//	                               prints its text content; exit 1 when the result is an error
//	mcp-client cancel TOOL ARGS PIDFILE
//	                               calls TOOL, cancels the call once PIDFILE names a hung
//	                               judge and its child ($FAKE_CLAUDE_PIDS), and exits 0 when
//	                               those and the judge's parent — the tool's tribunal-session —
//	                               are gone while the connection is still open, 1 otherwise
//
// The server's stderr is the program's own.
func mcpClient(args []string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.Command("tribunal-session", "mcp")
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "mcp-client", Version: "test"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-client: connect:", err)
		return 2
	}
	defer cs.Close()
	switch {
	case len(args) == 1 && args[0] == "tools":
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcp-client: tools/list:", err)
			return 2
		}
		for _, tool := range res.Tools {
			schema, _ := json.Marshal(tool.InputSchema)
			fmt.Printf("%s %s\n", tool.Name, schema)
		}
		return 0
	case len(args) == 3 && args[0] == "call":
		return callTool(ctx, cs, args[1], args[2])
	case len(args) == 4 && args[0] == "cancel":
		return cancelTool(ctx, cs, args[1], args[2], args[3])
	}
	fmt.Fprintln(os.Stderr, "usage: mcp-client tools | call TOOL ARGS | cancel TOOL ARGS PIDFILE")
	return 2
}

func callTool(ctx context.Context, cs *mcp.ClientSession, name, arg string) int {
	raw := []byte(arg)
	if file, ok := strings.CutPrefix(arg, "@"); ok {
		var err error
		if raw, err = os.ReadFile(file); err != nil {
			fmt.Fprintln(os.Stderr, "mcp-client:", err)
			return 2
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(raw)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-client: tools/call:", err)
		return 2
	}
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			fmt.Println(tc.Text)
		}
	}
	if res.IsError {
		return 1
	}
	return 0
}

// cancelTool cancels a call of TOOL once its judge hangs, then checks
// that the call's processes die of the cancellation alone: the
// connection stays open until they are gone (closing it would stop the
// whole server).
func cancelTool(ctx context.Context, cs *mcp.ClientSession, name, arg, pidFile string) int {
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(arg)})
		done <- err
	}()
	pids := awaitPids(pidFile, 30*time.Second)
	if len(pids) != 2 {
		fmt.Fprintf(os.Stderr, "mcp-client: %s never named a hung judge and its child\n", pidFile)
		return 2
	}
	pids = append(pids, parentPid(pids[0]))
	cancel()
	fmt.Println("cancelled:", <-done)
	for _, pid := range pids {
		if !gone(pid, 10*time.Second) {
			fmt.Printf("process %d is still running\n", pid)
			return 1
		}
	}
	fmt.Println("the command and its judges are gone")
	return 0
}

// awaitPids reads the pids in path once it has two, polling as waitfile does.
func awaitPids(path string, limit time.Duration) []int {
	deadline := time.Now().Add(limit)
	for {
		data, _ := os.ReadFile(path)
		var pids []int
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
		if len(pids) >= 2 || time.Now().After(deadline) {
			return pids
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// parentPid is pid's parent, from /proc/PID/stat (0 when unreadable).
func parentPid(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// gone polls until pid no longer runs (a zombie counts as gone).
func gone(pid int, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if err != nil || (i >= 0 && i+2 < len(s) && s[i+2] == 'Z') {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}
