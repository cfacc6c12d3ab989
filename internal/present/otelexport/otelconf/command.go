package otelconf

import "fmt"

// Program is the helper that links the OpenTelemetry SDK and sends the
// traces; tribunal-session finds it beside itself (proc.Helper) and runs
// it for `export` and for the live export after run and review.
const Program = "tribunal-otel"

// ExitExportFailed is export's status when the collector did not take
// every span (unreachable, slow past the deadline, or refusing).
const ExitExportFailed = 40

// LiveFlag is export's hidden flag for the live export at the end of a
// task or review: one --task, LiveTimeout as the deadline and no retry,
// silent when no collector is configured, and every failure one warning
// that names the command that sends it later, never an error status.
const LiveFlag = "live"

// LiveArgs is the command line of tribunal-otel's live export of taskID.
func LiveArgs(taskID string) []string {
	return []string{"export", "--otlp", "--" + LiveFlag, "--task", taskID}
}

// NotExported is the one warning of a live export that failed: the
// verdict stands whatever the collector does. later adds the command that
// sends the task afterwards, for a failure export can get past (the
// collector, or tribunal-otel itself, did not take it in time).
func NotExported(taskID string, cause error, later bool) string {
	msg := fmt.Sprintf("task %s: traces not exported: %v", taskID, cause)
	if later {
		msg += "; the verdict is recorded, send it later with: tribunal-session export --otlp --task " + taskID
	}
	return msg
}

// Environment is every variable the export reads besides the OTEL_* ones
// (Variables): where the settings and the events log are. A caller that
// hands its own view of the environment to tribunal-otel passes these.
var Environment = []string{"HOME", "CLAUDE_PLUGIN_ROOT", "ONLOOKER_DIR", "ONLOOKER_EVENTS_LOG"}

// ExportHelp is `export -h`: here, without the SDK, so that
// tribunal-session answers `help export` even when tribunal-otel is
// missing, and both programs print the same text.
const ExportHelp = `usage: tribunal-session export --otlp [--since DURATION|TIME] [--project DIR]
                               [--task ID]... [--timeout DURATION] [--quiet]

Sends recorded tasks and advisory judgements to an OpenTelemetry collector
as traces, over OTLP/HTTP: a trace per task or judgement (its id is the
task's ULID), a span per iteration, per agent and per model call, and the
gate decision. The same task always gives the same trace and span ids, so
sending it again (after a live export, or twice) does not duplicate it.

The collector is OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else
OTEL_EXPORTER_OTLP_ENDPOINT (+ /v1/traces), else the user-level setting
tribunal.telemetry.otlp_endpoint. OTEL_EXPORTER_OTLP_HEADERS,
OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf, http/json), OTEL_SERVICE_NAME
and OTEL_RESOURCE_ATTRIBUTES are honoured.

  --otlp             send over OTLP (the only exporter; required)
  --since WHEN       only what was recorded since WHEN: a duration back
                     from now (24h, 7d) or an RFC 3339 time; default all
  --project DIR      only the tasks of the git repository at DIR
  --task ID          only this task or judgement (repeatable)
  --timeout D        the whole export's deadline (default 30s)
  --quiet            print nothing when there is nothing to do or no
                     collector is configured (how run and the Stop hook's
                     judge call it)

Exit status: 0 every span was sent (or there was nothing to send); 2 usage,
no collector configured, or an OTEL_* value that cannot be used; 40 the
collector did not take every span (unreachable, too slow, or refusing):
nothing recorded is lost, run export again.
`
