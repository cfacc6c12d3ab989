#!/usr/bin/env bash
# bench-stop-gate.sh: time the Stop hook's two cheap paths against their
# baselines, side by side and interleaved, in one run.
#
#   disabled path    stop-gate in a small repo with no tribunal settings
#                    vs /bin/true                      target: <= 3.0x
#   switched off     stop-gate in a small dirty repo whose Stop hook is
#                    enabled but tribunal.enabled is false (the master
#                    switch) vs /bin/true              target: <= 3.0x
#   skip-clean path  stop-gate in a large clean repo with the hook enabled
#                    vs git status --porcelain          target: <= 1.5x
#   small clean      stop-gate in a clean 200-file repo with an origin and
#                    the hook enabled, vs git status --porcelain there
#                                                       target: <= 2.0x
#
# The large repo (50,000 tracked files, 100,000 ignored files under several
# node_modules trees) is generated once and cached under $BENCH_DIR.
#
# Environment:
#   BENCH_DIR      cache directory for the large repo (default /tmp/tribunal-bench)
#   RUNS_FAST      runs per command for the disabled pair (default 200)
#   RUNS_LARGE     runs per command for the large-repo pair (default 30)
#   WARMUP         unmeasured runs per command before timing (default 5)
#   BENCH_METHOD   auto | hyperfine | loop (default auto: hyperfine when it
#                  is installed and can feed stdin with --input, else loop)
#   BENCH_ROUNDS   hyperfine only: rounds per pair, command order alternating,
#                  so the two sides interleave (default 5)
#   BENCH_TRACKED  tracked files in the large repo (default 50000)
#   BENCH_IGNORED  ignored files in the large repo (default 100000)
#   STOP_GATE_BIN  time this binary instead of building ./cmd/stop-gate
#                  (e.g. /bin/true to check the harness alone)
#   BENCH_STRICT   1: exit 1 when a target is missed (default 0: report only)
#
# Exit status: 0 on a completed run (unless BENCH_STRICT=1 and a target was
# missed), 1 when stop-gate misbehaves (non-zero exit, stdout output, or it
# ran `claude`), 2 on setup errors.
set -euo pipefail
export LC_ALL=C # EPOCHREALTIME and awk must use '.' as the decimal point

BENCH_DIR=${BENCH_DIR:-/tmp/tribunal-bench}
RUNS_FAST=${RUNS_FAST:-200}
RUNS_LARGE=${RUNS_LARGE:-30}
WARMUP=${WARMUP:-5}
BENCH_METHOD=${BENCH_METHOD:-auto}
BENCH_ROUNDS=${BENCH_ROUNDS:-5}
BENCH_TRACKED=${BENCH_TRACKED:-50000}
BENCH_IGNORED=${BENCH_IGNORED:-100000}
STOP_GATE_BIN=${STOP_GATE_BIN:-}
BENCH_STRICT=${BENCH_STRICT:-0}

# Bump when the generated layout changes, so stale caches are rebuilt.
REPO_LAYOUT=1

