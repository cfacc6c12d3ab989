#!/usr/bin/env bash
# The GitHub Action's steps (action.yml at the repository root).
#
#   review.sh install   ci/install.sh: tribunal-session built from this checkout
#                       and the Claude Code CLI pinned in package.json, in
#                       $RUNNER_TEMP/tribunal/bin, which goes on $GITHUB_PATH
#   review.sh review    check the trigger and checkout (github guard), then
#                       review the pull request of $GITHUB_EVENT_PATH (or
#                       check its receipt); holds the model key and the
#                       cache secret, never GITHUB_TOKEN
#   review.sh publish   write the job summary, the step outputs and the PR
#                       comment of what review decided; holds GITHUB_TOKEN
#   review.sh dismissals  read the dismissals recorded on the pull request
#                       ("/tribunal dismiss" replies answered by the token)
#                       into $tmp/github-dismissed; holds GITHUB_TOKEN
#   review.sh reply     on a pull_request_review_comment or issue_comment
#                       event: record or refuse a "/tribunal dismiss" reply
#   review.sh run       review then publish, in one process
#
# They read the inputs from INPUT_COMMENT, INPUT_INLINE, INPUT_GATE, INPUT_FAIL_ON,
# INPUT_CACHE, INPUT_CACHE_DIR, INPUT_ARGS, INPUT_RECEIPT and
# INPUT_ALLOW_PULL_REQUEST_TARGET_HEAD, and the cache secret from
# TRIBUNAL_CACHE_SECRET: without it no cache directory is used. By default
# the review is advisory: the job fails only when no review could be
# written at all. With INPUT_GATE=true publish fails as the review's exit
# status says (10: rejected; 3: no verdict). A pull_request_target job
# with the head checked out is refused (exit 2) unless
# INPUT_ALLOW_PULL_REQUEST_TARGET_HEAD=true.
#
# INPUT_RECEIPT decides whether a signed receipt on the head commit can
# stand in for the review (docs/usage.md, "Receipts in CI"):
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
# returns 0 when the receipt decided — valid (the job passes) or, with
# require, not valid (publish fails the job) —, 1 when a fresh review
# must decide; it exits for errors.
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
	0) ;;
	3[0-4]) [ "$mode" = require ] || return 1 ;;
	*) exit "$rc" ;;
	esac
	printf '%s receipt.md true\n' "$rc" >"$tmp/decided"
	return 0
}

# pr_diff writes the pull request's diff as GitHub shows it (from the
# merge base) for publish's review threads; without the merge base (a
# shallow clone) the two commits' diff stands in.
pr_diff() {
	rm -f "$tmp/pr.diff"
	git diff --no-color --no-ext-diff --src-prefix=a/ --dst-prefix=b/ "$1...$2" >"$tmp/pr.diff" 2>/dev/null ||
		git diff --no-color --no-ext-diff --src-prefix=a/ --dst-prefix=b/ "$1" "$2" >"$tmp/pr.diff" 2>/dev/null ||
		rm -f "$tmp/pr.diff"
}

# with_github_dismissals joins the base's .tribunal/dismissed and the
# dismissals recorded on the pull request (the dismissals step) into
# $tmp/dismissed for --dismissed, which replaces the shared file the
# review would read; it returns 1 when there are none from the PR.
with_github_dismissals() {
	[ -s "$tmp/github-dismissed" ] || return 1
	{
		git show "$1:.tribunal/dismissed" 2>/dev/null || true
		printf '\n'
		cat "$tmp/github-dismissed"
	} >"$tmp/dismissed"
}

# dismissals is the action's step, holding GITHUB_TOKEN and no model key,
# that reads what "/tribunal dismiss" replies recorded on the pull request
# (only comments the token wrote count) for the review step. A failure
# is a warning: the review then raises those findings again.
dismissals() {
	mkdir -p "$tmp"
	rm -f "$tmp/github-dismissed"
	tribunal-session github dismissals --output "$tmp/github-dismissed" >&2 ||
		echo "tribunal: warning: the pull request's dismissals could not be read; dismissed findings may be raised again" >&2
}

# reply is the action's step on a comment event: a "/tribunal dismiss"
# reply by a writer is recorded in its thread, anyone else's refused.
reply() {
	tribunal-session github reply
}

