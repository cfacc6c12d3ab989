package receipt

import (
	"context"
	"fmt"
)

// Task is a recorded, accepted /tribunal task: its verdict and the change
// it judged, from Snapshot (the user's HEAD plus uncommitted work when
// the task started) to Head (its last iteration's commit).
type Task struct {
	Verdict
	Snapshot string
	Head     string
}

// Match is a commit that carries a task's judged tree. Refused, when set,
// says why it still gets no receipt.
type Match struct {
	Commit  Commit
	Task    Task
	Rule    string
	Refused string
	// base is the judged base commit; baseTree and tree are the task's
	// judged trees.
	base, baseTree, tree string
}

// MatchTasks ties commits to recorded tasks (spec §11.3): a commit
// matches a task when its tree is the tree the task produced (its Head's
// tree) — a receipt vouches only for a tree its judges saw. When several
// tasks qualify the latest (tasks are given oldest first) whose judged
// base can vouch for the commit wins. A commit no task qualifies for is
// left out. Warnings name tasks whose commits
// are no longer in the repository.
//
// A match is refused when the task's judged base cannot vouch for the
// commit (BaseCheck, from the commit's first parent): a task that started
// from uncommitted work took that work as its base, which no judge
// diffed, so committing it with the task's change would pass it unseen.
// The judged base of a task that started from a clean tree is its
// snapshot's parent (the user's HEAD), which has the same tree.
func MatchTasks(ctx context.Context, g Git, commits []Commit, tasks []Task) ([]Match, []string, error) {
	var warnings []string
	byTree := map[string][]Match{}
	for _, t := range tasks {
		m, ok, err := g.judged(ctx, t)
		if err != nil {
			return nil, nil, fmt.Errorf("task %s: %w", t.TaskID, err)
		}
		if !ok {
			warnings = append(warnings, fmt.Sprintf("task %s: its commits %s and %s are no longer in this repository (git gc removes them once the task's ref is gone): no receipt can follow it",
				t.TaskID, short(t.Snapshot), short(t.Head)))
			continue
		}
		byTree[m.tree] = append(byTree[m.tree], m)
	}
	var out []Match
	for _, c := range commits {
		if m, ok, err := g.best(ctx, c, byTree[c.Tree]); err != nil {
			return nil, nil, err
		} else if ok {
			out = append(out, m)
		}
	}
	return out, warnings, nil
}

// best is the latest of the tasks that produced c's tree whose judged
// base can vouch for c, else the latest of them, refused.
func (g Git) best(ctx context.Context, c Commit, ms []Match) (Match, bool, error) {
	bound := ""
	if len(c.Parents) > 0 {
		bound = c.Parents[0]
	}
	var refused *Match
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		m.Commit = c
		why, err := g.baseProblem(ctx, m.base, m.baseTree, c.Tree, bound, nil)
		if err != nil {
			return Match{}, false, fmt.Errorf("task %s: %w", m.Task.TaskID, err)
		}
		if why == "" {
			return m, true, nil
		}
		if refused == nil {
			m.Refused = why
			refused = &m
		}
	}
	if refused == nil {
		return Match{}, false, nil
	}
	return *refused, true, nil
}

// judged is what a task's judges saw: its judged base commit and trees
// (false when its commits are gone).
func (g Git) judged(ctx context.Context, t Task) (Match, bool, error) {
	trees, err := g.Trees(ctx, []string{t.Snapshot, t.Head, t.Snapshot + "^"})
	if err != nil {
		return Match{}, false, err
	}
	if trees[0] == "" || trees[1] == "" {
		return Match{}, false, nil
	}
	m := Match{Task: t, Rule: MatchTree, base: t.Snapshot, baseTree: trees[0], tree: trees[1]}
	if trees[2] == trees[0] {
		cs, err := g.Commits(ctx, t.Snapshot)
		if err != nil {
			return Match{}, false, err
		}
		if len(cs) == 1 && len(cs[0].Parents) == 1 {
			m.base = cs[0].Parents[0]
		}
	}
	return m, true, nil
}

// Receipts turns matches into the receipts to sign; refused matches have
// none.
func Receipts(ctx context.Context, g Git, ms []Match) ([]Receipt, error) {
	out := make([]Receipt, 0, len(ms))
	digests := map[string]string{}
	for _, m := range ms {
		if m.Refused != "" {
			continue
		}
		key := m.baseTree + " " + m.tree
		d, ok := digests[key]
		if !ok {
			var err error
			if d, err = g.DiffDigest(ctx, m.baseTree, m.tree); err != nil {
				return nil, err
			}
			digests[key] = d
		}
		out = append(out, Receipt{Kind: KindTask, Commit: m.Commit.ID, Tree: m.Commit.Tree, Verdict: m.Task.Verdict,
			Judged: Judged{Base: m.base, Head: m.Task.Head, BaseTree: m.baseTree, Tree: m.tree, DiffSHA256: d, Match: m.Rule}})
	}
	return out, nil
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
