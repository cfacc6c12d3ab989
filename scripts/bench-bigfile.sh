#!/usr/bin/env bash
# bench-bigfile.sh: what a very large file costs a review and a task
# (issue 30 item 8): wall time and peak memory (max RSS of the process
# and its children, GNU time's %M) of
#
#   base       review --base main, the head (checked out) adding a BIG_MB file
#   worktree   review --worktree with a BIG_MB untracked file
#   task       run (one iteration) with two BIG_MB untracked files, and
#              how much .git grew
#
# A fake claude answers at once, so the figures are tribunal's and git's
# alone. Target: either review under 2 s and 100 MiB.
#
# Environment:
#   BIG_MB                size of each large file in MiB (default 300)
#   MAX_FILE_MB           session.max_file_mb to set ("" leaves the default)
#   TRIBUNAL_SESSION_BIN  a built tribunal-session to measure (default:
#                         build this checkout)
#
# Exit status: 0 on a completed run, 2 on setup errors.
set -euo pipefail
export LC_ALL=C

BIG_MB=${BIG_MB:-300}
MAX_FILE_MB=${MAX_FILE_MB:-}

die() {
	echo "bench-bigfile: $*" >&2
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
[[ -x /usr/bin/time ]] || die "GNU time is needed at /usr/bin/time (Debian: apt-get install time)"

repo_root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-bigfile.XXXXXX")
trap 'rm -rf "$work"' EXIT

ts=${TRIBUNAL_SESSION_BIN:-}
if [[ -z $ts ]]; then
	echo "building ./cmd/tribunal-session (CGO_ENABLED=0, as make build does)"
	(cd "$repo_root" && CGO_ENABLED=0 go build -trimpath -o "$work/tribunal-session" ./cmd/tribunal-session) || die "build failed"
	ts=$work/tribunal-session
fi

unset TRIBUNAL_NESTED CLAUDE_PLUGIN_ROOT CLAUDE_PROJECT_DIR GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE ONLOOKER_EVENTS_LOG CI
mkdir -p "$work/home" "$work/onlooker" "$work/bin"
export HOME=$work/home ONLOOKER_DIR=$work/onlooker

# A claude that answers at once: a review for the meta-judge, a passing
# verdict for a judge, a line of text for the actor.
cat >"$work/bin/claude" <<'SH'
#!/bin/sh
cat >/dev/null
case "$*" in
*"# Tribunal Meta-Judge"*) out='{"verdict_quality":"sound","bias_detected":false}' ;;
*) out='{"score":0.9,"passed":true,"criterion_scores":{},"confidence":0.9,"feedback_summary":"ok"}' ;;
esac
printf '{"type":"result","subtype":"success","is_error":false,"result":"done","structured_output":%s,"total_cost_usd":0.001,"usage":{"input_tokens":100,"output_tokens":20}}\n' "$out"
SH
chmod +x "$work/bin/claude"
export TRIBUNAL_CLAUDE_BIN=$work/bin/claude

big() { yes 'a line of a very large generated file, repeated' | head -c $((BIG_MB << 20)) >"$1" || true; }

repo=$work/repo
git init -q -b main "$repo"
cd "$repo"
git config user.name bench && git config user.email bench@example.com
printf 'package p\n\nfunc A() int { return 1 }\n' >a.go
if [[ -n $MAX_FILE_MB ]]; then
	mkdir -p .claude
	printf '{"tribunal":{"session":{"max_file_mb":%s}}}\n' "$MAX_FILE_MB" >.claude/settings.json
fi
git add -A && git commit -q -m initial
echo "making a branch that adds a $BIG_MB MiB file"
git checkout -q -b feature
big big.txt
printf 'package p\n\nfunc B() int { return 2 }\n' >b.go
git add -A && git commit -q -m 'add big.txt'

# measure LABEL CMD...: runs CMD under GNU time, prints its figures.
measure() {
	local label=$1
	shift
	/usr/bin/time -o "$work/time" -f '%e %M' "$@" >"$work/out" 2>"$work/err" || true
	read -r secs kib <"$work/time" || die "$label: no timing (see $work/err)"
	awk -v l="$label" -v s="$secs" -v k="$kib" 'BEGIN { printf "%-44s %6.2f s  %7.1f MiB max RSS\n", l, s, k / 1024 }'
	grep -h 'not shown to the judges\|left out of the task\|nothing to review' "$work/err" | sed 's/^/    /' | head -3 || true
}

measure "review --base main ($BIG_MB MiB file added)" "$ts" review --base main --no-cache
git checkout -q main
big untracked.txt
printf 'package p\n\nfunc C() int { return 3 }\n' >c.go
measure "review --worktree ($BIG_MB MiB untracked)" "$ts" review --worktree --no-cache
big untracked2.txt
before=$(du -sk .git | cut -f1)
measure "task start+run (2 x $BIG_MB MiB untracked)" "$ts" run --max-iterations 1 'add a comment to a.go'
after=$(du -sk .git | cut -f1)
awk -v a="$after" -v b="$before" 'BEGIN { printf "%-44s %6.1f MiB\n", ".git growth during the task", (a - b) / 1024 }'
