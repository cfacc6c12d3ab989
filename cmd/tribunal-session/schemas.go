package main

import (
	"github.com/tribunal-cc/tribunal/internal/judging/schemaproto"
	"github.com/tribunal-cc/tribunal/internal/proc"
)

// schemas compiles and validates the JSON Schemas of json_schema
// evaluators and of judge --schema: the tribunal-schema program installed
// beside this binary, run only when a rubric or an answer has a schema,
// so that no other command links or starts the validator.
func (c *cli) schemas() schemaproto.Validator { return schemaproto.Helper{Self: proc.Self()} }
