package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// TaskView is everything recorded about one task.
type TaskView struct {
	TaskID   string            `json:"task_id"`
	Dir      string            `json:"artifact_dir"`
	Started  time.Time         `json:"started"`
	Manifest *records.Manifest `json:"manifest,omitempty"`
	Params   *records.Params   `json:"params,omitempty"`
	Complete *records.Complete `json:"complete,omitempty"`
	// CompleteSource is "session-complete.json", "events log" or "".
	CompleteSource string          `json:"complete_source,omitempty"`
	Iterations     []IterationView `json:"iterations"`
	// Jurors is the panel's effective number of independent jurors over
	// the project's record (set by the caller: ProjectJurors).
	Jurors *Jurors `json:"effective_jurors,omitempty"`
	// Isolation is report.json's account of where the task ran and what
	// became of its change (nil for runs before task worktrees).
	Isolation *records.Isolation `json:"isolation,omitempty"`
	// BestOfN is a best-of-N task's candidates and comparisons.
	BestOfN *records.BestOfN `json:"best_of_n,omitempty"`
	// ReviewFindings are a review's findings with their fingerprints
	// (review.json), nil for a task: the page lists them once each.
	ReviewFindings []records.ReviewFinding `json:"-"`
	// Answer is a judged answer's answer.json (spec §7.20).
	Answer   *records.Answer   `json:"answer,omitempty"`
	Problems []records.Problem `json:"-"`
}

// IterationView is one iteration's artifacts.
type IterationView struct {
	Number    int                      `json:"iteration_number"` // 0-based
	ID        string                   `json:"iteration_id"`
	Dir       string                   `json:"dir"`
	ActorText string                   `json:"actor_output,omitempty"`
	Judges    []JudgeView              `json:"judges"`
	Consensus *events.ConsensusReached `json:"consensus,omitempty"`
	Dissent   *events.DissentRecorded  `json:"dissent,omitempty"`
	Meta      *records.Meta            `json:"meta,omitempty"`
	Gate      *records.Gate            `json:"gate,omitempty"`
	Floor     *FloorFacts              `json:"failed_criterion_facts,omitempty"`
	// Files are the files changed relative to the task's starting
	// snapshot after this iteration (isolated runs only); HasDiff says
	// the iteration's diffs are stored (show --diff prints them).
	Files   []records.FileChange `json:"files_changed,omitempty"`
	HasDiff bool                 `json:"has_diff,omitempty"`
	// Ended is set when the iteration stopped before its meta-judge and
	// gate (an abort or an interruption): neither file exists.
	Ended   bool            `json:"ended_before_gate,omitempty"`
	Raw     []rawVerdict    `json:"-"`
	Seats   []records.Seat  `json:"-"`
	MetaRaw json.RawMessage `json:"-"`
	// juryRead is set when jury.json was read; without it the panel is
	// whatever verdict files exist.
	juryRead bool
}

// JudgeView is one seat's verdict file, read the way the gate reads it.
type JudgeView struct {
	JudgeID string `json:"judge_id"`
	Type    string `json:"judge_type"`
	Model   string `json:"model,omitempty"`
	// Score is set when the verdict is usable; RawScore keeps an unusable
	// score as the judge gave it.
	Score           *float64                   `json:"score,omitempty"`
	RawScore        json.RawMessage            `json:"raw_score,omitempty"`
	Passed          bool                       `json:"passed"`
	Failed          bool                       `json:"failed,omitempty"`
	Error           string                     `json:"error,omitempty"`
	Feedback        string                     `json:"feedback_summary,omitempty"`
	Confidence      *float64                   `json:"confidence,omitempty"`
	CriterionScores map[string]json.RawMessage `json:"criterion_scores,omitempty"`
	// Findings are the judge's own findings on the severity ladder.
	Findings []severity.Finding `json:"findings,omitempty"`
	// Missing is set when the seat's verdict file could not be read.
	Missing bool `json:"missing,omitempty"`
	// Heuristic marks the offline heuristic judge's verdict (spec §4.9);
	// Suspect a stub's answer kept out of the gate (spec §4.8).
	Heuristic bool `json:"heuristic,omitempty"`
	Suspect   bool `json:"suspect,omitempty"`
}

