#!/usr/bin/env bash
# bench-session-start.sh: time the SessionStart hook's cheap paths against
# /bin/true and against the Stop hook's disabled path, interleaved, in one
# run.
#
#   true          /bin/true                                      (baseline)
#   stopgate      stop-gate, disabled path (no tribunal settings) (reference)
#   disabled      session-start, disabled path                    target: <= 3.0x true
#   nothing       session-start enabled, no stop file anywhere     (no git child)
#   seen          session-start enabled, 20 fresh stop files, all already
#                 surfaced (one `git remote get-url` for the project key)
#
# The disabled path must cost about what stop-gate's disabled path costs
# (target: session-start disabled / stop-gate disabled <= 1.2). The enabled
# paths are compared with /bin/true for scale.
#
# Environment:
#   RUNS           runs per command (default 200)
#   WARMUP         unmeasured runs per command before timing (default 5)
#   BENCH_STRICT   1: exit 1 when a target is missed (default 0: report only)
#
# Exit status: 0 on a completed run (unless BENCH_STRICT=1 and a target was
# missed), 1 when a binary misbehaves (non-zero exit, unexpected stdout, or
# the disabled or nothing-on-disk path starting git), 2 on setup errors.
set -euo pipefail
export LC_ALL=C # EPOCHREALTIME and awk must use '.' as the decimal point

RUNS=${RUNS:-200}
WARMUP=${WARMUP:-5}
BENCH_STRICT=${BENCH_STRICT:-0}

die() {
	echo "bench-session-start: $*" >&2
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

for n in RUNS WARMUP; do
	[[ ${!n} =~ ^[0-9]+$ && ${!n} -gt 0 ]] || die "$n must be a positive integer, got '${!n}'"
done
command -v git >/dev/null || die "git is required"
[[ -n ${EPOCHREALTIME:-} ]] || die "bash >= 5 is required (EPOCHREALTIME)"

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tribunal-bench-ss.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "building ./cmd/session-start and ./cmd/stop-gate (CGO_ENABLED=0)"
(cd "$repo_root" && CGO_ENABLED=0 go build -o "$work/session-start" ./cmd/session-start &&
	CGO_ENABLED=0 go build -o "$work/stop-gate" ./cmd/stop-gate) || die "build failed"
ss=$work/session-start
sg=$work/stop-gate

git_id=(-c user.name=tribunal-bench -c user.email=bench@tribunal.invalid)
mkrepo() { # dir [enabled]
	git init -q -b main "$1"
	printf 'hello\n' >"$1/README"
	if [[ ${2:-} == enabled ]]; then
		mkdir -p "$1/.claude"
		printf '{"tribunal":{"stop_hook":{"enabled":true}}}\n' >"$1/.claude/settings.json"
	fi
	git -C "$1" add -A
	git -C "$1" "${git_id[@]}" commit -q -m init
}
off=$work/off
on=$work/on
seen=$work/seen
mkrepo "$off"
mkrepo "$on" enabled
mkrepo "$seen" enabled

mkdir -p "$work/home" "$work/onlooker" "$work/onlooker-empty" "$work/bin"
unset TRIBUNAL_NESTED CLAUDE_PLUGIN_ROOT CLAUDE_PROJECT_DIR GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE ONLOOKER_EVENTS_LOG
export HOME=$work/home
export ONLOOKER_DIR=$work/onlooker

json_str() {
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}
	printf '"%s"' "$s"
}
start_input() { # cwd
	printf '{"session_id":"bench-session","transcript_path":"/nonexistent","cwd":%s,"hook_event_name":"SessionStart","source":"startup"}\n' \
		"$(json_str "$1")"
}
stop_input() { # cwd
	printf '{"session_id":"bench-session","transcript_path":"/nonexistent","cwd":%s,"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done."}\n' \
		"$(json_str "$1")"
}
start_input "$off" >"$work/in-off.json"
start_input "$on" >"$work/in-on.json"
start_input "$seen" >"$work/in-seen.json"
stop_input "$off" >"$work/in-stop.json"

# The "seen" project: 20 fresh stop files, surfaced once here so that every
# timed run finds them all already marked.
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
sha256() { if command -v sha256sum >/dev/null; then sha256sum; else shasum -a 256; fi; }
# The key is sha256("root:" + physical repo path), first 12 hex digits
# (spec §9.3; the repository has no remote).
physical=$(cd "$seen" && pwd -P)
key=$(printf 'root:%s' "$physical" | sha256 | cut -c1-12)
proj=$ONLOOKER_DIR/tribunal/$key
mkdir -p "$proj"
for i in $(seq -w 1 20); do
	printf '{"task_id":"01HZ00000000000000000000%s","session_id":"s%s","outcome":"accepted","verdict":{"score":0.9,"passed":true,"judge_type":"standard","feedback_summary":"ok"},"mode":"stop-advisory","fingerprint":"f","written_at":"%s"}\n' \
		"$i" "$i" "$now" >"$proj/stop-s$i.json"
