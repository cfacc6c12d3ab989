package otelexport

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/jcs"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Source says which recorded tasks and judgements to read.
type Source struct {
	// LogPath is the events log; OnlookerDir holds the projects' task
	// directories ($ONLOOKER_DIR/tribunal/<key>/<task id>).
	LogPath, OnlookerDir string
	// TaskIDs, when set, are the only tasks read.
	TaskIDs []string
	// Since keeps the tasks with an event at or after it (zero: all).
	Since time.Time
	// ProjectDir, when set, keeps the tasks and judgements recorded under
	// this project's directory (store.Project.Dir).
	ProjectDir string
}

// maxRecord caps one call record or manifest read back; the prompts and
// answers they hold are bounded far below it when written.
const maxRecord = 64 << 20

// Load reads the traces src names from the events log, each with what
// its task's directory holds (the manifest's rubric, the call records).
// skipped counts log lines that were not whole envelopes. A log that does
// not exist yet holds no traces; any other read failure is the error.
func Load(src Source) (traces []Trace, skipped int, err error) {
	want := map[string]bool{}
	for _, id := range src.TaskIDs {
		want[id] = true
	}
	f, err := store.OpenRegular(src.LogPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("open the events log %q: %w", src.LogPath, err)
	}
	defer f.Close()
	recs, skipped, err := events.ReadLog(f, func(r *events.Record) bool {
		return len(want) == 0 || want[r.TaskID]
	})
	if err != nil {
		return nil, skipped, fmt.Errorf("%q: %w", src.LogPath, err)
	}
	byTask := map[string]*Trace{}
	var order []string
	for _, r := range recs {
		t := byTask[r.TaskID]
		if t == nil {
			t = &Trace{TaskID: r.TaskID}
			byTask[r.TaskID] = t
			order = append(order, r.TaskID)
		}
		t.Events = append(t.Events, r)
	}
	for _, id := range order {
		t := byTask[id]
		if !src.Since.IsZero() && t.Events[len(t.Events)-1].Timestamp.Before(src.Since) {
			continue
		}
		dir := src.taskDir(t)
		if src.ProjectDir != "" && dir == "" && !src.judgedHere(t) {
			continue
		}
		if dir != "" {
			t.Manifest, t.RubricDigest = manifest(dir)
			t.Calls = callRecords(dir)
		}
		traces = append(traces, *t)
	}
	return traces, skipped, nil
}

// taskDir is the task's directory, "" when none exists (an advisory
// judgement, a task whose records were removed). Task ids become
// directory names only when they are canonical ULIDs.
func (src Source) taskDir(t *Trace) string {
	if !records.ValidID(t.TaskID) {
		return ""
	}
	var candidates []string
	if src.ProjectDir != "" {
		candidates = []string{filepath.Join(src.ProjectDir, t.TaskID)}
	} else {
		candidates, _ = filepath.Glob(filepath.Join(src.OnlookerDir, "tribunal", "*", t.TaskID))
	}
	for _, c := range candidates {
		if fi, err := os.Lstat(filepath.Join(c, records.ManifestFile)); err == nil && fi.Mode().IsRegular() {
			return c
		}
	}
	return ""
}

// judgedHere reports whether an advisory judgement's record lies in
// src.ProjectDir.
func (src Source) judgedHere(t *Trace) bool {
	if !records.ValidID(t.TaskID) {
		return false
	}
	p := filepath.Join(records.JudgementsDir(src.ProjectDir, t.Events[0].SessionID), t.TaskID+records.JSONExt)
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}

// manifest reads the task's manifest and the digest of its rubric; both
// are left out, not fatal, when unreadable.
func manifest(dir string) (*records.Manifest, string) {
	data, err := store.ReadRegular(filepath.Join(dir, records.ManifestFile), maxRecord)
	if err != nil {
		return nil, ""
	}
	var m records.Manifest
	if json.Unmarshal(data, &m) != nil {
		return nil, ""
	}
	digest := ""
	if len(m.Rubric) > 0 {
		// The digest a receipt of the task pins (internal/store/receipt).
		digest, _ = jcs.SHA256(m.Rubric)
	}
	return &m, digest
}

// callRecords reads every iteration's call records, in call order (their
// names start with the call's sequence number).
func callRecords(dir string) map[string][]Call {
	out := map[string][]Call{}
	iters, _ := filepath.Glob(filepath.Join(dir, records.IterationPrefix+"*"))
	for _, it := range iters {
		id := strings.TrimPrefix(filepath.Base(it), records.IterationPrefix)
		files, _ := filepath.Glob(filepath.Join(it, records.CallsDir, "*"+records.JSONExt))
		sort.Strings(files)
		for _, f := range files {
			data, err := store.ReadRegular(f, maxRecord)
			if err != nil {
				continue
			}
			var c records.Call
			if json.Unmarshal(data, &c) != nil {
				continue
			}
			rel, _ := filepath.Rel(dir, f)
			out[id] = append(out[id], Call{Call: c, File: rel})
		}
	}
	return out
}
