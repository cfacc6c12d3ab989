// Command summary turns `go test -json` on stdin into plain go test output
// plus one line per skipped test tier (internal/testkit/testtier); scripts/test.sh
// pipes the suite through it. It exits 1 when a package failed.
package main

import (
	"fmt"
	"os"

	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

func main() {
	failed, err := testtier.Summarize(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "summary:", err)
		os.Exit(1)
	}
	if failed {
		os.Exit(1)
	}
}