// FloorFacts say concretely why a criterion failed its floor (spec §7.9): the
// lowest readable score any verdict gave it (nil when only unreadable
// values were reported) and the rubric's min_pass.
type FloorFacts struct {
	Criterion string   `json:"criterion"`
	Lowest    *float64 `json:"lowest_score,omitempty"`
	Floor     *float64 `json:"min_pass,omitempty"`
}

type rawVerdict struct {
	path string
	raw  json.RawMessage
}

// Kind is KindReview for a review's record, KindAnswer for a judged
// answer's, else KindTask.
func (v *TaskView) Kind() string {
	if v.Manifest != nil && (v.Manifest.Kind == records.KindReview || v.Manifest.Kind == records.KindAnswer) {
		return v.Manifest.Kind
	}
	return KindTask
}

// ShowTask reads everything recorded about a task. logPath is the events
// log, consulted only when session-complete.json is missing.
func ShowTask(projectDir, logPath, taskID string) *TaskView {
	dir := filepath.Join(projectDir, taskID)
	v := &TaskView{TaskID: taskID, Dir: dir, Started: records.TaskTime(taskID)}
	m, c, problems := loadTask(projectDir, taskID)
	v.Problems = append(v.Problems, problems...)
	v.Manifest, v.Complete = m, c
	if c != nil {
		v.CompleteSource = records.SessionCompleteFile
	} else {
		evs, err := scanEvents(logPath, []string{taskID})
		if err != nil {
			v.Problems = append(v.Problems, asProblem(err))
		}
		if c, ok := completeFromEvents(evs[taskID]); ok {
			v.Complete, v.CompleteSource = c, "events log"
		}
	}
	if p, ok := m.Params(); ok {
		v.Params = &p
	}
	var rep struct {
		Isolation *records.Isolation `json:"isolation"`
	}
	if err := records.ReadJSON(filepath.Join(dir, records.ReportFile), &rep); err == nil {
		v.Isolation = rep.Isolation
	}
	v.BestOfN = readBestOfN(dir)
	var rev records.Review
	if v.Kind() == KindReview && records.ReadJSON(filepath.Join(dir, records.ReviewFile), &rev) == nil {
		v.ReviewFindings = rev.Findings
	}
	var ans records.Answer
	if v.Kind() == KindAnswer && records.ReadJSON(filepath.Join(dir, records.AnswerFile), &ans) == nil {
		v.Answer = &ans
	}
	var rub *rubric.Rubric
	if m != nil && len(m.Rubric) > 0 && string(m.Rubric) != "null" {
		if r, err := rubric.Parse(m.Rubric); err == nil {
			rub = &r
		}
	}
	dirs, err := records.IterationDirs(dir)
	if err != nil {
		v.Problems = append(v.Problems, asProblem(err))
	}
	for n, d := range dirs {
		it, problems := readIteration(d, n, rub)
		v.Iterations = append(v.Iterations, it)
		v.Problems = append(v.Problems, problems...)
	}
	return v
}

