package rules

// The outcomes a record can have, as records and JSON spell them (machine
// values, unchanged for programs): a task's (spec §7.10), an advisory
// judgement's, and a task still running or never finished.
const (
	OutcomeAccepted    = "accepted"
	OutcomeExhausted   = "exhausted_iterations"
	OutcomeAborted     = "aborted"
	OutcomeRejected    = "rejected"
	OutcomeFailed      = "failed"
	OutcomeCancelled   = "cancelled"
	OutcomeIncomplete  = "incomplete"
	outcomeNotAccepted = "not accepted"
)

// OutcomeWords is what a person reads for an outcome, the words of the
// README's exit-code table: a task whose gate never passed is "not
// accepted" (exit 10), not "exhausted_iterations". An advisory verdict's
// "rejected" stays: it is the Stop judge's word, and no gate ran. An
// unknown value is shown as it is.
func OutcomeWords(outcome string) string {
	if outcome == OutcomeExhausted {
		return outcomeNotAccepted
	}
	return outcome
}

// Glyph marks an outcome wherever it is shown (summaries, log, show, the
// report page). Each is a character every platform's default fonts carry
// (DejaVu Sans on Debian, Segoe UI Symbol, Apple's system fonts): ⏱, once
// the mark of "not accepted", rendered as a box in Debian's Chromium.
func Glyph(outcome string) string {
	switch outcome {
	case OutcomeAccepted:
		return "✓"
	case OutcomeRejected, OutcomeExhausted:
		return "✗"
	case OutcomeIncomplete:
		return "…"
	case OutcomeCancelled:
		return "–"
	default:
		return "⚠"
	}
}
