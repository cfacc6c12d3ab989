package receipt

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// rangeSize is the range scripts/bench-receipts.sh reports figures for.
const rangeSize = 1000

// bigRepo is a repository of n+1 commits, each adding its own file,
// built in one git fast-import, and the range of its last n commits.
func bigRepo(b *testing.B, n int) (Git, []Commit) {
	b.Helper()
	tg := testkit.NewGit(b)
	r := tg.Init(b.TempDir())
	var s strings.Builder
	for i := 0; i <= n; i++ {
		content := fmt.Sprintf("line %d\n", i)
		fmt.Fprintf(&s, "commit refs/heads/main\ncommitter T <t@example.com> %d +0000\ndata 2\nc\n", 1700000000+i)
		fmt.Fprintf(&s, "M 644 inline f%d.txt\ndata %d\n%s\n", i, len(content), content)
	}
	if _, err := tg.TryInput(r.Dir, s.String(), "fast-import", "--quiet"); err != nil {
		b.Fatal(err)
	}
	g := Git{Path: "git", Env: r.Env, Dir: r.Dir}
	list, err := g.Commits(context.Background(), fmt.Sprintf("main~%d..main", n))
	if err != nil || len(list) != n {
		b.Fatalf("%d commits: %v", len(list), err)
	}
	return g, list
}

// BenchmarkReceiptsRange writes then verifies a receipt on every commit of
// a rangeSize-commit range and reports receipts written and verified per second.
func BenchmarkReceiptsRange(b *testing.B) {
	ctx := context.Background()
	g, commits := bigRepo(b, rangeSize)
	keys := b.TempDir()
	rs := make([]Receipt, len(commits))
	parents := make([]string, len(commits))
	for i, c := range commits {
		parents[i] = c.Parents[0]
	}
	parentTrees, err := g.Trees(ctx, parents)
	if err != nil {
		b.Fatal(err)
	}
	for i, c := range commits {
		rs[i] = Receipt{Kind: KindAdvisory, Commit: c.ID, Tree: c.Tree, Verdict: verdict(),
			Judged: Judged{Base: parents[i], BaseTree: parentTrees[i], Tree: c.Tree, DiffSHA256: strings.Repeat("0", 64), Match: MatchReview}}
	}
	var writeTime, verifyTime time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := Write(ctx, g, Options{Ref: DefaultRef, KeyDir: keys, Now: t0}, rs); err != nil {
			b.Fatal(err)
		}
		writeTime += time.Since(start)
		key, err := ledger.LoadOrCreateKey(keys)
		if err != nil {
			b.Fatal(err)
		}
		signers := allow(b, "me", key)
		start = time.Now()
		res, err := VerifyRange(ctx, g, DefaultRef, fmt.Sprintf("main~%d..main", len(commits)), signers)
		verifyTime += time.Since(start)
		if err != nil || Worst(res) != Valid || len(res) != len(commits) {
			b.Fatalf("verify: %v, %d results, worst %v", err, len(res), Worst(res))
		}
	}
	n := float64(b.N * len(commits))
	b.ReportMetric(n/writeTime.Seconds(), "written/s")
	b.ReportMetric(n/verifyTime.Seconds(), "verified/s")
}