die() {
	echo "bench-stop-gate: $*" >&2
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

for n in RUNS_FAST RUNS_LARGE WARMUP BENCH_ROUNDS BENCH_TRACKED BENCH_IGNORED; do
	[[ ${!n} =~ ^[0-9]+$ && ${!n} -gt 0 ]] || die "$n must be a positive integer, got '${!n}'"
done
command -v git >/dev/null || die "git is required"

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tribunal-bench-run.XXXXXX")
trap 'rm -rf "$work"' EXIT

git_id=(-c user.name=tribunal-bench -c user.email=bench@tribunal.invalid)

# ---------------------------------------------------------------------------
# (a) build
# ---------------------------------------------------------------------------
if [[ -n $STOP_GATE_BIN ]]; then
	gate=$STOP_GATE_BIN
	[[ -x $gate ]] || die "STOP_GATE_BIN '$gate' is not executable"
	echo "stop-gate: using $gate (not built)"
else
	gate=$work/stop-gate
	echo "stop-gate: building ./cmd/stop-gate (CGO_ENABLED=0)"
	(cd "$repo_root" && CGO_ENABLED=0 go build -o "$gate" ./cmd/stop-gate) ||
		die "build of ./cmd/stop-gate failed; set STOP_GATE_BIN to time another binary"
fi

# ---------------------------------------------------------------------------
# (b) the large repository, generated or reused
# ---------------------------------------------------------------------------
large=$BENCH_DIR/large-$BENCH_TRACKED-$BENCH_IGNORED
marker=$large/.git/tribunal-bench-layout

# generate_large writes the files with one awk process (a process per file
# would take minutes), adds them with one `git add -A` and commits once. The
# hook is enabled by a committed .claude/settings.json so the tree stays
# clean. Layout: tracked src<NN>/mod<N>/f<N>.txt and ignored
# pkg<N>/node_modules/dep<N>/lib/m<N>.js, 100 files per directory, ignored
# files spread over four node_modules trees.
generate_large() {
	local dest=$1 tmp
	tmp=$dest.tmp.$$
	rm -rf "$tmp"
	mkdir -p "$tmp"
	git init -q -b main "$tmp"
	printf 'node_modules/\n' >"$tmp/.gitignore"
	mkdir -p "$tmp/.claude"
	printf '{"tribunal":{"stop_hook":{"enabled":true}}}\n' >"$tmp/.claude/settings.json"

	(
		cd "$tmp"
		# shellcheck disable=SC2016 # awk program, not shell
		local layout='
			function tdir(i) { return sprintf("src%d/mod%d", int(i / 1000), int(i / 100) % 10) }
			function idir(i,  per) { per = int((ign + 3) / 4); return sprintf("pkg%d/node_modules/dep%d/lib", int(i / per), int((i % per) / 100)) }'
		awk -v trk="$BENCH_TRACKED" -v ign="$BENCH_IGNORED" "$layout"'
			BEGIN {
				for (i = 0; i < trk; i += 100) print tdir(i)
				for (i = 0; i < ign; i++) { d = idir(i); if (d != last) print d; last = d }
			}' | xargs mkdir -p
		awk -v trk="$BENCH_TRACKED" -v ign="$BENCH_IGNORED" "$layout"'
			BEGIN {
				for (i = 0; i < trk; i++) {
					f = tdir(i) "/f" (i % 100) ".txt"; print "tracked file " i > f; close(f)
				}
				per = int((ign + 3) / 4)
				for (i = 0; i < ign; i++) {
					n = i % per; f = idir(i) "/m" (n % 100) ".js"; print "module.exports = " n > f; close(f)
				}
			}'
	)

	git -C "$tmp" add -A
	git -C "$tmp" "${git_id[@]}" commit -q -m "tribunal bench: $BENCH_TRACKED tracked, $BENCH_IGNORED ignored"
	# Settle the index: entries written in the same second as the index are
	# "racily clean" and get re-hashed on every status until a status that
	# may write the index has refreshed them. A real repo is settled.
	sleep 1
	git -C "$tmp" status --porcelain >/dev/null
	echo "$REPO_LAYOUT" >"$tmp/.git/tribunal-bench-layout"
	rm -rf "$dest"
	mv "$tmp" "$dest"
}

gen_note="reused cached copy"
if [[ -f $marker && $(cat "$marker") == "$REPO_LAYOUT" && -z $(git -C "$large" status --porcelain 2>/dev/null) ]]; then
	echo "large repo: reusing $large"
else
	echo "large repo: generating $large ($BENCH_TRACKED tracked + $BENCH_IGNORED ignored files)"
	mkdir -p "$BENCH_DIR"
	gen_start=$EPOCHREALTIME
	generate_large "$large"
	gen_end=$EPOCHREALTIME
	gen_note=$(awk -v a="$gen_start" -v b="$gen_end" 'BEGIN { printf "generated in %.1f s", b - a }')
	echo "large repo: $gen_note"
fi
[[ -z $(git -C "$large" status --porcelain) ]] || die "large repo $large is not clean; delete it to regenerate"

# ---------------------------------------------------------------------------
# the small repository, hook inputs, and an environment without tribunal
# ---------------------------------------------------------------------------
small=$work/small
git init -q -b main "$small"
printf 'hello\n' >"$small/README"
git -C "$small" add README
git -C "$small" "${git_id[@]}" commit -q -m init

# A small project as most are: 200 tracked files, an origin, the hook
# enabled by its committed settings, clean.
smallon=$work/small-enabled
git init -q -b main "$smallon"
mkdir -p "$smallon/.claude"
printf '{"tribunal":{"stop_hook":{"enabled":true}}}\n' >"$smallon/.claude/settings.json"
for i in $(seq 200); do printf 'file %d\n' "$i" >"$smallon/f$i.txt"; done
git -C "$smallon" add -A
git -C "$smallon" "${git_id[@]}" commit -q -m init
git -C "$smallon" remote add origin https://example.invalid/o/small.git
# Settle the index as for the large repo: files written in the second the
# index was are racily clean, re-hashed by git and never proven clean by
# stop-gate's own reading of the index, until a later status refreshes them.
sleep 1
git -C "$smallon" status --porcelain >/dev/null

# The master switch off over an enabled Stop hook, the tree dirty: the
# hook must leave as cheaply as with no settings at all.
smalloff=$work/small-off
git init -q -b main "$smalloff"
mkdir -p "$smalloff/.claude"
printf '{"tribunal":{"enabled":false,"stop_hook":{"enabled":true}}}\n' >"$smalloff/.claude/settings.json"
printf 'hello\n' >"$smalloff/README"
git -C "$smalloff" add -A
git -C "$smalloff" "${git_id[@]}" commit -q -m init
printf 'dirty\n' >"$smalloff/new.txt"

mkdir -p "$work/home" "$work/onlooker" "$work/bin"
transcript=$work/transcript.jsonl
printf '{"type":"assistant","message":{"content":"done"}}\n' >"$transcript"

# A fake claude: a stop-gate that reaches the model on these paths is a bug,
# and the marker file makes it visible.
claude_marker=$work/claude-was-called
cat >"$work/bin/claude" <<EOF
#!/bin/sh
echo "\$*" >>'$claude_marker'
exit 1
EOF
chmod +x "$work/bin/claude"

json_str() {
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}
	printf '"%s"' "$s"
}
hook_input() { # cwd session-id
	printf '{"session_id":%s,"transcript_path":%s,"cwd":%s,"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done."}\n' \
		"$(json_str "$2")" "$(json_str "$transcript")" "$(json_str "$1")"
}
in_disabled=$work/disabled.json
in_skip=$work/skip-clean.json
in_small=$work/small-clean.json
in_off=$work/switched-off.json
hook_input "$smalloff" bench-switched-off >"$in_off"
hook_input "$small" bench-disabled >"$in_disabled"
hook_input "$large" bench-skip-clean >"$in_skip"
hook_input "$smallon" bench-small-clean >"$in_small"