# review is the action's step that judges, holding the model key (and the
# cache secret) but never GITHUB_TOKEN: it checks the trigger and the
# checkout (github guard), then the receipt or the review, and leaves what
# publish needs in $tmp/decided (the exit status and the comment's file).
# Only a refusal or an error fails this step; a rejection is publish's.
review() {
	mkdir -p "$tmp"
	rm -f "$tmp/decided"
	local base head number rc=0 mode=${INPUT_RECEIPT:-off} prepared accept=()
	case "$mode" in
	off | require | or-review) ;;
	*)
		echo "tribunal: error: the action's input receipt is \"$mode\"" >&2
		echo "hint: use off, require or or-review" >&2
		exit 2
		;;
	esac
	prepared=$(tribunal-session github prepare --task-file "$tmp/task.md") || exit "$?"
	read -r base head number <<<"$prepared"
	[ -n "$number" ] || exit 2
	fetch_commit "$base"
	fetch_commit "$head"
	[ "${INPUT_ALLOW_PULL_REQUEST_TARGET_HEAD:-false}" = true ] && accept=(--accept-head-checkout)
	tribunal-session github guard "${accept[@]}" || exit "$?"
	if [ "$mode" != off ]; then
		receipt_check "$mode" && return 0
		INPUT_GATE=true
	fi
	local args=(review --base "$base" --head "$head" --task-file "$tmp/task.md"
		--output "md=$tmp/review.md" --output "sarif=$tmp/review.sarif")
	pr_diff "$base" "$head"
	with_github_dismissals "$base" && args+=(--dismissed "$tmp/dismissed")
	[ "${INPUT_GATE:-false}" = true ] && args+=(--gate)
	[ -n "${INPUT_FAIL_ON:-}" ] && args+=(--fail-on "$INPUT_FAIL_ON")
	# A cache entry is trusted only under TRIBUNAL_CACHE_SECRET's HMAC; a
	# job without it would restore entries nobody can authenticate (and any
	# run on the PR's ref can write), so it keeps no cache at all.
	if [ -n "${INPUT_CACHE_DIR:-}" ] && [ -n "${TRIBUNAL_CACHE_SECRET:-}" ]; then
		args+=(--cache-dir "$INPUT_CACHE_DIR")
	elif [ -n "${INPUT_CACHE_DIR:-}" ] || [ "${INPUT_CACHE:-false}" = true ]; then
		echo "tribunal: the verdict cache is off: no cache-secret input (set it from a repository secret, e.g. \${{ secrets.TRIBUNAL_CACHE_SECRET }}), so cached verdicts could not be authenticated" >&2
	fi
	if [ -n "${INPUT_ARGS:-}" ]; then
		read -ra extra <<<"$INPUT_ARGS"
		args+=("${extra[@]}")
	fi
	rm -f "$tmp/review.md" "$tmp/review.sarif"
	env -u GITHUB_TOKEN tribunal-session "${args[@]}" || rc=$?
	if [ ! -s "$tmp/review.md" ] && [ "$rc" = 0 ]; then
		echo "tribunal: nothing to review in this pull request; no comment written" >&2
		return 0
	fi
	if [ ! -s "$tmp/review.md" ]; then
		echo "tribunal: error: the review wrote no result (exit $rc); see its messages above" >&2
		exit $((rc == 0 ? 1 : rc))
	fi
	printf '%s review.md %s\n' "$rc" "${INPUT_GATE:-false}" >"$tmp/decided"
}

# publish is the action's step that holds GITHUB_TOKEN (and no model key):
# it writes what review decided to the job summary, the outputs and the
# PR comment, then fails the job as the decision says.
publish() {
	local rc file gated sarif=() inline=() published=0
	[ -s "$tmp/decided" ] || return 0 # the review found nothing to review
	read -r rc file gated <"$tmp/decided"
	[ "$file" = review.md ] && [ -s "$tmp/review.sarif" ] && sarif=(--sarif "$tmp/review.sarif")
	# Review threads need the SARIF's located findings and the PR's diff.
	[ "${INPUT_INLINE:-true}" = true ] && [ ${#sarif[@]} -gt 0 ] && [ -s "$tmp/pr.diff" ] &&
		inline=(--inline --diff "$tmp/pr.diff")
	tribunal-session github publish --markdown "$tmp/$file" "${sarif[@]}" "${inline[@]}" --comment="${INPUT_COMMENT:-true}" || published=$?
	if [ "$file" = receipt.md ] && [ "$rc" != 0 ]; then
		echo "tribunal: error: the pull request's head has no valid receipt, and this job requires one (receipt: require)" >&2
		exit "$rc"
	fi
	[ "$published" = 0 ] || exit "$published"
	[ "$gated" = true ] && exit "$rc"
	return 0
}

case "${1:-}" in
install) install ;;
review) review ;;
publish) publish ;;
dismissals) dismissals ;;
reply) reply ;;
# run is both in one process, for a job that runs the script itself.
run) dismissals && review && publish ;;
*)
	echo "usage: $0 install|dismissals|review|publish|reply|run" >&2
	exit 2
	;;
esac
