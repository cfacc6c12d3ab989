#!/usr/bin/env bash
# bench-candidates.sh: the cost and wall time of `run --candidates 3`
# against `--candidates 1` and a plain run, with the scripted fake actor and
# judges (cmd/tribunal-session TestCandidatesCostAndTime; the per-call costs
# and latencies are in cmd/tribunal-session/testdata/bench/candidates-cost.txtar).
#
# Environment: TRIBUNAL_BENCH_RUNS (3) runs each form; the median is shown.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
TRIBUNAL_BENCH_CANDIDATES=1 go test -count=1 -run '^TestCandidatesCostAndTime$' -v ./cmd/tribunal-session |
	grep -E 'cost \$|FAIL|^ok ' || true
