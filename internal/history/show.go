package history

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/surface"
	"github.com/tribunal-cc/tribunal/internal/verdict"
	"github.com/tribunal-cc/tribunal/internal/worktree"
)

// TaskView is everything recorded about one task.
type TaskView struct {
	TaskID   string    `json:"task_id"`
	Dir      string    `json:"artifact_dir"`
	Started  time.Time `json:"started"`
	Manifest *Manifest `json:"manifest,omitempty"`
	Params   *Params   `json:"params,omitempty"`
	Complete *Complete `json:"complete,omitempty"`
	// CompleteSource is "session-complete.json", "events log" or "".
	CompleteSource string          `json:"complete_source,omitempty"`
	Iterations     []IterationView `json:"iterations"`
	// Jurors is the panel's effective number of independent jurors over
	// the project's record (set by the caller: ProjectJurors).
	Jurors *Jurors `json:"effective_jurors,omitempty"`
	// Isolation is report.json's account of where the task ran and what
	// became of its change (nil for runs before task worktrees).
	Isolation *IsolationFile `json:"isolation,omitempty"`
	Problems  []Problem      `json:"-"`
}

// IterationView is one iteration's artifacts.
type IterationView struct {
	Number    int            `json:"iteration_number"` // 0-based
	ID        string         `json:"iteration_id"`
	Dir       string         `json:"dir"`
	ActorText string         `json:"actor_output,omitempty"`
	Judges    []JudgeView    `json:"judges"`
	Consensus *ConsensusFile `json:"consensus,omitempty"`
	Dissent   *DissentFile   `json:"dissent,omitempty"`
	Meta      *MetaFile      `json:"meta,omitempty"`
	Gate      *GateFile      `json:"gate,omitempty"`
	Floor     *FloorFacts    `json:"failed_criterion_facts,omitempty"`
	// Files are the files changed relative to the task's starting
	// snapshot after this iteration (isolated runs only); HasDiff says
	// the iteration's diffs are stored (show --diff prints them).
	Files   []worktree.FileChange `json:"files_changed,omitempty"`
	HasDiff bool                  `json:"has_diff,omitempty"`
	// Ended is set when the iteration stopped before its meta-judge and
	// gate (an abort or an interruption): neither file exists.
	Ended   bool            `json:"ended_before_gate,omitempty"`
	Raw     []rawVerdict    `json:"-"`
	Seats   []Seat          `json:"-"`
	MetaRaw json.RawMessage `json:"-"`
	// juryRead is set when jury.json was read; without it the panel is
	// whatever verdict files exist.
	juryRead bool
}

// Seat is one entry of jury.json.
type Seat struct {
	JudgeID   string `json:"judge_id"`
	JudgeType string `json:"judge_type"`
	Model     string `json:"model"`
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
}

// ConsensusFile is consensus.json (the consensus.reached payload).
type ConsensusFile struct {
	AggregatedScore float64 `json:"aggregated_score"`
	Passed          bool    `json:"passed"`
	Method          string  `json:"aggregation_method"`
}

// DissentFile is dissent.json (the dissent.recorded payload).
type DissentFile struct {
	DisagreementScore float64 `json:"disagreement_score"`
}

// MetaFile is meta.json (the meta.complete payload plus the Go fields).
type MetaFile struct {
	VerdictQuality string   `json:"verdict_quality"`
	BiasDetected   bool     `json:"bias_detected"`
	BiasTypes      []string `json:"bias_types,omitempty"`
	Override       string   `json:"override_recommendation,omitempty"`
	Confidence     *float64 `json:"confidence,omitempty"`
	Model          string   `json:"meta_model_id,omitempty"`
	Failed         bool     `json:"failed,omitempty"`
	Error          string   `json:"error,omitempty"`
	Probes         []string `json:"bias_probes,omitempty"`
}

// GateFile is gate.json: the gate event payload plus passed, and
// tribunal's additional checks (docs/adr/007): which check blocked after
// the core gate passed, the trust result, findings and command
// judges.
type GateFile struct {
	Passed          bool          `json:"passed"`
	Reason          string        `json:"reason,omitempty"`
	FailedCriterion string        `json:"failed_criterion,omitempty"`
	FinalScore      *float64      `json:"final_score,omitempty"`
	WillRetry       *bool         `json:"will_retry,omitempty"`
	BlockedBy       string        `json:"blocked_by,omitempty"`
	Trust           *TrustFile    `json:"trust,omitempty"`
	WorstSeverity   string        `json:"worst_severity,omitempty"`
	Findings        []FindingFile `json:"findings,omitempty"`
	Commands        []CommandFile `json:"command_judges,omitempty"`
}