done
out=$("$ss" <"$work/in-seen.json")
[[ $out == *'"hookEventName":"SessionStart"'* ]] ||
	{ echo "bench-session-start: the seen project's verdicts were not surfaced (wrong key?): '${out:0:200}'" >&2; exit 1; }

# ---------------------------------------------------------------------------
# sanity: every path exits 0 and prints nothing; the disabled path starts no
# git (a logging git wrapper first on PATH, for this check only)
# ---------------------------------------------------------------------------
real_git=$(command -v git)
cat >"$work/bin/git" <<EOF
#!/bin/sh
echo "\$*" >>'$work/git-calls'
exec '$real_git' "\$@"
EOF
chmod +x "$work/bin/git"
check() { # label binary input expect-git
	local rc=0 out
	rm -f "$work/git-calls"
	out=$(PATH=$work/bin:$PATH "$2" <"$3" 2>"$work/stderr") || rc=$?
	if ((rc != 0)) || [[ -n $out ]] || [[ -s $work/stderr ]]; then
		echo "bench-session-start: $1 misbehaved: exit $rc, stdout '${out:0:200}', stderr '$(head -c 300 "$work/stderr")'" >&2
		exit 1
	fi
	if [[ $4 == no && -e $work/git-calls ]]; then
		echo "bench-session-start: $1 started git: $(cat "$work/git-calls")" >&2
		exit 1
	fi
}
check "session-start (disabled)" "$ss" "$work/in-off.json" no
ONLOOKER_DIR=$work/onlooker-empty check "session-start (nothing on disk)" "$ss" "$work/in-on.json" no
check "session-start (all seen)" "$ss" "$work/in-seen.json" yes
check "stop-gate (disabled)" "$sg" "$work/in-stop.json" no

# ---------------------------------------------------------------------------
# timing: the five commands in rotating order, one run each per round, so
# drift and cache effects hit all of them alike
# ---------------------------------------------------------------------------
keys=(true stopgate disabled nothing seen)
declare -A cmd=([true]=/bin/true [stopgate]=$sg [disabled]=$ss [nothing]=$ss [seen]=$ss)
declare -A input=([true]=$work/in-off.json [stopgate]=$work/in-stop.json [disabled]=$work/in-off.json
	[nothing]=$work/in-on.json [seen]=$work/in-seen.json)
declare -A dir=([true]=$off [stopgate]=$off [disabled]=$off [nothing]=$on [seen]=$seen)
# "nothing" gets an Onlooker directory of its own, empty: the seen
# project's fresh stop files would otherwise count as work.
declare -A odir=([true]=$ONLOOKER_DIR [stopgate]=$ONLOOKER_DIR [disabled]=$ONLOOKER_DIR
	[nothing]=$work/onlooker-empty [seen]=$ONLOOKER_DIR)
declare -A label=(
	[true]="/bin/true"
	[stopgate]="stop-gate, disabled path"
	[disabled]="session-start, disabled path"
	[nothing]="session-start, enabled, nothing on disk"
	[seen]="session-start, enabled, 20 verdicts all seen"
)
for k in "${keys[@]}"; do : >"$work/times.$k"; done
run_one() { # key
	local k=$1 t0 t1
	cd "${dir[$k]}"
	t0=$EPOCHREALTIME
	ONLOOKER_DIR=${odir[$k]} "${cmd[$k]}" <"${input[$k]}" >/dev/null 2>&1 || true
	t1=$EPOCHREALTIME
	echo $((${t1/./} - ${t0/./})) >>"$work/times.$k"
}
for ((i = 0; i < WARMUP; i++)); do
	for k in "${keys[@]}"; do
		cd "${dir[$k]}"
		ONLOOKER_DIR=${odir[$k]} "${cmd[$k]}" <"${input[$k]}" >/dev/null 2>&1 || true
	done
done
for k in "${keys[@]}"; do : >"$work/times.$k"; done
echo "timing: $RUNS runs per command, warmup $WARMUP, rotating order"
n=${#keys[@]}
for ((i = 0; i < RUNS; i++)); do
	for ((j = 0; j < n; j++)); do
		run_one "${keys[(i + j) % n]}"
	done
done
cd /

# ---------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------
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
printf '%-46s %6s %10s %10s %10s %10s\n' case runs "mean ms" "median ms" "min ms" "max ms"
for k in "${keys[@]}"; do
	read -r rn m md mn mx < <(stats "$k")
	mean[$k]=$m
	median[$k]=$md
	printf '%-46s %6d %10.3f %10.3f %10.3f %10.3f\n' "${label[$k]}" "$rn" "$m" "$md" "$mn" "$mx"
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
	printf '%-54s %s\n' "$1 (median)" "$verdict"
	[[ $verdict != *MISS ]] || missed=1
}
ratio "session-start disabled / true" disabled true 3.0
ratio "session-start disabled / stop-gate disabled" disabled stopgate 1.2
ratio "stop-gate disabled / true" stopgate true
ratio "session-start nothing on disk / true" nothing true
ratio "session-start all seen / true" seen true
ratio "session-start all seen / nothing on disk" seen nothing

if ((missed)) && [[ $BENCH_STRICT == 1 ]]; then
	exit 1
fi
exit 0