// readIteration reads one iteration directory. Every file is optional in
// the sense that its absence or damage is a Problem and the rest is still
// read; files an interrupted iteration never reached (gate.json after an
// abort, dissent.json when no dissent was recorded) are not problems.
func readIteration(dir string, n int, rub *rubric.Rubric) (IterationView, []records.Problem) {
	it := IterationView{Number: n, ID: records.IterationIDOf(dir), Dir: dir}
	var problems []records.Problem
	note := func(err error, optional bool) {
		if p := asProblem(err); !(optional && errors.Is(p.Err, ErrMissing)) {
			problems = append(problems, p)
		}
	}
	it.ActorText = records.ActorText(dir)
	var files []records.FileChange
	if err := records.ReadJSON(filepath.Join(dir, records.FilesChangedFile), &files); err == nil {
		it.Files = files
	} else {
		note(err, true)
	}
	if _, err := os.Stat(filepath.Join(dir, records.DiffSnapshotFile)); err == nil {
		it.HasDiff = true
	}
	// gate.json and meta.json may be absent only when the iteration ended
	// early, which shows as both being absent.
	var gate records.Gate
	gateErr := records.ReadJSON(filepath.Join(dir, records.GateFile), &gate)
	if gateErr == nil {
		it.Gate = &gate
	}
	metaRaw, metaErr := records.ReadRaw(filepath.Join(dir, records.MetaFile))
	ended := gateErr != nil && metaErr != nil && errors.Is(asProblem(gateErr).Err, ErrMissing) &&
		errors.Is(asProblem(metaErr).Err, ErrMissing)
	it.Ended = ended
	if gateErr != nil {
		note(gateErr, ended)
	}
	if metaErr != nil {
		note(metaErr, ended)
	} else {
		it.MetaRaw = metaRaw
		var mf records.Meta
		if err := json.Unmarshal(metaRaw, &mf); err != nil {
			problems = append(problems, records.Problem{Path: filepath.Join(dir, records.MetaFile), Err: err})
		} else {
			it.Meta = &mf
		}
	}
	var cons events.ConsensusReached
	if err := records.ReadJSON(filepath.Join(dir, records.ConsensusFile), &cons); err != nil {
		note(err, ended)
	} else {
		it.Consensus = &cons
	}
	var dis events.DissentRecorded
	if err := records.ReadJSON(filepath.Join(dir, records.DissentFile), &dis); err != nil {
		note(err, true)
	} else {
		it.Dissent = &dis
	}
	seats, vs, juryRead, ps := readPanel(dir)
	for _, p := range ps {
		// An iteration interrupted while the jury deliberated has seats
		// but no verdict files; that is its history, not damage.
		if !(ended && errors.Is(p.Err, ErrMissing)) {
			problems = append(problems, p)
		}
	}
	it.Seats, it.Raw, it.juryRead = seats, vs, juryRead
	for i, rv := range vs {
		it.Judges = append(it.Judges, judgeView(seats[i], rv))
	}
	// A check's pseudo-criterion ("command:tests", "severity:critical")
	// has no floor to explain.
	if it.Gate != nil && it.Gate.FailedCriterion != "" && it.Gate.BlockedBy == "" {
		it.Floor = floorFacts(vs, it.Gate.FailedCriterion, rub)
	}
	return it, problems
}