unset TRIBUNAL_NESTED CLAUDE_PLUGIN_ROOT CLAUDE_PROJECT_DIR GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
export HOME=$work/home
export ONLOOKER_DIR=$work/onlooker
export PATH=$work/bin:$PATH

# ---------------------------------------------------------------------------
# sanity: both stop-gate paths exit 0, print nothing, never call claude
# ---------------------------------------------------------------------------
check_gate() { # label input dir
	local rc=0 out
	out=$(cd "$3" && "$gate" <"$2" 2>"$work/stderr") || rc=$?
	if ((rc != 0)) || [[ -n $out ]] || [[ -e $claude_marker ]]; then
		echo "bench-stop-gate: stop-gate misbehaved on the $1 path: exit $rc, stdout '${out:0:200}'" >&2
		[[ -e $claude_marker ]] && echo "bench-stop-gate: it ran claude: $(head -c 200 "$claude_marker")" >&2
		[[ -s $work/stderr ]] && echo "bench-stop-gate: stderr: $(head -c 500 "$work/stderr")" >&2
		exit 1
	fi
}
check_gate disabled "$in_disabled" "$small"
check_gate switched-off "$in_off" "$smalloff"
check_gate skip-clean "$in_skip" "$large"
check_gate small-clean "$in_small" "$smallon"

