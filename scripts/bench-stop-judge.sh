#!/usr/bin/env bash
# bench-stop-judge.sh: time what the zero-wait Stop hook and the
# UserPromptSubmit hook add to a turn, side by side in one run.
#
#   true        /bin/true                                   (process start)
#   gitstatus   git status --porcelain in the dirty repo     (the least a judged turn reads)
#   skip        stop-gate, enabled, state already judged     (status + fingerprint, no judge)
#   dispatch    stop-gate, enabled, a new state every run    (… + lock + job + detached judge)
#   prompt      prompt-submit, nothing pending               target: <= 3.0x true
#   promptshow  prompt-submit, a verdict pending (shown)
#
# The dispatch path is the cost of a judged turn in advisory mode: the hook
# returns once the judge is started. Target: dispatch median <= 50 ms, and
# dispatch - skip (what detaching adds) small. Before each dispatch run the
# untracked file changes (untimed), so every run is a new state; after it
# the detached judge (a fake claude that answers at once) is awaited
# (untimed), so judges never pile up.
#
# Environment:
#   RUNS          runs per command (default 40)
#   WARMUP        unmeasured runs per command first (default 3)
#   BENCH_STRICT  1: exit 1 when a target is missed (default 0: report only)
#
# Exit status: 0 on a completed run (unless BENCH_STRICT=1 and a target was
# missed), 1 when a hook misbehaves, 2 on setup errors.
set -euo pipefail
export LC_ALL=C

RUNS=${RUNS:-40}
WARMUP=${WARMUP:-3}
BENCH_STRICT=${BENCH_STRICT:-0}

die() {
	echo "bench-stop-judge: $*" >&2
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
command -v flock >/dev/null || die "flock (util-linux) is needed to await the detached judges"

repo_root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-stop-judge.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "building ./cmd/stop-gate and ./cmd/prompt-submit (CGO_ENABLED=0)"
(cd "$repo_root" && CGO_ENABLED=0 go build -o "$work/stop-gate" ./cmd/stop-gate &&
	CGO_ENABLED=0 go build -o "$work/prompt-submit" ./cmd/prompt-submit) || die "build failed"
sg=$work/stop-gate
ps=$work/prompt-submit

unset TRIBUNAL_NESTED CLAUDE_PLUGIN_ROOT CLAUDE_PROJECT_DIR GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE ONLOOKER_EVENTS_LOG
mkdir -p "$work/home" "$work/onlooker" "$work/bin"
export HOME=$work/home
export ONLOOKER_DIR=$work/onlooker

# A claude that answers a passing verdict at once.
cat >"$work/bin/claude" <<'EOF'
#!/bin/sh
cat >/dev/null
echo '{"type":"result","subtype":"success","is_error":false,"result":"","structured_output":{"score":0.9,"passed":true,"judge_type":"standard","feedback_summary":"ok"},"total_cost_usd":0.001,"usage":{"input_tokens":100,"output_tokens":20}}'
EOF
chmod +x "$work/bin/claude"
export TRIBUNAL_CLAUDE_BIN=$work/bin/claude

repo=$work/repo
git init -q -b main "$repo"
printf 'hello\n' >"$repo/README"
mkdir -p "$repo/.claude"
printf '{"tribunal":{"stop_hook":{"enabled":true}}}\n' >"$repo/.claude/settings.json"
git -C "$repo" add -A
git -C "$repo" -c user.name=bench -c user.email=bench@tribunal.invalid commit -q -m init
printf 'change 0\n' >"$repo/new.txt"

printf '{"session_id":"bench-session","transcript_path":"/nonexistent","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done."}\n' "$repo" >"$work/in-stop.json"
printf '{"session_id":"bench-session","transcript_path":"/nonexistent","cwd":"%s","hook_event_name":"UserPromptSubmit","prompt":"next"}\n' "$repo" >"$work/in-prompt.json"
printf '{"session_id":"bench-other","transcript_path":"/nonexistent","cwd":"%s","hook_event_name":"UserPromptSubmit","prompt":"next"}\n' "$repo" >"$work/in-none.json"

# await_judges: until no job file is left and every session lock is free.
await_judges() {
	local l
	for _ in $(seq 1 1000); do
		if ! compgen -G "$ONLOOKER_DIR/tribunal/*/judges/*.job" >/dev/null; then
			local busy=0
			for l in "$ONLOOKER_DIR"/tribunal/*/judges/*.lock; do
				[[ -e $l ]] || continue
				flock -n "$l" true || busy=1
			done
			((busy)) || return 0
		fi
		sleep 0.01
	done
	die "a detached judge did not finish"
}

# One judged state, so "skip" finds it judged, and the pending verdict
# that "promptshow" shows (restored before each of its runs).
(cd "$repo" && "$sg" <"$work/in-stop.json") || die "stop-gate failed"
await_judges
pending=$ONLOOKER_DIR/tribunal-pending/bench-session.json
[[ -f $pending ]] || die "no pending verdict after the first judged turn"
cp "$pending" "$work/pending.json"
out=$("$ps" <"$work/in-prompt.json")
[[ $out == *'"systemMessage"'* ]] || die "prompt-submit did not show the pending verdict: '${out:0:200}'"
stop_file=$(sed -n 's/.*"stop_file": *"\([^"]*\)".*/\1/p' "$work/pending.json")
project_dir=$(dirname "$stop_file")
surfaced=$project_dir/surfaced

seq_n=0
prepare() { # key: untimed set-up before one run
	case $1 in
	dispatch)
		seq_n=$((seq_n + 1))
		printf 'change %d\n' "$seq_n" >"$repo/new.txt"
		;;
	skip)
		# The state judged last: whatever dispatch left, judged already.
		;;
	promptshow)
		# Pending on the session's latest verdict (dispatch runs replace it).
		printf '{"project_dir":"%s","stop_file":"%s","task_id":"%s"}\n' "$project_dir" "$stop_file" \
			"$(sed -n 's/^ *"task_id": *"\([^"]*\)".*/\1/p' "$stop_file" | head -1)" >"$pending"
		rm -rf "$surfaced"
		;;
	esac
}
finish() { # key: untimed clean-up after one run
	case $1 in
	dispatch) await_judges ;;
	esac
}

