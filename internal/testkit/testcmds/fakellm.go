package testcmds

import (
	"net/http/httptest"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakellm"
)

// fakeLLM is `fakellm VAR API REPLY`: it serves a fresh internal/testkit/fakellm
// for the rest of the script, answering every API request (chat,
// responses, gemini) with REPLY, and sets VAR to its root URL. REPLY is
// the model's text, fail:STATUS:MESSAGE for an HTTP error, or
// echo:STATUS:MESSAGE for one whose message quotes the request's
// Authorization header and query, as careless servers do; nousage:TEXT
// answers TEXT without any usage, as a stub does.
func fakeLLM(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: fakellm VAR API REPLY")
	}
	reply := fakellm.Text(args[2])
	if text, ok := strings.CutPrefix(args[2], "nousage:"); ok {
		reply = fakellm.Reply{Text: text, NoUsage: true}
	}
	for _, kind := range []string{"fail:", "echo:"} {
		if rest, ok := strings.CutPrefix(args[2], kind); ok {
			code, msg, _ := strings.Cut(rest, ":")
			status, err := strconv.Atoi(code)
			if err != nil {
				ts.Fatalf("fakellm: bad status in %q", args[2])
			}
			reply = fakellm.Fail(status, msg)
			reply.EchoCredentials = kind == "echo:"
		}
	}
	srv := &fakellm.Server{Default: fakellm.Fail(500, "fakellm: no rule matched")}
	srv.Add(fakellm.Rule{API: args[1], Reply: reply})
	hs := httptest.NewServer(srv)
	ts.Defer(hs.Close)
	ts.Setenv(args[0], hs.URL)
}
