package tune

import (
	"context"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/judging/calibrate"
)

// JuryScorer judges a case with a surface through the product's jury
// (judging.Load with the surface as its rubric, then calibrate.JudgeCase):
// a candidate is judged by the same panel, prompts and gate as the
// current surface, only the rubric differs.
type JuryScorer struct {
	Env env.Env
	// WorktreeRoot is the repository whose configuration layers apply.
	WorktreeRoot string
	// TempDir holds the cases' working directories.
	TempDir string

	mu     sync.Mutex
	juries map[string]*judging.Jury
}

// Check loads a jury with the surface: a rubric that breaks the schema,
// or a quorum its panel cannot reach, is refused here.
func (s *JuryScorer) Check(sf Surface) error {
	if err := CheckRubric(sf); err != nil {
		return err
	}
	_, err := s.jury(sf)
	return err
}

// Score judges one case; a surface that cannot be loaded is a failed cell.
func (s *JuryScorer) Score(ctx context.Context, sf Surface, c calibrate.Case) Cell {
	j, err := s.jury(sf)
	if err != nil {
		return Cell{Decision: "failed", Error: err.Error()}
	}
	out := calibrate.JudgeCase(ctx, j, s.Env.Git, s.TempDir, c)
	cell := Cell{Decision: out.Decision, Error: out.Error}
	if out.CostUSD != nil {
		cell.CostUSD = *out.CostUSD
	}
	return cell
}

func (s *JuryScorer) jury(sf Surface) (*judging.Jury, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := string(sf.Raw)
	if j, ok := s.juries[key]; ok {
		return j, nil
	}
	j, err := judging.Load(judging.Options{WorktreeRoot: s.WorktreeRoot, Rubric: sf.Raw}, s.Env)
	if err != nil {
		return nil, err
	}
	if s.juries == nil {
		s.juries = map[string]*judging.Jury{}
	}
	s.juries[key] = j
	return j, nil
}