// TrustFile is the trust gate's result as gate.json records it.
type TrustFile struct {
	Trustworthy   bool     `json:"trustworthy"`
	Reasons       []string `json:"reasons,omitempty"`
	Notes         []string `json:"notes,omitempty"`
	Alpha         float64  `json:"alpha"`
	AlphaMeasured bool     `json:"alpha_measured"`
	// Spread and Survivors are per rated item (criterion), as the trust
	// gate measured them over the seats' reps.
	Spread    map[string]float64 `json:"spread,omitempty"`
	Survivors map[string]int     `json:"survivors,omitempty"`
}

// IsolationFile is report.json's "isolation": where the actor worked and
// whether its change reached the user's working tree.
type IsolationFile struct {
	Mode      string   `json:"mode"`
	Branch    string   `json:"branch,omitempty"`
	Snapshot  string   `json:"snapshot,omitempty"`
	Head      string   `json:"head,omitempty"`
	State     string   `json:"state"`
	Conflicts []string `json:"conflicts,omitempty"`
	Error     string   `json:"error,omitempty"`
}

// FindingFile is one judge finding on the severity ladder.
type FindingFile struct {
	Severity string `json:"severity"`
	Message  string `json:"message"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	// Unverified: the cited file or line did not exist in the judged tree.
	Unverified bool `json:"unverified,omitempty"`
}

// CommandFile is one command judge's outcome.
type CommandFile struct {
	Name     string `json:"name"`
	Required bool   `json:"required"`
	Passed   bool   `json:"passed"`
	Failed   bool   `json:"failed,omitempty"`
	Error    string `json:"error,omitempty"`
	Feedback string `json:"feedback,omitempty"`
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

// ShowTask reads everything recorded about a task. logPath is the events
// log, consulted only when session-complete.json is missing.
func ShowTask(projectDir, logPath, taskID string) *TaskView {
	dir := filepath.Join(projectDir, taskID)
	v := &TaskView{TaskID: taskID, Dir: dir, Started: ulidTime(taskID)}
	m, c, problems := loadTask(projectDir, taskID)
	v.Problems = append(v.Problems, problems...)
	v.Manifest, v.Complete = m, c
	if c != nil {
		v.CompleteSource = "session-complete.json"
	} else {
		evs, err := scanEvents(logPath, []string{taskID})
		if err != nil {
			v.Problems = append(v.Problems, asProblem(err))
		}
		if c, ok := completeFromEvents(evs[taskID]); ok {
			v.Complete, v.CompleteSource = c, "events log"
		}
	}
	if p, ok := m.params(); ok {
		v.Params = &p
	}
	var rep struct {
		Isolation *IsolationFile `json:"isolation"`
	}
	if err := readJSON(filepath.Join(dir, "report.json"), &rep); err == nil {
		v.Isolation = rep.Isolation
	}
	var rub *rubric.Rubric
	if m != nil && len(m.Rubric) > 0 && string(m.Rubric) != "null" {
		if r, err := rubric.Parse(m.Rubric); err == nil {
			rub = &r
		}
	}
	dirs, err := iterationDirs(dir)
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

// maxActorText bounds the actor output kept in a view; actor.md on disk is
// the long form.
const maxActorText = 4000

// readIteration reads one iteration directory. Every file is optional in
// the sense that its absence or damage is a Problem and the rest is still
// read; files an interrupted iteration never reached (gate.json after an
// abort, dissent.json when no dissent was recorded) are not problems.
func readIteration(dir string, n int, rub *rubric.Rubric) (IterationView, []Problem) {
	it := IterationView{Number: n, ID: strings.TrimPrefix(filepath.Base(dir), "iteration-"), Dir: dir}
	var problems []Problem
	note := func(err error, optional bool) {
		if p := asProblem(err); !(optional && errors.Is(p.Err, ErrMissing)) {
			problems = append(problems, p)
		}
	}
	if data, err := store.ReadRegular(filepath.Join(dir, "actor.md"), maxArtifact); err == nil {
		it.ActorText = truncateUTF8(strings.TrimRight(string(data), "\n"), maxActorText)
	}
	var files []worktree.FileChange
	if err := readJSON(filepath.Join(dir, store.FilesChangedFile), &files); err == nil {
		it.Files = files
	} else {
		note(err, true)
	}
	if _, err := os.Stat(filepath.Join(dir, store.DiffSnapshotFile)); err == nil {
		it.HasDiff = true
	}
	// gate.json and meta.json may be absent only when the iteration ended
	// early, which shows as both being absent.
	var gate GateFile
	gateErr := readJSON(filepath.Join(dir, "gate.json"), &gate)
	if gateErr == nil {
		it.Gate = &gate
	}
	metaRaw, metaErr := readRaw(filepath.Join(dir, "meta.json"))
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
		var mf MetaFile
		if err := json.Unmarshal(metaRaw, &mf); err != nil {
			problems = append(problems, Problem{Path: filepath.Join(dir, "meta.json"), Err: err})
		} else {
			it.Meta = &mf
		}
	}
	var cons ConsensusFile
	if err := readJSON(filepath.Join(dir, "consensus.json"), &cons); err != nil {
		note(err, ended)
	} else {
		it.Consensus = &cons
	}
	var dis DissentFile
	if err := readJSON(filepath.Join(dir, "dissent.json"), &dis); err != nil {
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
func readPanel(dir string) ([]Seat, []rawVerdict, bool, []Problem) {
	var problems []Problem
	var seats []Seat
	juryPath := filepath.Join(dir, "jury.json")
	juryRead := true
	if err := readJSON(juryPath, &seats); err != nil {
		juryRead = false
		problems = append(problems, asProblem(err))
		seats = nil
		entries, _ := os.ReadDir(filepath.Join(dir, "verdicts"))
		for _, e := range entries {
			// Seat verdicts are named by their ULID judge id; command
			// judges' files (command-<name>.json) and rep directories
			// are not seats.
			if id, ok := strings.CutSuffix(e.Name(), ".json"); ok && !e.IsDir() && surface.ValidTaskID(id) {
				seats = append(seats, Seat{JudgeID: id})
			}
		}
	}
	vs := make([]rawVerdict, len(seats))
	for i, s := range seats {
		p := filepath.Join(dir, "verdicts", s.JudgeID+".json")
		vs[i].path = p
		if s.JudgeID == "" || strings.ContainsAny(s.JudgeID, `/\`) || s.JudgeID == "." || s.JudgeID == ".." {
			problems = append(problems, Problem{Path: juryPath, Err: errors.New("a seat has an unusable judge_id")})
			continue
		}
		raw, err := readRaw(p)
		if err != nil {
			problems = append(problems, asProblem(err))
			continue
		}
		vs[i].raw = raw
	}
	return seats, vs, juryRead, problems
}

// truncateUTF8 cuts s to at most n bytes plus a marker, never inside a
// character.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + " …"
}

func judgeView(s Seat, rv rawVerdict) JudgeView {
	j := JudgeView{JudgeID: s.JudgeID, Type: s.JudgeType, Model: s.Model}
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
	surface.Advisory
	// Surfaced is set when a session start has shown the verdict.
	Surfaced   *surface.Mark `json:"surfaced,omitempty"`
	DurationMS *int          `json:"duration_ms,omitempty"`
	TokenCount *int          `json:"token_count,omitempty"`
	Problems   []Problem     `json:"-"`
}

// ShowAdvisory reads one stop file, whether a session start has surfaced
// it, and from the events log what the file does not hold (the judge
// call's duration and tokens).
func ShowAdvisory(projectDir, logPath, stopPath string) (*AdvisoryView, error) {
	read := surface.ReadStopFile
	if surface.IsRecordPath(stopPath) {
		read = surface.ReadRecord
	}
	a, err := read(stopPath)
	if err != nil {
		return nil, &Problem{Path: stopPath, Err: unwrapPath(err)}
	}
	v := &AdvisoryView{Advisory: a, DurationMS: a.DurationMS}
	if m, ok := surface.ReadMark(projectDir, a); ok {
		v.Surfaced = &m
	}
	evs, err := scanEvents(logPath, []string{a.TaskID})
	if err != nil {
		v.Problems = append(v.Problems, asProblem(err))
	}
	for _, e := range evs[a.TaskID] {
		switch e.Type {
		case "tribunal.session.complete":
			var c Complete
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
		out = append(out, RecordedOutput{Name: "meta-judge", Path: filepath.Join(it.Dir, "meta.json"), Raw: it.MetaRaw})
	}
	return out
}
