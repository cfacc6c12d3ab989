package stophook

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/proc/procid"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// JudgeCommand is the first argument that makes stop-gate the detached
// judge of one job instead of the hook.
const JudgeCommand = "judge"

// lockedFlag tells the detached judge that it inherited the session lock
// as file descriptor inheritedLock.
const lockedFlag = "--locked"

// inheritedLock is the descriptor of the session lock handed to a judge
// started with lockedFlag: the first of exec.Cmd.ExtraFiles.
const inheritedLock = 3

// recordReserve is the time a judge keeps, past the model call's own
// deadline, to record the verdict (events, stop file, ledger).
const recordReserve = 10 * time.Second

// startSlack is the time a detached judge may take to start and take its
// lock before its model call's deadline starts to shrink.
const startSlack = 5 * time.Second

// maxJob caps a job file: the last assistant message is the only large
// field, and the hook input it came from is capped at 16 MiB.
const maxJob = 20 << 20

// job is one judgement: everything the judge needs, decided by the hook
// (the judge never re-reads configuration, so a verdict follows the
// settings of the turn it judges).
type job struct {
	SessionID            string                  `json:"session_id"`
	TranscriptPath       string                  `json:"transcript_path"`
	LastAssistantMessage string                  `json:"last_assistant_message"`
	Worktree             string                  `json:"worktree"`
	ProjectDir           string                  `json:"project_dir"`
	OnlookerDir          string                  `json:"onlooker_dir"`
	LogPath              string                  `json:"log_path"`
	Fingerprint          string                  `json:"fingerprint"`
	Queued               time.Time               `json:"queued"`
	Deadline             time.Time               `json:"deadline"`
	Settings             config.StopHookSettings `json:"settings"`
	ClaudePath           string                  `json:"claude_path"`
	// Provider is the Stop judge's client when it is not claude
	// (internal/llm/provider); Judge describes it for the records.
	Provider   provider.Spec     `json:"provider"`
	Judge      records.JudgeInfo `json:"judge"`
	CodexPath  string            `json:"codex_path,omitempty"`
	GeminiPath string            `json:"gemini_path,omitempty"`
	SessionBin string            `json:"session_bin,omitempty"`
}

// info is the lock holder's description of process p judging this job.
func (j job) info(p procid.ID, mode string, now time.Time) lockInfo {
	return lockInfo{PID: p.PID, PIDStart: p.Start, Started: now, Deadline: j.Deadline,
		Fingerprint: j.Fingerprint, Queued: j.Queued, Mode: mode}
}

// dispatch starts the detached judge of j, unless one is already judging
// this state. It never waits: with the lock free the hook takes it and
// hands it to the judge it starts (no window in which a second Stop could
// start a second judge); with the lock held by a judge of the same state
// that is not provably gone there is nothing to do; otherwise the new
// judge is started without the lock and supersedes the running one (or
// takes over an abandoned lock) itself, so the turn does not wait for the
// old judge to wind down.
func (h *hook) dispatch(j job) {
	j.Deadline = h.Now().Add(j.Settings.Timeout + recordReserve + startSlack)
	path := lockPath(j.ProjectDir, j.SessionID)
	// Until the judge exists, the hook itself is the holder.
	f, held, err := tryLock(path, j.info(procid.Self(), "detached", h.Now()), h.deadline, h.Now)
	if err != nil {
		h.warn("no advisory verdict: %v", err)
		return
	}
	if held != nil {
		info, ok := readInfo(held)
		held.Close()
		if ok && info.Fingerprint == j.Fingerprint && h.Now().Before(info.Deadline) &&
			procid.Check(info.holder()) != procid.Gone {
			return
		}
		if err := h.spawn(j, nil); err != nil {
			h.warn("no advisory verdict: %v", err)
		}
		return
	}
	defer f.Close()
	if err := h.spawn(j, f); err != nil {
		h.warn("no advisory verdict: %v", err)
	}
}

// spawn writes the job file and starts `stop-gate judge [--locked] JOB`
// in a session of its own: no terminal, no process group shared with the
// hook or Claude Code, stdin/stdout/stderr on /dev/null (Claude Code reads
// the hook's stdout to its end, so an inherited pipe would make the turn
// wait for the judge after all). With lock it also inherits the session
// lock as descriptor inheritedLock and the hook records the judge as its
// holder.
func (h *hook) spawn(j job, lock *os.File) error {
	dir := filepath.Join(j.ProjectDir, JudgesDir)
	entropy := h.Rand
	if entropy == nil {
		entropy = rand.Reader
	}
	id, err := events.NewULID(entropy, h.Now())
	if err != nil {
		return fmt.Errorf("mint a job id: %w", err)
	}
	jobPath := filepath.Join(dir, store.SanitizeSessionID(j.SessionID)+"."+id+".job")
	if err := store.WriteJSON(jobPath, j); err != nil {
		return fmt.Errorf("write the judge's job: %w", err)
	}
	args := []string{JudgeCommand, jobPath}
	if lock != nil {
		args = []string{JudgeCommand, lockedFlag, jobPath}
	}
	self := h.Self
	if self == "" {
		if self, err = os.Executable(); err != nil {
			os.Remove(jobPath)
			return fmt.Errorf("find stop-gate to start the judge: %w", err)
		}
	}
	cmd := exec.Command(self, args...)
	if h.SelfName != "" {
		cmd.Args[0] = h.SelfName
	}
	cmd.Env = h.Environ
	cmd.Dir = j.Worktree
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if lock != nil {
		cmd.ExtraFiles = []*os.File{lock}
	}
	if err := cmd.Start(); err != nil {
		os.Remove(jobPath)
		return fmt.Errorf("start the judge: %w", err)
	}
	if lock != nil {
		// Written before the hook lets go of its descriptor: from the
		// moment the judge exists, the lock says who holds it. The judge
		// is this process's child, not yet waited for, so its pid cannot
		// have been recycled when its start time is read.
		if err := writeInfo(lock, j.info(procid.Of(cmd.Process.Pid), "detached", h.Now())); err != nil {
			h.warn("cannot describe the running judge in %q: %v", lock.Name(), err)
		}
	}
	return cmd.Process.Release()
}

// readJob reads a job file. The judge removes it once it holds the
// session lock (a job is run once), so that the lock or the file always
// shows that a judge is on its way.
func readJob(path string) (job, error) {
	data, ok := store.ReadOptional(path, maxJob, func(string) {})
	if !ok {
		os.Remove(path)
		return job{}, fmt.Errorf("cannot read the job %q", path)
	}
	var j job
	if err := json.Unmarshal(data, &j); err != nil {
		return job{}, fmt.Errorf("the job %q is not valid: %w", path, err)
	}
	if j.ProjectDir == "" || j.Worktree == "" || j.Deadline.IsZero() {
		return job{}, fmt.Errorf("the job %q is incomplete", path)
	}
	return j, nil
}
