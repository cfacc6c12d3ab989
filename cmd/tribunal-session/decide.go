package main

import (
	"errors"
	"io"

	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/judging/decide"
)

// decideCmd runs the aggregate and the gate over JSON on stdin.
func (c *cli) decideCmd(args []string) int {
	args, ok := c.positional("decide", args)
	if !ok {
		return exitUsage
	}
	if len(args) > 0 {
		c.errorf("decide takes no arguments; it reads its input from stdin")
		c.hint(`echo '{"policy":"majority","verdicts":[{"score":0.8,"passed":true}]}' | tribunal-session decide`)
		return exitUsage
	}
	in, err := io.ReadAll(io.LimitReader(c.stdin, 64<<20))
	if err != nil {
		c.errorf("cannot read stdin: %v", err)
		return exitUsage
	}
	out, err := decide.Run(in)
	if err != nil {
		c.errorf("invalid decide input: %v", err)
		if errors.Is(err, decide.ErrInput) {
			c.hint("input is one JSON object: {policy, verdicts, rubric?, aggregation_method, score_threshold, dissent_threshold, min_criterion_coverage?, meta?, aggregated_score?, disagreement?}")
		}
		return exitUsage
	}
	// The warnings are in the output; they also go to stderr, where every
	// other tribunal diagnostic is, so a person piping the JSON sees them.
	for _, w := range gjson.GetBytes(out, "warnings").Array() {
		c.relay(w.String())
	}
	c.stdout.Write(out)
	return 0
}
