#!/usr/bin/env bash
# bench-judge-cases.sh: what `tribunal-session judge --cases` costs beyond
# its model calls: COUNT short answers judged with --jobs JOBS by the
# scripted model (internal/testkit/fakeclaude, built as a static program:
# it answers at once, so no model time is counted), as answers per second
# and tribunal's own CPU per answer.
#
# tribunal's own CPU is the whole run's user+sys (GNU time: tribunal-session
# and every child it waited for) less the fake's: the fake is then run
# alone, CALLS times (the calls per answer counted in a warm-up's log,
# times COUNT), each with a judge's arguments and a prompt of the size
# the warm-up's calls had, from a subshell whose `times` gives its
# children's user+sys alone. The fork and exec of each call stay on
# tribunal's side, where they are paid.
#
# Environment:
#   COUNT   answers (default 1000)
#   JOBS    --jobs (default 4)
#
# Exit status: 0 on a completed run, 1 when the batch fails, 2 on setup
# errors.
set -euo pipefail
export LC_ALL=C

COUNT=${COUNT:-1000}
JOBS=${JOBS:-4}

die() {
	echo "bench-judge-cases: $*" >&2
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
[[ $COUNT =~ ^[0-9]+$ && $COUNT -gt 0 ]] || die "COUNT must be a positive integer, got '$COUNT'"
[[ $JOBS =~ ^[0-9]+$ && $JOBS -gt 0 ]] || die "JOBS must be a positive integer, got '$JOBS'"
[[ -x /usr/bin/time ]] || die "GNU time (/usr/bin/time) is needed"

repo_root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-judge.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "building tribunal-session and the scripted model (CGO_ENABLED=0)"
(cd "$repo_root" && CGO_ENABLED=0 go build -trimpath -o "$work/tribunal-session" ./cmd/tribunal-session &&
	CGO_ENABLED=0 go build -trimpath -o "$work/bin/claude" ./internal/testkit/fakeclaude/fakeclaudebin) || die "build failed"
ts=$work/tribunal-session

unset TRIBUNAL_NESTED CLAUDE_PLUGIN_ROOT CLAUDE_PROJECT_DIR GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE ONLOOKER_EVENTS_LOG CI FAKE_CLAUDE_LOG
mkdir -p "$work/home" "$work/onlooker"
export HOME=$work/home ONLOOKER_DIR=$work/onlooker TRIBUNAL_CLAUDE_BIN=$work/bin/claude
cat >"$work/script.json" <<'JSON'
{"rules":[
 {"role":"meta","reply":{"structured":{"verdict_quality":"sound","bias_detected":false},"cost":0.001}},
 {"reply":{"structured":{"score":0.9,"passed":true,"feedback_summary":"ok"},"cost":0.001}}
]}
JSON
export FAKE_CLAUDE_SCRIPT=$work/script.json

git init -q -b main "$work/repo"
git -C "$work/repo" -c user.name=bench -c user.email=bench@tribunal.invalid commit -q --allow-empty -m init
awk -v n="$COUNT" 'BEGIN { for (i = 1; i <= n; i++)
	printf "{\"id\":\"q%d\",\"question\":\"What is %d + %d?\",\"answer\":\"%d\",\"expected\":\"%d\",\"context\":\"Arithmetic on integers.\"}\n", i, i, i, 2 * i, 2 * i }' >"$work/cases.jsonl"
cd "$work/repo"

# A warm-up batch of one answer: its log counts the calls per answer and
# sizes the prompt the fake alone is given (the log's bytes per call, a
# little more than the prompt).
head -1 "$work/cases.jsonl" >"$work/one.jsonl"
FAKE_CLAUDE_LOG=$work/warm.log "$ts" judge --cases "$work/one.jsonl" --match exact >/dev/null 2>"$work/warm.err" || die "the warm-up failed: $(cat "$work/warm.err")"
per_answer=$(wc -l <"$work/warm.log")
prompt_bytes=$(($(wc -c <"$work/warm.log") / per_answer))
head -c "$prompt_bytes" /dev/zero | tr '\000' 'x' >"$work/replay.stdin"

echo "judging $COUNT answers, --jobs $JOBS"
set +e
/usr/bin/time -f '%e %U %S' -o "$work/time" "$ts" judge --cases "$work/cases.jsonl" --jobs "$JOBS" --match exact >"$work/out.jsonl" 2>"$work/err"
code=$?
set -e
[[ $code -eq 0 ]] || {
	tail -5 "$work/err" >&2
	echo "bench-judge-cases: the batch exited $code" >&2
	exit 1
}
[[ $(grep -c '"outcome":"accepted"' "$work/out.jsonl") -eq $COUNT ]] || { echo "bench-judge-cases: not every answer was accepted" >&2; exit 1; }
read -r wall user sys <"$work/time"
calls=$((COUNT * per_answer))

# The fake alone, CALLS times, with the recorded stdin and arguments.
fake=$(
	args=(-p --output-format json --system-prompt '# Tribunal Standard Judge' --json-schema '{"type":"object"}')
	for ((i = 0; i < calls; i++)); do TRIBUNAL_NESTED=1 "$work/bin/claude" "${args[@]}" <"$work/replay.stdin" >/dev/null || die "the scripted model alone failed"; done
	# times as a builtin of this shell: in a pipeline it would run in a
	# fork, whose children are none.
	times >"$work/times"
	sed -n 2p "$work/times"
)
awk -v wall="$wall" -v user="$user" -v sys="$sys" -v fake="$fake" -v n="$COUNT" -v calls="$calls" -v jobs="$JOBS" '
	function secs(s,  m) { m = s; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", s); sub(/s$/, "", s); return m * 60 + s }
	BEGIN {
		split(fake, f, " "); fk = secs(f[1]) + secs(f[2])
		own = user + sys - fk
		printf "judge --cases: %d answers, --jobs %d, %d model calls (scripted)\n", n, jobs, calls
		printf "wall %.2f s: %.1f answers/s\n", wall, n / wall
		printf "CPU user+sys %.2f s in all, the scripted model %.2f s alone, tribunal %.2f s: %.2f ms CPU per answer\n", user + sys, fk, own, own * 1000 / n
	}'
