// Package records owns the files tribunal writes to its store and reads
// back: their names, their Go types, their bounded readers and listers, and
// the one check of the ULIDs that name them.
package records

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// File and directory names inside a project directory (spec §7.6, spec
// §8.8). internal/store owns where a project directory is and how files are
// written; every name below it is here, for writers and readers alike.
const (
	// JSONExt ends every JSON record's name.
	JSONExt = ".json"
	// StopPrefix starts a stop file's name (stop-<sanitised session id>.json)
	// and the name of the session's judgements directory (stop-<sid>/).
	StopPrefix = "stop-"

	// ManifestFile is the project manifest in the project directory and
	// the task manifest in a task directory.
	ManifestFile = "manifest.json"
	// TaskTextFile is the task as the user gave it.
	TaskTextFile        = "task.md"
	SessionStartFile    = "session-start.json"
	SessionCompleteFile = "session-complete.json"
	// ReportFile is the task's report (the `run --json` output) and
	// SummaryFile its Markdown rendering.
	ReportFile  = "report.json"
	SummaryFile = "summary.md"
	// ReviewFile is a review's own record in its directory: what was
	// reviewed, the findings with their fingerprints, what the judges did
	// not see (internal/review, `tribunal-session review`).
	ReviewFile = "review.json"
	// ReviewCacheDir is the default directory of reused review verdicts
	// in a project directory.
	ReviewCacheDir = "review-cache"
	// DismissalsFile is the person's own dismissed findings in the project
	// directory, and SuppressionsFile the log of the findings a dismissal
	// kept from being raised (internal/dismiss, `tribunal-session dismiss`).
	DismissalsFile   = "dismissals.json"
	SuppressionsFile = "dismissals-suppressed.jsonl"
	// RejudgePrefix starts a shadow re-judging's record in a task directory
	// (rejudge-<id>.json).
	RejudgePrefix = "rejudge-"

	// IterationPrefix starts an iteration directory's name
	// (iteration-<iteration id>); ULIDs make name order creation order.
	IterationPrefix = "iteration-"
	ActorFile       = "actor.md"
	JuryFile        = "jury.json"
	ConsensusFile   = "consensus.json"
	DissentFile     = "dissent.json"
	MetaFile        = "meta.json"
	GateFile        = "gate.json"
	// VerdictsDir holds a seat's verdict as <judge id>.json, its reps as
	// <judge id>.reps/<n>.json and a command judge's as command-<name>.json.
	VerdictsDir          = "verdicts"
	RepsSuffix           = ".reps"
	CommandVerdictPrefix = "command-"
	// DiffSnapshotFile is the task's change so far: the starting snapshot
	// to this iteration's commit, as a unified diff.
	DiffSnapshotFile = "diff-snapshot.patch"
	// DiffPreviousFile is this iteration's own change: the previous
	// iteration's commit (the snapshot for the first) to this one.
	DiffPreviousFile = "diff-previous.patch"
	// FilesChangedFile lists the files changed relative to the snapshot.
	FilesChangedFile = "files.json"
	// CallsDir holds one <nn>-<role>.json record per model call.
	CallsDir = "calls"

	// RunsDir holds a directory per detached run (runs/<task id>/): its
	// output, its process id, its exit status once it ended and how far
	// `wait` has read.
	RunsDir       = "runs"
	RunOutputFile = "output.txt"
	RunPIDFile    = "pid"
	RunExitFile   = "exit"
	RunOffsetFile = "wait.offset"
)

// StopPath is the stop file of one Claude Code session: its latest
// advisory verdict.
func StopPath(projectDir, sessionID string) string {
	return filepath.Join(projectDir, StopFileName(sessionID))
}

// StopFileName is the base name of a session's stop file:
// stop-<sanitised session id>.json.
func StopFileName(sessionID string) string {
	return StopPrefix + store.SanitizeSessionID(sessionID) + JSONExt
}

// IsStopFileName reports whether a directory entry name is a stop file's:
// stop-<something>.json, not hidden (a temporary file of an atomic write
// starts with a dot).
func IsStopFileName(name string) bool {
	return len(name) > len(StopPrefix)+len(JSONExt) &&
		strings.HasPrefix(name, StopPrefix) && strings.HasSuffix(name, JSONExt) &&
		!strings.HasPrefix(name, ".")
}

// IsJudgementPath reports whether path names a judgement record (inside a
// JudgementsDir) rather than a stop file.
func IsJudgementPath(path string) bool {
	return strings.HasPrefix(filepath.Base(filepath.Dir(path)), StopPrefix)
}

// JudgementsDir holds every judgement of one Claude Code session, one file
// per judge call (verdicts and failures alike) named by its task id: the
// stop file keeps only the latest verdict.
func JudgementsDir(projectDir, sessionID string) string {
	return filepath.Join(projectDir, StopPrefix+store.SanitizeSessionID(sessionID))
}

// IterationDir is the name of an iteration's directory inside its task's.
func IterationDir(iterationID string) string { return IterationPrefix + iterationID }

// VerdictPath is a seat's verdict file inside an iteration directory.
func VerdictPath(iterationDir, judgeID string) string {
	return filepath.Join(iterationDir, VerdictsDir, judgeID+JSONExt)
}

// RepPath is one rep's verdict of a seat that judges several times.
func RepPath(iterationDir, judgeID string, rep int) string {
	return filepath.Join(iterationDir, VerdictsDir, judgeID+RepsSuffix, strconv.Itoa(rep)+JSONExt)
}

// CommandVerdictPath is a command judge's verdict file.
func CommandVerdictPath(iterationDir, name string) string {
	return filepath.Join(iterationDir, VerdictsDir, CommandVerdictPrefix+name+JSONExt)
}

// CallPath names a model call's record: calls/<nn>-<label>.json.
func CallPath(iterationDir string, seq int, label string) string {
	return filepath.Join(iterationDir, CallsDir, fmt.Sprintf("%02d-%s%s", seq, label, JSONExt))
}

// ValidID reports whether id is a canonical ULID: 26 Crockford base-32
// characters, upper case, whose first is at most '7' (anything larger
// overflows 128 bits). Task, iteration and judge ids become file and
// directory names, so nothing else may pass for one.
func ValidID(id string) bool {
	if len(id) != 26 || id[0] > '7' {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= '0' && c <= '9':
		case c >= 'A' && c <= 'Z' && c != 'I' && c != 'L' && c != 'O' && c != 'U':
		default:
			return false
		}
	}
	return true
}
