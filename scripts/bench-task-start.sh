#!/usr/bin/env bash
# bench-task-start.sh: what a /tribunal task pays before its actor starts,
# on a repository of BENCH_TRACKED (50,000) small tracked files: git status,
# a bare `git worktree add` + `remove`, a fresh task worktree and a warm one
# from the pool (session.worktree_pool), interleaved in one run
# (internal/git/worktree TestTaskStartTimes).
#
#   targets: warm <= 3x git status; fresh <= 1.2x worktree add + remove
#
# Environment: BENCH_DIR (default /tmp/tribunal-bench) caches the
# repository; BENCH_TRACKED (50000); TRIBUNAL_BENCH_RUNS (7) runs each.
set -euo pipefail
BENCH_DIR=${BENCH_DIR:-/tmp/tribunal-bench}
BENCH_TRACKED=${BENCH_TRACKED:-50000}
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repo=$BENCH_DIR/tracked-$BENCH_TRACKED

if [[ ! -f $repo/.git/tribunal-bench-layout ]]; then
	echo "bench-task-start: generating $repo ($BENCH_TRACKED tracked files)"
	rm -rf "$repo.tmp"
	mkdir -p "$repo.tmp"
	git init -q -b main "$repo.tmp"
	(
		cd "$repo.tmp"
		awk -v n="$BENCH_TRACKED" 'BEGIN {
			for (i = 0; i < n; i += 100) print sprintf("src%d/mod%d", int(i / 1000), int(i / 100) % 10)
		}' | xargs mkdir -p
		awk -v n="$BENCH_TRACKED" 'BEGIN {
			for (i = 0; i < n; i++) {
				f = sprintf("src%d/mod%d/f%d.txt", int(i / 1000), int(i / 100) % 10, i % 100)
				print "tracked file " i > f; close(f)
			}
		}'
		git add -A
		git -c user.name=bench -c user.email=bench@tribunal.invalid commit -q -m bench
		# Settle the index (racily clean entries), as a real repository is.
		sleep 1
		git status --porcelain >/dev/null
	)
	echo 1 >"$repo.tmp/.git/tribunal-bench-layout"
	mv "$repo.tmp" "$repo"
fi
cd "$repo_root"
TRIBUNAL_BENCH_REPO=$repo go test -count=1 -timeout 60m -run '^TestTaskStartTimes$' -v ./internal/git/worktree |
	grep -E 'median|target|disk per|FAIL|ok ' || true
