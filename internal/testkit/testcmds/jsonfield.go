package testcmds

import (
	"fmt"
	"os"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tidwall/gjson"
)

// The JSON extraction command:
//
//	jsonfield FILE PATH   print the string at gjson PATH of FILE, decoded, to stdout
//	                      (then stdout, scrub and cmp see the text a hook's reader gets)
func init() {
	Cmds["jsonfield"] = jsonFieldCmd
}

func jsonFieldCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: jsonfield FILE PATH")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	got := gjson.GetBytes(data, args[1])
	if !gjson.ValidBytes(data) || got.Type != gjson.String {
		ts.Fatalf("%s: %s is not a string", args[0], args[1])
	}
	fmt.Fprintln(ts.Stdout(), got.String())
}
