#!/usr/bin/env bash
# The GitHub Action's steps (action.yml at the repository root).
#
#   review.sh install   ci/install.sh: tribunal-session built from this checkout
#                       and the Claude Code CLI pinned in package.json, in
#                       $RUNNER_TEMP/tribunal/bin, which goes on $GITHUB_PATH
#   review.sh run       review the pull request of $GITHUB_EVENT_PATH, write
#                       the job summary, the step outputs and the PR comment
#
# run reads the inputs from INPUT_COMMENT, INPUT_GATE, INPUT_FAIL_ON,
# INPUT_CACHE_DIR, INPUT_ARGS and INPUT_RECEIPT. By default the review is
# advisory: the step fails only when no review could be written at all.
# With INPUT_GATE=true it fails as the review's exit status says (10:
# rejected; 3: no verdict).
#
# INPUT_RECEIPT decides whether a signed receipt on the head commit can
# stand in for the review (README "Receipts in CI"):
#   off        (default) always review
#   require    pass only with a valid receipt; no review, no model call
#   or-review  a valid receipt passes without a model call; else a fresh
#              review decides, gated as with INPUT_GATE=true
# The allowed signers are read from the base commit, never from the pull
# request.
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/tribunal

install() {
	"$here/ci/install.sh" "$tmp" >>"${GITHUB_PATH:?not inside a GitHub Actions job}"
}

# fetch_commit makes sure a commit of the event is in the clone: a shallow
# or single-ref checkout may lack the base or the head.
fetch_commit() {
	git cat-file -e "$1^{commit}" 2>/dev/null || git fetch --no-tags --quiet origin "$1" || true
}

# receipt_check runs when INPUT_RECEIPT is require or or-review. It
# returns 0 when a valid receipt decided (the job passes), 1 when a fresh
# review must decide; it exits the job for require without a valid
# receipt and for errors.
receipt_check() {
	local mode=$1 rc=0 follows=()
	# The notes ref of receipts; a remote without it leaves the head with
	# no receipt ("missing"), which verify reports.
	git fetch --no-tags --quiet origin "+refs/notes/tribunal:refs/notes/tribunal" 2>/dev/null ||
		echo "tribunal: no receipts fetched from origin (refs/notes/tribunal is not there, or origin is unreachable)" >&2
	[ "$mode" = or-review ] && follows=(--review-follows)
	rm -f "$tmp/receipt.md"
	tribunal-session github receipt --markdown "$tmp/receipt.md" "${follows[@]}" || rc=$?
	case "$rc" in
	0)
		tribunal-session github publish --markdown "$tmp/receipt.md" --comment="${INPUT_COMMENT:-true}" || exit "$?"
		return 0
		;;
	3[0-4]) ;;
	*) exit "$rc" ;;
	esac
	if [ "$mode" = require ]; then
		tribunal-session github publish --markdown "$tmp/receipt.md" --comment="${INPUT_COMMENT:-true}" || true
		echo "tribunal: error: the pull request's head has no valid receipt, and this job requires one (receipt: require)" >&2
		exit "$rc"
	fi
	return 1
}

run() {
	mkdir -p "$tmp"
	local base head number rc=0 mode=${INPUT_RECEIPT:-off}
	case "$mode" in
	off | require | or-review) ;;
	*)
		echo "tribunal: error: the action's input receipt is \"$mode\"" >&2
		echo "hint: use off, require or or-review" >&2
		exit 2
		;;
	esac
	read -r base head number < <(tribunal-session github prepare --task-file "$tmp/task.md")
	[ -n "$number" ] || exit 2
	fetch_commit "$base"
	fetch_commit "$head"
	if [ "$mode" != off ]; then
		receipt_check "$mode" && return 0
		INPUT_GATE=true
	fi
	local args=(review --base "$base" --head "$head" --task-file "$tmp/task.md"
		--output "md=$tmp/review.md" --output "sarif=$tmp/review.sarif")
	[ "${INPUT_GATE:-false}" = true ] && args+=(--gate)
	[ -n "${INPUT_FAIL_ON:-}" ] && args+=(--fail-on "$INPUT_FAIL_ON")
	[ -n "${INPUT_CACHE_DIR:-}" ] && args+=(--cache-dir "$INPUT_CACHE_DIR")
	if [ -n "${INPUT_ARGS:-}" ]; then
		read -ra extra <<<"$INPUT_ARGS"
		args+=("${extra[@]}")
	fi
	rm -f "$tmp/review.md" "$tmp/review.sarif"
	tribunal-session "${args[@]}" || rc=$?
	if [ ! -s "$tmp/review.md" ] && [ "$rc" = 0 ]; then
		echo "tribunal: nothing to review in this pull request; no comment written" >&2
		return 0
	fi
	if [ ! -s "$tmp/review.md" ]; then
		echo "tribunal: error: the review wrote no result (exit $rc); see its messages above" >&2
		exit $((rc == 0 ? 1 : rc))
	fi
	local sarif=()
	[ -s "$tmp/review.sarif" ] && sarif=(--sarif "$tmp/review.sarif")
	tribunal-session github publish --markdown "$tmp/review.md" "${sarif[@]}" --comment="${INPUT_COMMENT:-true}"
	if [ "${INPUT_GATE:-false}" = true ]; then
		exit "$rc"
	fi
}

case "${1:-}" in
install) install ;;
run) run ;;
*)
	echo "usage: $0 install|run" >&2
	exit 2
	;;
esac
