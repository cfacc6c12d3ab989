package gitstate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// Large-repository shape, matching scripts/bench-stop-gate.sh.
const (
	largeTracked = 50_000
	largeIgnored = 100_000
)

// BenchmarkStatusLargeRepo compares Status with a plain `git status
// --porcelain` on a clean repository of 50,000 tracked files and 100,000
// ignored files under node_modules trees. Generating the repository takes a
// while, so it only runs with TRIBUNAL_BENCH_LARGE=1.
func BenchmarkStatusLargeRepo(b *testing.B) {
	if os.Getenv("TRIBUNAL_BENCH_LARGE") != "1" {
		b.Skip("set TRIBUNAL_BENCH_LARGE=1 to generate the large repository and run this benchmark")
	}
	g := newTGit(b)
	start := time.Now()
	dir := generateLargeRepo(b, g)
	b.Logf("generated %d tracked + %d ignored files in %v", largeTracked, largeIgnored, time.Since(start).Round(time.Millisecond))

	runner := g.runner()
	ctx := context.Background()
	status := func() {
		st, err := Status(ctx, runner, dir)
		if err != nil {
			b.Fatal(err)
		}
		if st.Dirty() {
			b.Fatalf("generated repository is dirty: %+v", st)
		}
	}
	porcelain := func() {
		cmd := exec.Command(g.Bin, "status", "--porcelain")
		cmd.Dir, cmd.Env = dir, g.Env
		out, err := cmd.Output()
		if err != nil {
			b.Fatal(err)
		}
		if len(out) != 0 {
			b.Fatalf("generated repository is dirty: %q", out)
		}
	}
	// Interleaved in one loop, order alternating, because two sequential
	// sub-benchmarks on a shared machine differed by 15% in whichever ran
	// first. ns/op is the pair; the metrics split it.
	var inStatus, inPorcelain time.Duration
	n := 0
	for b.Loop() {
		first, second := status, porcelain
		if n%2 == 1 {
			first, second = porcelain, status
		}
		t0 := time.Now()
		first()
		t1 := time.Now()
		second()
		t2 := time.Now()
		if n%2 == 0 {
			inStatus, inPorcelain = inStatus+t1.Sub(t0), inPorcelain+t2.Sub(t1)
		} else {
			inPorcelain, inStatus = inPorcelain+t1.Sub(t0), inStatus+t2.Sub(t1)
		}
		n++
	}
	b.ReportMetric(float64(inStatus.Nanoseconds())/float64(n), "Status-ns/op")
	b.ReportMetric(float64(inPorcelain.Nanoseconds())/float64(n), "git-status-porcelain-ns/op")
	b.ReportMetric(float64(inStatus)/float64(inPorcelain), "Status/porcelain")
}

// generateLargeRepo writes the files with Go, creating directories first
// and writing from a few goroutines (file creation is system-call bound),
// adds them with one `git add -A` and commits once. The ignored trees are
// never added because .gitignore lists node_modules/.
func generateLargeRepo(b *testing.B, g *tgit) string {
	b.Helper()
	dir := g.emptyRepo()
	testkit.WriteFile(b, filepath.Join(dir, ".gitignore"), "node_modules/\n")

	type file struct{ rel, content string }
	files := make([]file, 0, largeTracked+largeIgnored)
	// 50 top-level dirs × 10 subdirs × 100 files.
	for i := range largeTracked {
		rel := fmt.Sprintf("src%d/mod%d/f%d.txt", i/1000, i/100%10, i%100)
		files = append(files, file{rel, "tracked file " + strconv.Itoa(i) + "\n"})
	}
	// Four packages with their own node_modules, 25,000 files each in 250 dirs.
	perTree := (largeIgnored + 3) / 4
	for i := range largeIgnored {
		tree, n := i/perTree, i%perTree
		rel := fmt.Sprintf("pkg%d/node_modules/dep%d/lib/m%d.js", tree, n/100, n%100)
		files = append(files, file{rel, "module.exports = " + strconv.Itoa(n) + "\n"})
	}
	made := map[string]bool{}
	for _, f := range files {
		if d := path.Dir(f.rel); !made[d] {
			if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
				b.Fatal(err)
			}
			made[d] = true
		}
	}
	const workers = 4
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(files); i += workers {
				p := filepath.Join(dir, filepath.FromSlash(files[i].rel))
				if err := os.WriteFile(p, []byte(files[i].content), 0o644); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}

	g.Run(dir, "add", "-A")
	g.Run(dir, "commit", "-q", "-m", "large")
	// Settle the index as any real repository is: entries written in the
	// index's own second are racily clean and re-hashed by every status until
	// a status allowed to write the index (not ours) refreshes them.
	time.Sleep(time.Second)
	g.Run(dir, "status", "--porcelain")
	// Flush the freshly written files to disk first, or the background
	// writeback slows whichever sub-benchmark happens to run first.
	if sync, err := exec.LookPath("sync"); err == nil {
		_ = exec.Command(sync).Run()
	}
	return dir
}

// BenchmarkFingerprintDirty times what the Stop hook does on a dirty tree
// whose state it has already judged: Status, then Fingerprint, in a
// repository of 2,000 tracked files with 20 edited, 5 staged and 5
// untracked.
func BenchmarkFingerprintDirty(b *testing.B) {
	g := newTGit(b)
	dir := g.emptyRepo()
	for i := range 2000 {
		testkit.WriteFile(b, filepath.Join(dir, fmt.Sprintf("pkg%02d/file%04d.go", i%40, i)), strings.Repeat(fmt.Sprintf("line %d\n", i), 40))
	}
	g.commitAll(dir, "init")
	for i := range 20 {
		testkit.WriteFile(b, filepath.Join(dir, fmt.Sprintf("pkg%02d/file%04d.go", i%40, i)), "edited\n")
	}
	for i := 20; i < 25; i++ {
		testkit.WriteFile(b, filepath.Join(dir, fmt.Sprintf("pkg%02d/file%04d.go", i%40, i)), "staged\n")
		g.Run(dir, "add", fmt.Sprintf("pkg%02d/file%04d.go", i%40, i))
	}
	for i := range 5 {
		testkit.WriteFile(b, filepath.Join(dir, fmt.Sprintf("new%d.txt", i)), "new\n")
	}
	runner := g.runner()
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		st, err := Status(ctx, runner, dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Fingerprint(ctx, runner, dir, st); err != nil {
			b.Fatal(err)
		}
	}
}
