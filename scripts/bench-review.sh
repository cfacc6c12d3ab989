#!/usr/bin/env bash
# bench-review.sh: what `tribunal-session review` costs beyond its model
# calls on a 50,000-file repository, against `git diff --stat` of the same
# range (the least any review of that range must read).
#
#   diffstat   git diff --stat main...feature                 (the yardstick)
#   review     review --base main --head feature, judged       (a fake claude answers at once:
#              with the head checked out (the CI case)          3 model processes, no model time)
#   reused     the same review again: verdict from the cache   (no model call at all)
#
# Each is timed interleaved with the yardstick (A B, then B A, …) so that
# drift hits both sides alike, and the ratio is the median of the pair-by-
# pair ratios. Target: a reused verdict within 2.5x (issue 35). A judged
# review starts three model processes and writes a signed record, so it
# is timed to catch a regression, against no ratio. The load average is
# printed before and after: a loaded machine slows the Go binary more
# than git. Not timed
# but printed once: a review whose head is not checked out, which makes a
# worktree of all FILES files.
#
# Environment:
#   FILES   files in the repository (default 50000)
#   CHANGED files the branch changes (default 20)
#   RUNS    runs per comparison (default 20)
#
# Exit status: 0 on a completed run, 2 on setup errors.
set -euo pipefail
export LC_ALL=C

FILES=${FILES:-50000}
CHANGED=${CHANGED:-20}
RUNS=${RUNS:-20}

die() {
	echo "bench-review: $*" >&2
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
[[ -n ${EPOCHREALTIME:-} ]] || die "bash >= 5 is needed (EPOCHREALTIME)"

repo_root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-review.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "building ./cmd/tribunal-session (CGO_ENABLED=0, as make build does)"
(cd "$repo_root" && CGO_ENABLED=0 go build -trimpath -o "$work/tribunal-session" ./cmd/tribunal-session) || die "build failed"
ts=$work/tribunal-session

unset TRIBUNAL_NESTED CLAUDE_PLUGIN_ROOT CLAUDE_PROJECT_DIR GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE ONLOOKER_EVENTS_LOG CI
mkdir -p "$work/home" "$work/onlooker" "$work/bin"
export HOME=$work/home ONLOOKER_DIR=$work/onlooker

# A claude that answers at once: the meta-judge's review for the
# meta-judge (its agent prompt's title), a passing verdict for a judge.
cat >"$work/bin/claude" <<'SH'
#!/bin/sh
cat >/dev/null
case "$*" in
*"# Tribunal Meta-Judge"*) out='{"verdict_quality":"sound","bias_detected":false}' ;;
*) out='{"score":0.9,"passed":true,"criterion_scores":{},"confidence":0.9,"feedback_summary":"ok"}' ;;
esac
printf '{"type":"result","subtype":"success","is_error":false,"result":"","structured_output":%s,"total_cost_usd":0.001,"usage":{"input_tokens":100,"output_tokens":20}}\n' "$out"
SH
chmod +x "$work/bin/claude"
export TRIBUNAL_CLAUDE_BIN=$work/bin/claude

echo "making a repository of $FILES files in $work/repo"
repo=$work/repo
git init -q -b main "$repo"
(cd "$repo" && awk -v n="$FILES" 'BEGIN {
	for (i = 0; i < n; i++) {
		d = sprintf("pkg%03d", int(i / 100))
		if (i % 100 == 0) system("mkdir -p " d)
		f = sprintf("%s/file%05d.go", d, i)
		printf "package %s\n\n// F%d is file %d.\nfunc F%d() int { return %d }\n", d, i, i, i, i > f
		close(f)
	}
}')
g() { git -C "$repo" -c user.name=bench -c user.email=bench@tribunal.invalid "$@"; }
g add -A
g commit -q -m "$FILES files"
g checkout -q -b feature
for i in $(seq 0 $((CHANGED - 1))); do
	f=$(printf 'pkg%03d/file%05d.go' $((i * 7 % (FILES / 100))) $((i * 7 % (FILES / 100) * 100)))
	printf '\n// G%d is new.\nfunc G%d() int { return F%d() + 1 }\n' "$i" "$i" "$i" >>"$repo/$f"
done
g commit -q -am "change $CHANGED files"
g checkout -q main
printf 'main moves on\n' >"$repo/MAIN"
g add MAIN
g commit -q -m "main moves on"
g checkout -q feature
cd "$repo"

"$ts" review --base main --head feature --no-cache >/dev/null 2>"$work/first.err" || die "the review failed: $(cat "$work/first.err")"
grep -q 'accepted' <("$ts" review --base main --head feature --json 2>/dev/null) || die "the cached review did not read back"

# pair RUNS LABEL TARGET -- A... -- B...: A and B alternately (A B, then
# B A), each run's wall time; prints both medians and the median of the
# pair-by-pair ratios A/B.
pair() {
	local runs=$1 label=$2 target=$3 i t0 t1 ta tb
	shift 4
	local -a a=() b=()
	while [[ $1 != -- ]]; do
		a+=("$1")
		shift
	done
	shift
	b=("$@")
	"${a[@]}" >/dev/null 2>&1 || true
	"${b[@]}" >/dev/null 2>&1 || true
	: >"$work/pairs"
	for ((i = 0; i < runs; i++)); do
		if ((i % 2 == 0)); then
			t0=$EPOCHREALTIME; "${a[@]}" >/dev/null 2>&1 || true; t1=$EPOCHREALTIME; ta=$((${t1/./} - ${t0/./}))
			t0=$EPOCHREALTIME; "${b[@]}" >/dev/null 2>&1 || true; t1=$EPOCHREALTIME; tb=$((${t1/./} - ${t0/./}))
		else
			t0=$EPOCHREALTIME; "${b[@]}" >/dev/null 2>&1 || true; t1=$EPOCHREALTIME; tb=$((${t1/./} - ${t0/./}))
			t0=$EPOCHREALTIME; "${a[@]}" >/dev/null 2>&1 || true; t1=$EPOCHREALTIME; ta=$((${t1/./} - ${t0/./}))
		fi
		echo "$ta $tb" >>"$work/pairs"
	done
	awk -v label="$label" -v target="$target" '
		function median(v, n,  i, j, t) {
			for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
			return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		}
		{ n++; a[n] = $1; b[n] = $2; r[n] = ($2 > 0) ? $1 / $2 : 0 }
		END {
			ma = median(a, n); mb = median(b, n); mr = median(r, n)
			printf "%-44s %8.1f ms   git diff --stat %8.1f ms   ratio %.2f (median of %d pairs)", label, ma / 1000, mb / 1000, mr, n
			if (target == "-") printf "\n"
			else printf ", target <= %.1f: %s\n", target, (mr <= target) ? "PASS" : "MISS"
		}' "$work/pairs"
}

loadavg() { [[ -r /proc/loadavg ]] && echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"; }
echo
loadavg || true
yardstick=(git diff --stat main...feature)
pair "$RUNS" "review, judged (fake instant model)" - -- "$ts" review --base main --head feature --no-cache -- "${yardstick[@]}"
pair "$RUNS" "review, verdict reused from the cache" 2.5 -- "$ts" review --base main --head feature -- "${yardstick[@]}"
loadavg || true
echo
echo "== once: a review whose head is not checked out (a worktree of $FILES files)"
g checkout -q main
start=$(date +%s%N)
"$ts" review --base main~1 --head feature --no-cache >/dev/null 2>&1 || die "the worktree review failed"
end=$(date +%s%N)
echo "review with a worktree: $(((end - start) / 1000000)) ms"
