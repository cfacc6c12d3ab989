package main

import (
	"fmt"
	"io"
	"os"

	"github.com/tribunal-cc/tribunal/internal/version"
)

// cli carries the injected environment and streams. All output of this
// binary goes through its methods: results on stdout, everything else
// (progress, warnings, errors with hints) on stderr, each line prefixed.
type cli struct {
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// isTerminal tells a terminal from a log or pipe (progress bars).
	isTerminal func(io.Writer) bool
}

func (c *cli) errorf(format string, args ...any) {
	fmt.Fprintf(c.stderr, "tribunal: error: "+format+"\n", args...)
}

func (c *cli) hint(format string, args ...any) {
	fmt.Fprintf(c.stderr, "tribunal: hint: "+format+"\n", args...)
}

func (c *cli) warn(line string) { fmt.Fprintln(c.stderr, line) }

func (c *cli) home() string {
	if h := c.getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

func (c *cli) versionCmd() int {
	fmt.Fprintf(c.stdout, "tribunal-session %s\n", version.Version)
	return 0
}

const usageText = `tribunal-session — the /tribunal loop and its records

Usage:
  tribunal-session run [--rubric ID] [--max-iterations N] [--json] [--detach] <task>
  tribunal-session run [flags] --task-file FILE      (FILE "-" reads the task from stdin)
  tribunal-session wait TASK_ID [--timeout 9m]
  tribunal-session cancel TASK_ID
  tribunal-session decide < input.json
  tribunal-session log [--limit N] [--json]
  tribunal-session show TASK_ID|SESSION_ID [--json]
  tribunal-session replay TASK_ID [--json]
  tribunal-session verify [--ledger PATH]
  tribunal-session keygen
  tribunal-session calibrate --cases FILE [--stop] [--swap] [--jobs N] [--json]
  tribunal-session rejudge TASK_ID|--since DUR [--json]
  tribunal-session version

run       Runs the task through Actor → Jury → Meta-Judge → Gate in the git
          repository of the current directory. Progress goes to stderr; the
          summary (or, with --json, the report) to stdout. --detach starts the
          run in the background and prints its task id; follow it with wait.
wait      Waits for a detached run, streaming its progress; prints its summary.
decide    The aggregate and the gate as one pure command: JSON in, JSON out.
log       This project's recent tasks and advisory verdicts, newest first.
show      Everything recorded about one task or one session's advisory verdict.
replay    Recomputes every gate of a task with the current rules; reports changes.
verify    Checks the signed verdict ledger's hash chain and signatures.
keygen    Creates a new ledger signing key (the old public key stays in old entries).
calibrate Judges labelled cases as the product would; reports agreement, κ,
          catch and false-intervention rates, effective jurors, a threshold sweep.
rejudge   Shadow mode: judges past tasks' recorded iterations with the current
          configuration; reports what would have changed. Alters no record.

Exit status:
  0   accepted (run, wait); success (other commands)
  10  not accepted: the gate never passed (exhausted_iterations)
  1   replay: a recorded decision would differ under the current rules;
      rejudge: a gate decision flipped under the current configuration
  2   usage or configuration error (nothing ran); unknown id
  3   aborted: the actor failed twice, a signal, the budget, or another error;
      show/replay: a record was damaged (what could be read was printed);
      calibrate/rejudge: interrupted, or nothing could be judged
  20  verify: the ledger's hash chain is broken
  21  verify: a signature does not verify
  75  wait: the run is still going; call wait again
`

func (c *cli) usage() { fmt.Fprint(c.stderr, usageText) }
