package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
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
	}
	fmt.Fprintln(os.Stderr, "usage: mcp-client tools | call TOOL ARGS")
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
