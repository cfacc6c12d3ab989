#!/usr/bin/env bash
# bench-action-install.sh: time the GitHub Action's install as a runner
# runs it — the "Key tribunal's tool cache" step (ci/install.sh
# --cache-key) and the install step (ci/github/review.sh install) — with
# GITHUB_ACTION_PATH at this checkout, a fresh RUNNER_TEMP and
# GITHUB_PATH/GITHUB_ENV/GITHUB_OUTPUT files per job, and one
# RUNNER_TOOL_CACHE for all jobs: once cold (empty tool cache: builds
# tribunal-session, npm-installs the pinned Claude Code from the
# registry), then warm (what a self-hosted runner's second job, or a
# GitHub-hosted job after actions/cache restored the entries, pays).
#
#   target: warm <= 10 s
#
# Environment:
#   RUNS           warm jobs (default 5; the median is printed)
#   BENCH_GOCACHE  fresh (default: an empty Go build cache, as on a new
#                  runner) or host (the host's, for a quick run)
#   BENCH_DIR      where the runner's directories go (default: a temp dir)
#   BENCH_STRICT   1: exit 1 when the target is missed (default 0)
#
# Needs go, npm, node and the npm registry. Exit status: 0 on a completed
# run (unless BENCH_STRICT=1 and the target was missed), 1 when a job
# fails, 2 on setup errors.
set -euo pipefail
export LC_ALL=C # EPOCHREALTIME and awk must use '.' as the decimal point

RUNS=${RUNS:-5}
BENCH_GOCACHE=${BENCH_GOCACHE:-fresh}
BENCH_STRICT=${BENCH_STRICT:-0}

die() {
	echo "bench-action-install: $*" >&2
	exit 2
}
case "${1:-}" in
-h | --help)
	sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 0
	;;
"") ;;
*) die "unexpected argument '$1' (see --help)" ;;
esac
[[ $RUNS =~ ^[0-9]+$ && $RUNS -gt 0 ]] || die "RUNS must be a positive integer, got '$RUNS'"
[[ -n ${EPOCHREALTIME:-} ]] || die "bash >= 5 is required (EPOCHREALTIME)"
for tool in go npm node; do command -v "$tool" >/dev/null || die "$tool is not on PATH"; done

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${BENCH_DIR:-}
if [[ -z $work ]]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/tribunal-bench-action.XXXXXX")
	trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fi
mkdir -p "$work/tool-cache"
case $BENCH_GOCACHE in
fresh) export GOCACHE=$work/gocache ;;
host) ;;
*) die "BENCH_GOCACHE must be fresh or host, got '$BENCH_GOCACHE'" ;;
esac
unset TRIBUNAL_TOOL_CACHE TRIBUNAL_CLAUDE_BIN

# job N: one job's install steps; prints its wall time in ms.
job() {
	local dir=$work/job$1 t0 t1
	mkdir -p "$dir/temp"
	: >"$dir/path"
	: >"$dir/env"
	: >"$dir/output"
	t0=$EPOCHREALTIME
	(
		export RUNNER_TOOL_CACHE=$work/tool-cache RUNNER_TEMP=$dir/temp GITHUB_ACTION_PATH=$repo_root \
			GITHUB_PATH=$dir/path GITHUB_ENV=$dir/env GITHUB_OUTPUT=$dir/output GITHUB_ACTIONS=true CI=true
		"$GITHUB_ACTION_PATH/ci/install.sh" --cache-key >>"$GITHUB_OUTPUT"
		"$GITHUB_ACTION_PATH/ci/github/review.sh" install
	) 2>"$dir/log" || {
		cat "$dir/log" >&2
		echo "bench-action-install: job $1 failed" >&2
		exit 1
	}
	t1=$EPOCHREALTIME
	# The job's later steps find both on the PATH it set.
	PATH="$(cat "$dir/path"):$PATH" tribunal-session --version >/dev/null || exit 1
	PATH="$(cat "$dir/path"):$PATH" claude --version >/dev/null || exit 1
	echo $(((${t1/./} - ${t0/./}) / 1000))
}

echo "cold job (empty tool cache, Go build cache: $BENCH_GOCACHE)"
cold=$(job 0)
grep -q "installed in the tool cache" "$work/job0/log" || die "the cold job did not install into the tool cache"
: >"$work/warm"
for ((i = 1; i <= RUNS; i++)); do
	job "$i" >>"$work/warm"
	grep -q "installed in the tool cache" "$work/job$i/log" && die "warm job $i installed again:$(cat "$work/job$i/log")"
done
warm=$(sort -n "$work/warm" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
printf '%-58s %8.1f s\n' "action install, cold (empty tool cache)" "$(awk -v m="$cold" 'BEGIN {print m/1000}')"
printf '%-58s %8.2f s\n' "action install, warm (tool cache, median of $RUNS)" "$(awk -v m="$warm" 'BEGIN {print m/1000}')"
if awk -v m="$warm" 'BEGIN {exit !(m > 10000)}'; then
	echo "target missed: warm install over 10 s"
	[[ $BENCH_STRICT == 1 ]] && exit 1
fi
exit 0
