#!/usr/bin/env bash
# bench-start.sh: time `tribunal-session --version` against /bin/true,
# interleaved, in one run: what every command pays before it does any
# work (the runtime and every linked package's init).
#
#   target: tribunal-session --version / true <= 3.0 (median)
#
# Environment:
#   RUNS           runs per command (default 300)
#   WARMUP         unmeasured runs per command before timing (default 10)
#   BENCH_STRICT   1: exit 1 when the target is missed (default 0: report only)
#
# Exit status: 0 on a completed run (unless BENCH_STRICT=1 and the target
# was missed), 1 when the binary misbehaves, 2 on setup errors.
set -euo pipefail
export LC_ALL=C # EPOCHREALTIME and awk must use '.' as the decimal point

RUNS=${RUNS:-300}
WARMUP=${WARMUP:-10}
BENCH_STRICT=${BENCH_STRICT:-0}

die() {
	echo "bench-start: $*" >&2
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
[[ -n ${EPOCHREALTIME:-} ]] || die "bash >= 5 is required (EPOCHREALTIME)"

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tribunal-bench-start.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "building ./cmd/tribunal-session (CGO_ENABLED=0, -trimpath, -s -w: as make build does)"
(cd "$repo_root" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$work/tribunal-session" ./cmd/tribunal-session) || die "build failed"
ts=$work/tribunal-session
out=$("$ts" --version) || { echo "bench-start: --version failed" >&2; exit 1; }
[[ $out == tribunal-session* ]] || { echo "bench-start: --version printed '${out:0:200}'" >&2; exit 1; }

keys=(true version)
declare -A cmd=([true]=/bin/true [version]="$ts --version")
for ((i = 0; i < WARMUP; i++)); do for k in "${keys[@]}"; do ${cmd[$k]} >/dev/null; done; done
for k in "${keys[@]}"; do : >"$work/times.$k"; done
loadavg() { [[ -r /proc/loadavg ]] && echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"; }
loadavg || true
echo "timing: $RUNS runs per command, warmup $WARMUP, alternating order"
for ((i = 0; i < RUNS; i++)); do
	for ((j = 0; j < 2; j++)); do
		k=${keys[(i + j) % 2]}
		t0=$EPOCHREALTIME
		${cmd[$k]} >/dev/null
		t1=$EPOCHREALTIME
		echo $((${t1/./} - ${t0/./})) >>"$work/times.$k"
	done
done
median() { sort -n "$work/times.$1" | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f", m / 1000 }'; }
mt=$(median true)
mv=$(median version)
ratio=$(awk -v a="$mv" -v b="$mt" 'BEGIN { printf "%.2f", a / b }')
printf '%-44s %8s ms\n' "/bin/true (median)" "$mt" "tribunal-session --version (median)" "$mv"
printf '%-44s %8s   (target <= 3.0)\n' "--version / true (median)" "$ratio"
loadavg || true
if [[ $BENCH_STRICT == 1 ]] && awk -v r="$ratio" 'BEGIN { exit !(r > 3.0) }'; then
	echo "bench-start: target missed" >&2
	exit 1
fi
