// Command fakeclaudebin is internal/testkit/fakeclaude as a program of its
// own, for the benchmark scripts that need the scripted model outside a
// testscript (scripts/bench-judge-cases.sh builds it static).
package main

import (
	"os"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakeclaude"
)

func main() { os.Exit(fakeclaude.Main()) }
