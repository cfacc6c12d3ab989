#!/usr/bin/env bash
# bench-candidates.sh: the cost and wall time of `run --candidates 3`
# against `--candidates 1` and a plain run, with the scripted fake actor and
# judges (cmd/tribunal-session TestCandidatesCostAndTime; the per-call costs
# and latencies are in cmd/tribunal-session/testdata/bench/candidates-cost.txtar).
#
# Environment: TRIBUNAL_BENCH_RUNS (3) runs each form; the median is shown.
#
# Measured 2026-12-06 on the shared 2-CPU build machine (3 runs each, the
# scripted latencies sum to 2.5 s per run): plain run $0.25, 7.4 s;
# --candidates 1 $0.25, 7.0 s; --candidates 3 $0.90 (3 × $0.25 + 6
# pairwise calls × $0.025), 12.4 s — 3.6 × the cost, 1.7 × the wall time,
# since the candidates run at once and so do the pairwise comparisons.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
TRIBUNAL_BENCH_CANDIDATES=1 go test -count=1 -run '^TestCandidatesCostAndTime$' -v ./cmd/tribunal-session |
	grep -E 'cost \$|FAIL|^ok ' || true
