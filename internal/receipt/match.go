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

// Match is a commit that carries a task's judged work, and by which rule.
type Match struct {
	Commit Commit
	Task   Task
	Rule   string
	// baseTree and tree are the task's judged trees.
	baseTree, tree string
}

// MatchTasks ties commits to recorded tasks (spec §11.3), trying for each
// commit, in order:
//
//  1. tree: the commit's tree is the tree the task produced (its Head's
//     tree) — the user committed exactly what tribunal applied, together
//     with any uncommitted work the task started from;
//  2. change: the commit has one parent and its own change has the same
//     patch id (`git patch-id --verbatim`) as the task's change from
//     Snapshot to Head — the commit is the judged change and nothing else,
//     on whatever parent (rebased, or applied beside other commits).
//
// When several tasks qualify the latest (tasks are given oldest first)
// wins. A commit no task qualifies for is left out. Warnings name tasks
// whose commits are no longer in the repository.
func MatchTasks(ctx context.Context, g Git, commits []Commit, tasks []Task) ([]Match, []string, error) {
	revs := make([]string, 0, 2*len(tasks))
	for _, t := range tasks {
		revs = append(revs, t.Snapshot, t.Head)
	}
	trees, err := g.Trees(ctx, revs)
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	byTree := map[string]int{}
	var live []int
	for i, t := range tasks {
		if trees[2*i] == "" || trees[2*i+1] == "" {
			warnings = append(warnings, fmt.Sprintf("task %s: its commits %s and %s are no longer in this repository (git gc removes them once the task's ref is gone): no receipt can follow it",
				t.TaskID, short(t.Snapshot), short(t.Head)))
			continue
		}
		byTree[trees[2*i+1]] = i
		live = append(live, i)
	}
	var out, rest []Match
	var restCommits []Commit
	for _, c := range commits {
		if i, ok := byTree[c.Tree]; ok {
			out = append(out, Match{Commit: c, Task: tasks[i], Rule: MatchTree, baseTree: trees[2*i], tree: trees[2*i+1]})
		} else if len(c.Parents) == 1 {
			restCommits = append(restCommits, c)
		}
	}
	if len(restCommits) == 0 || len(live) == 0 {
		return out, warnings, nil
	}
	byPatch := map[string]int{}
	for _, i := range live {
		id, err := g.PatchID(ctx, trees[2*i], trees[2*i+1])
		if err != nil {
			return nil, nil, fmt.Errorf("task %s: %w", tasks[i].TaskID, err)
		}
		if id != "" {
			byPatch[id] = i
		}
	}
	ids, err := g.PatchIDs(ctx, restCommits)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range restCommits {
		if i, ok := byPatch[ids[c.ID]]; ok && ids[c.ID] != "" {
			rest = append(rest, Match{Commit: c, Task: tasks[i], Rule: MatchChange, baseTree: trees[2*i], tree: trees[2*i+1]})
		}
	}
	return append(out, rest...), warnings, nil
}

// Receipts turns matches into the receipts to sign.
func Receipts(ctx context.Context, g Git, ms []Match) ([]Receipt, error) {
	out := make([]Receipt, 0, len(ms))
	digests := map[string]string{}
	for _, m := range ms {
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
			Judged: Judged{Base: m.Task.Snapshot, Head: m.Task.Head, BaseTree: m.baseTree, Tree: m.tree, DiffSHA256: d, Match: m.Rule}})
	}
	return out, nil
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