# ---------------------------------------------------------------------------
# (c) timing
# ---------------------------------------------------------------------------
method=$BENCH_METHOD
hyperfine_ok() {
	command -v hyperfine >/dev/null && command -v jq >/dev/null &&
		hyperfine --help 2>&1 | grep -q -- '--input'
}
case $method in
auto) if hyperfine_ok; then method=hyperfine; else method=loop; fi ;;
hyperfine) hyperfine_ok || die "BENCH_METHOD=hyperfine needs hyperfine with --input (>= 1.16) and jq" ;;
loop) ;;
*) die "BENCH_METHOD must be auto, hyperfine or loop" ;;
esac
if [[ $method == loop && -z ${EPOCHREALTIME:-} ]]; then
	die "the loop method needs bash >= 5 (EPOCHREALTIME); install hyperfine >= 1.16 instead"
fi

# Each timed case writes one duration in microseconds per line to
# $work/times.<key>.

# time_loop_pair: runs A and B alternately (A,B then B,A) so drift and cache
# effects hit both sides equally. stdin comes from a file, no extra process.
time_loop_pair() { # runs input keyA keyB -- cmdA... -- cmdB...
	local runs=$1 input=$2 ka=$3 kb=$4 i t0 t1
	shift 5
	local -a a=() b=()
	while [[ $1 != -- ]]; do
		a+=("$1")
		shift
	done
	shift
	b=("$@")
	for ((i = 0; i < WARMUP; i++)); do
		"${a[@]}" <"$input" >/dev/null 2>&1 || true
		"${b[@]}" <"$input" >/dev/null 2>&1 || true
	done
	: >"$work/times.$ka"
	: >"$work/times.$kb"
	for ((i = 0; i < runs; i++)); do
		if ((i % 2 == 0)); then
			t0=$EPOCHREALTIME; "${a[@]}" <"$input" >/dev/null 2>&1 || true; t1=$EPOCHREALTIME
			echo $((${t1/./} - ${t0/./})) >>"$work/times.$ka"
			t0=$EPOCHREALTIME; "${b[@]}" <"$input" >/dev/null 2>&1 || true; t1=$EPOCHREALTIME
			echo $((${t1/./} - ${t0/./})) >>"$work/times.$kb"
		else
			t0=$EPOCHREALTIME; "${b[@]}" <"$input" >/dev/null 2>&1 || true; t1=$EPOCHREALTIME
			echo $((${t1/./} - ${t0/./})) >>"$work/times.$kb"
			t0=$EPOCHREALTIME; "${a[@]}" <"$input" >/dev/null 2>&1 || true; t1=$EPOCHREALTIME
			echo $((${t1/./} - ${t0/./})) >>"$work/times.$ka"
		fi
	done
}

# time_hyperfine_pair: hyperfine cannot interleave single runs, so the runs
# are split into rounds whose command order alternates; the per-run times of
# all rounds are merged.
time_hyperfine_pair() { # runs input keyA keyB -- cmdA -- cmdB  (each a single string)
	local runs=$1 input=$2 ka=$3 kb=$4 r per first
	local cmd_a=$6 cmd_b=$8
	per=$(((runs + BENCH_ROUNDS - 1) / BENCH_ROUNDS))
	: >"$work/times.$ka"
	: >"$work/times.$kb"
	for ((r = 0; r < BENCH_ROUNDS; r++)); do
		local -a order=(-n "$ka" "$cmd_a" -n "$kb" "$cmd_b")
		((r % 2 == 1)) && order=(-n "$kb" "$cmd_b" -n "$ka" "$cmd_a")
		first=$WARMUP
		((r > 0)) && first=1
		hyperfine -N --style none --warmup "$first" --runs "$per" --input "$input" \
			--export-json "$work/round.json" "${order[@]}" >/dev/null
		jq -r \
			'.results[] | .command as $c | .times[] | "\($c) \(. * 1e6 | floor)"' "$work/round.json" |
			while read -r name us; do
				echo "$us" >>"$work/times.$name"
			done
	done
}