keys=(true gitstatus skip dispatch prompt promptshow)
declare -A label=(
	[true]="/bin/true"
	[gitstatus]="git status --porcelain (dirty repo)"
	[skip]="stop-gate, state already judged"
	[dispatch]="stop-gate, new state, judge detached"
	[prompt]="prompt-submit, nothing pending"
	[promptshow]="prompt-submit, a verdict pending"
)
run_cmd() { # key
	case $1 in
	true) /bin/true ;;
	gitstatus) git status --porcelain >/dev/null ;;
	skip | dispatch) "$sg" <"$work/in-stop.json" >/dev/null 2>"$work/stderr" ;;
	prompt) "$ps" <"$work/in-none.json" >/dev/null 2>"$work/stderr" ;;
	promptshow) "$ps" <"$work/in-prompt.json" >"$work/out" 2>"$work/stderr" ;;
	esac
}
run_one() { # key record
	local k=$1 t0 t1
	prepare "$k"
	cd "$repo"
	t0=$EPOCHREALTIME
	run_cmd "$k" || { echo "bench-stop-judge: ${label[$k]} failed" >&2; exit 1; }
	t1=$EPOCHREALTIME
	cd /
	if [[ -s $work/stderr ]]; then
		echo "bench-stop-judge: ${label[$k]} wrote to stderr: $(head -c 300 "$work/stderr")" >&2
		exit 1
	fi
	if [[ $k == promptshow ]] && ! grep -q systemMessage "$work/out"; then
		echo "bench-stop-judge: ${label[$k]} showed nothing" >&2
		exit 1
	fi
	finish "$k"
	((${2:-1})) && echo $((${t1/./} - ${t0/./})) >>"$work/times.$k"
	return 0
}
: >"$work/stderr"
for ((i = 0; i < WARMUP; i++)); do
	for k in "${keys[@]}"; do run_one "$k" 0; done
done
for k in "${keys[@]}"; do : >"$work/times.$k"; done
echo "timing: $RUNS runs per command, warmup $WARMUP, rotating order"
n=${#keys[@]}
for ((i = 0; i < RUNS; i++)); do
	for ((j = 0; j < n; j++)); do
		run_one "${keys[(i + j) % n]}"
	done
done

stats() { # key -> "runs mean_ms median_ms min_ms max_ms"
	sort -n "$work/times.$1" | awk '
		{ v[NR] = $1; s += $1 }
		END {
			if (NR == 0) { print "0 0 0 0 0"; exit }
			med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%d %.3f %.3f %.3f %.3f\n", NR, s / NR / 1000, med / 1000, v[1] / 1000, v[NR] / 1000
		}'
}
declare -A mean median
echo
echo "git $(git --version | awk '{print $3}'), $(nproc 2>/dev/null || echo '?') CPUs"
printf '%-42s %6s %10s %10s %10s %10s\n' case runs "mean ms" "median ms" "min ms" "max ms"
for k in "${keys[@]}"; do
	read -r rn m md mn mx < <(stats "$k")
	mean[$k]=$m
	median[$k]=$md
	printf '%-42s %6d %10.3f %10.3f %10.3f %10.3f\n' "${label[$k]}" "$rn" "$m" "$md" "$mn" "$mx"
done
echo

missed=0
ratio() { # name num den [target]
	local verdict
	verdict=$(awk -v a="${median[$2]}" -v b="${median[$3]}" -v ma="${mean[$2]}" -v mb="${mean[$3]}" -v t="${4:-}" 'BEGIN {
		r = (b > 0) ? a / b : 0; rm = (mb > 0) ? ma / mb : 0
		printf "%.2f (mean %.2f)", r, rm
		if (t != "") printf ", target <= %.1f: %s", t, (b > 0 && r <= t) ? "PASS" : "MISS"
	}')
	printf '%-50s %s\n' "$1 (median)" "$verdict"
	[[ $verdict != *MISS ]] || missed=1
}
ratio "dispatch / skip" dispatch skip
ratio "dispatch / git status" dispatch gitstatus
ratio "skip / git status" skip gitstatus
ratio "prompt-submit nothing pending / true" prompt true 3.0
ratio "prompt-submit verdict pending / true" promptshow true
verdict=$(awk -v d="${median[dispatch]}" -v s="${median[skip]}" 'BEGIN {
	printf "%.1f ms (detaching adds %.1f ms over skip), target <= 50 ms: %s", d, d - s, (d <= 50) ? "PASS" : "MISS" }')
printf '%-50s %s\n' "judged turn, advisory mode (median)" "$verdict"
[[ $verdict != *MISS ]] || missed=1

if ((missed)) && [[ $BENCH_STRICT == 1 ]]; then
	exit 1
fi
exit 0
