package main

import (
	"errors"

	"github.com/tribunal-cc/tribunal/internal/judging/schemaproto"
	"github.com/tribunal-cc/tribunal/internal/proc"
)

// selfPath is this binary's path, beside which its helper programs
// (tribunal-schema, tribunal-otel, tribunal-mcp) are installed
// (proc.Helper; ADR-017). Tests that call run in process point it at the
// test binary's links, set once before any test runs (main_test.go).
var selfPath = proc.Self

// schemas compiles and validates the JSON Schemas of json_schema
// evaluators and of judge --schema: the tribunal-schema program installed
// beside this binary, run only when a rubric or an answer has a schema,
// so that no other command links or starts the validator.
func (c *cli) schemas() schemaproto.Validator { return schemaproto.Helper{Self: selfPath()} }

// setupHint is what to do about a failed set-up: a missing helper is
// mended by reinstalling, not by editing a setting (otherwise).
func setupHint(err error, otherwise string) string {
	if missing := (*schemaproto.MissingError)(nil); errors.As(err, &missing) {
		return schemaproto.Hint
	}
	return otherwise
}
