// Command tribunal-schema compiles the JSON Schemas of a rubric's
// evaluators and validates documents against them, for tribunal-session,
// which runs it from its own directory with one request on standard input.
package main

import (
	"os"

	"github.com/tribunal-cc/tribunal/internal/judging/schemaengine"
)

func main() {
	os.Exit(schemaengine.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