// readPanel reads jury.json and the verdict of every seat, in seat order.
// Without a readable jury.json the verdict files are taken in name order,
// which is what a replay can still use; a seat whose file is missing is
// kept with a nil raw verdict.
func readPanel(dir string) ([]records.Seat, []rawVerdict, bool, []records.Problem) {
	var problems []records.Problem
	var seats []records.Seat
	juryPath := filepath.Join(dir, records.JuryFile)
	juryRead := true
	if err := records.ReadJSON(juryPath, &seats); err != nil {
		juryRead = false
		problems = append(problems, asProblem(err))
		seats = nil
		entries, _ := os.ReadDir(filepath.Join(dir, records.VerdictsDir))
		for _, e := range entries {
			// Seat verdicts are named by their ULID judge id; command
			// judges' files (command-<name>.json) and rep directories
			// are not seats.
			if id, ok := strings.CutSuffix(e.Name(), records.JSONExt); ok && !e.IsDir() && records.ValidID(id) {
				seats = append(seats, records.Seat{JudgeID: id})
			}
		}
	}
	vs := make([]rawVerdict, len(seats))
	for i, s := range seats {
		p := records.VerdictPath(dir, s.JudgeID)
		vs[i].path = p
		if s.JudgeID == "" || strings.ContainsAny(s.JudgeID, `/\`) || s.JudgeID == "." || s.JudgeID == ".." {
			problems = append(problems, records.Problem{Path: juryPath, Err: errors.New("a seat has an unusable judge_id")})
			continue
		}
		raw, err := records.ReadRaw(p)
		if err != nil {
			problems = append(problems, asProblem(err))
			continue
		}
		vs[i].raw = raw
	}
	return seats, vs, juryRead, problems
}

func judgeView(s records.Seat, rv rawVerdict) JudgeView {
	j := JudgeView{JudgeID: s.JudgeID, Type: s.JudgeType}
	if s.Model != nil {
		j.Model = *s.Model
	}
	if rv.raw == nil {
		j.Missing = true
		return j
	}
	v, err := verdict.FromJSON(rv.raw)
	if err != nil {
		j.Failed, j.Error = true, err.Error()
		return j
	}
	if j.Type == "" {
		j.Type = v.JudgeType
	}
	if j.Model == "" {
		j.Model = v.JudgeModelID
	}
	if score, ok := v.UsableScore(); ok {
		j.Score = &score
	} else if len(v.Score) > 0 {
		j.RawScore = v.Score
	}
	j.Passed, j.Failed, j.Error = v.Passed, v.Failed, v.Error
	j.Heuristic, j.Suspect = v.JudgeProvider == records.HeuristicProvider, v.Suspect
	j.Feedback, j.Confidence = v.FeedbackSummary, v.Confidence
	if cs, ok := v.Reports(); ok {
		j.CriterionScores = cs
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(rv.raw, &obj) == nil {
		j.Findings, _ = severity.FromVerdictJSON(obj)
	}
	return j
}

// floorFacts finds the lowest readable score of the failed criterion and
// its floor in the task's rubric snapshot.
func floorFacts(vs []rawVerdict, name string, rub *rubric.Rubric) *FloorFacts {
	f := &FloorFacts{Criterion: name}
	if rub != nil {
		for _, c := range rub.Criteria {
			if c.Name == name {
				f.Floor = c.MinPass
				break
			}
		}
	}
	for _, rv := range vs {
		if rv.raw == nil {
			continue
		}
		v, err := verdict.FromJSON(rv.raw)
		if err != nil {
			continue
		}
		cs, ok := v.Reports()
		if !ok {
			continue
		}
		if s, ok := verdict.Usable(cs[name]); ok && (f.Lowest == nil || s < *f.Lowest) {
			f.Lowest = &s
		}
	}
	return f
}

// AdvisoryView is everything recorded about one advisory verdict.
type AdvisoryView struct {
	records.Advisory
	// Surfaced is set when a session start has shown the verdict.
	Surfaced   *records.Mark `json:"surfaced,omitempty"`
	DurationMS *int          `json:"duration_ms,omitempty"`
	TokenCount *int          `json:"token_count,omitempty"`
	// Diff is the diff the judge was shown, as kept beside the judgement
	// record ("" when none was kept); DiffPath is that file.
	Diff     string            `json:"judge_diff,omitempty"`
	DiffPath string            `json:"judge_diff_path,omitempty"`
	Problems []records.Problem `json:"-"`
}

// ShowAdvisory reads one stop file, whether a session start has surfaced
// it, and from the events log what the file does not hold (the judge
// call's duration and tokens).
func ShowAdvisory(projectDir, logPath, stopPath string) (*AdvisoryView, error) {
	read := records.ReadStopFile
	if records.IsJudgementPath(stopPath) {
		read = records.ReadRecord
	}
	a, err := read(stopPath)
	if err != nil {
		return nil, records.FileProblem(stopPath, err)
	}
	v := &AdvisoryView{Advisory: a, DurationMS: a.DurationMS}
	if m, ok := records.ReadMark(projectDir, a); ok {
		v.Surfaced = &m
	}
	v.readJudgementDiff(projectDir)
	evs, err := scanEvents(logPath, []string{a.TaskID})
	if err != nil {
		v.Problems = append(v.Problems, asProblem(err))
	}
	for _, e := range evs[a.TaskID] {
		switch e.Type {
		case "tribunal.session.complete":
			var c records.Complete
			if json.Unmarshal(e.Payload, &c) == nil && c.TotalDurationMS != nil {
				v.DurationMS = c.TotalDurationMS
			}
		case "tribunal.verdict":
			v.TokenCount = e.TokenCount
		}
	}
	return v, nil
}

// RecordedOutput is one model call's recorded output file.
type RecordedOutput struct {
	// Name says whose output it is ("judge standard", "meta-judge").
	Name string
	Path string
	Raw  json.RawMessage
}

// Recorded lists the iteration's recorded model outputs that were read:
// each seat's verdict file, in seat order, then meta.json.
func (it IterationView) Recorded() []RecordedOutput {
	var out []RecordedOutput
	for i, rv := range it.Raw {
		if rv.raw == nil {
			continue
		}
		name := "judge"
		if i < len(it.Judges) && it.Judges[i].Type != "" {
			name = "judge " + it.Judges[i].Type
		}
		out = append(out, RecordedOutput{Name: name, Path: rv.path, Raw: rv.raw})
	}
	if it.MetaRaw != nil {
		out = append(out, RecordedOutput{Name: "meta-judge", Path: filepath.Join(it.Dir, records.MetaFile), Raw: it.MetaRaw})
	}
	return out
}

// directiveNote names how many directives the task's rubric snapshot gave
// its judges (spec §2.6): they shaped every prompt, so a reader of the
// verdicts should know there were some. None, nothing.
func directiveNote(snapshot json.RawMessage) string {
	r, err := rubric.Parse(snapshot)
	if err != nil || len(r.Directives) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d directive(s))", len(r.Directives))
}