# run_pair picks the method; commands are given as words (loop) and joined
# for hyperfine, which splits them itself with --shell=none.
run_pair() { # runs input keyA keyB -- cmdA... -- cmdB...
	if [[ $method == hyperfine ]]; then
		local runs=$1 input=$2 ka=$3 kb=$4
		shift 5
		local -a a=() b=()
		while [[ $1 != -- ]]; do
			a+=("$(printf '%q' "$1")")
			shift
		done
		shift
		for w in "$@"; do b+=("$(printf '%q' "$w")"); done
		time_hyperfine_pair "$runs" "$input" "$ka" "$kb" -- "${a[*]}" -- "${b[*]}"
	else
		time_loop_pair "$@"
	fi
}

echo "timing: method=$method, $RUNS_FAST runs (disabled pair), $RUNS_LARGE runs (large pair), warmup $WARMUP"
cd "$small"
run_pair "$RUNS_FAST" "$in_disabled" true disabled -- /bin/true -- "$gate"
cd "$smalloff"
run_pair "$RUNS_FAST" "$in_off" trueoff switchedoff -- /bin/true -- "$gate"
cd "$large"
run_pair "$RUNS_LARGE" "$in_skip" gitstatus skipclean -- git status --porcelain -- "$gate"
cd "$smallon"
run_pair "$RUNS_FAST" "$in_small" gitstatussmall smallclean -- git status --porcelain -- "$gate"
cd /

[[ -e $claude_marker ]] && {
	echo "bench-stop-gate: stop-gate ran claude during timing: $(head -c 200 "$claude_marker")" >&2
	exit 1
}

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

declare -A label=(
	[true]="/bin/true"
	[disabled]="stop-gate, disabled path (small repo)"
	[trueoff]="/bin/true (second pair)"
	[switchedoff]="stop-gate, tribunal.enabled false (dirty)"
	[gitstatus]="git status --porcelain (large repo)"
	[skipclean]="stop-gate, skip-clean path (large repo)"
	[gitstatussmall]="git status --porcelain (small repo)"
	[smallclean]="stop-gate, enabled, clean (small repo)"
)
declare -A mean median
echo
echo "git $(git --version | awk '{print $3}'), $(nproc 2>/dev/null || echo '?') CPUs, method $method, large repo $gen_note"
printf '%-42s %6s %10s %10s %10s %10s\n' case runs "mean ms" "median ms" "min ms" "max ms"
for k in true disabled trueoff switchedoff gitstatus skipclean gitstatussmall smallclean; do
	read -r n m md mn mx < <(stats "$k")
	mean[$k]=$m
	median[$k]=$md
	printf '%-42s %6d %10.3f %10.3f %10.3f %10.3f\n' "${label[$k]}" "$n" "$m" "$md" "$mn" "$mx"
done
echo

missed=0
ratio() { # name num den target
	local verdict
	verdict=$(awk -v a="${median[$2]}" -v b="${median[$3]}" -v ma="${mean[$2]}" -v mb="${mean[$3]}" -v t="$4" 'BEGIN {
		r = (b > 0) ? a / b : 0; rm = (mb > 0) ? ma / mb : 0
		printf "%.2f (mean %.2f), target <= %.1f: %s", r, rm, t, (b > 0 && r <= t) ? "PASS" : "MISS"
	}')
	printf '%-36s %s\n' "$1 (median)" "$verdict"
	[[ $verdict == *PASS ]] || missed=1
}
ratio "disabled / true" disabled true 3.0
ratio "switched off / true" switchedoff trueoff 3.0
ratio "skip-clean / git-status" skipclean gitstatus 1.5
ratio "small clean / git-status" smallclean gitstatussmall 2.0

# The skip-clean path has to run git status itself, so it cannot be much
# faster than the baseline; if it is, stop-gate left earlier (disabled?).
if awk -v a="${median[skipclean]}" -v b="${median[gitstatus]}" 'BEGIN { exit !(a < b / 2) }'; then
	echo "warning: stop-gate's skip-clean run is under half of git status; it probably skipped before the dirty check (is the hook enabled in $large/.claude/settings.json?)" >&2
fi

if ((missed)) && [[ $BENCH_STRICT == 1 ]]; then
	exit 1
fi
exit 0
