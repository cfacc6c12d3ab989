#!/usr/bin/env bash
# The GitLab CI job of ci/gitlab/tribunal-review.yml: reviews a merge
# request's change and writes, in the job's directory, the Code Quality
# report (gl-code-quality-report.json, shown in the merge request), the
# comment body (tribunal-review.md), the review as JSON
# (tribunal-review.json) and SARIF (tribunal-review.sarif). With
# TRIBUNAL_GITLAB_TOKEN set it keeps the review on the merge request
# (tribunal-session gitlab publish): one note, and a discussion per
# finding on a changed line unless TRIBUNAL_INLINE=false. A note that
# could not be written is a warning, never the job's failure.
# tribunal-session and claude must be on PATH (ci/install.sh).
#
# Advisory unless TRIBUNAL_GATE is true or 1: the job fails only when no
# review could be written. TRIBUNAL_ARGS adds arguments to the review.
set -euo pipefail

: "${CI_MERGE_REQUEST_IID:?run this job in a merge request pipeline (rules: if: \$CI_PIPELINE_SOURCE == \"merge_request_event\")}"
base=${CI_MERGE_REQUEST_DIFF_BASE_SHA:?GitLab did not set CI_MERGE_REQUEST_DIFF_BASE_SHA}
head=${CI_COMMIT_SHA:?}
out=${TRIBUNAL_OUT:-$PWD}
task=$(mktemp)
trap 'rm -f "$task"' EXIT
printf '%s\n\n%s\n' "${CI_MERGE_REQUEST_TITLE:-}" "${CI_MERGE_REQUEST_DESCRIPTION:-}" >"$task"
# A shallow clone (GIT_DEPTH) may lack the base; fetch it if so.
git cat-file -e "$base^{commit}" 2>/dev/null || git fetch --no-tags --quiet origin "$base" || true

gate=false
case "${TRIBUNAL_GATE:-false}" in true | 1 | yes) gate=true ;; esac
args=(review --base "$base" --head "$head" --task-file "$task"
	--output "md=$out/tribunal-review.md" --output "sarif=$out/tribunal-review.sarif"
	--output "json=$out/tribunal-review.json"
	--output "codequality=$out/gl-code-quality-report.json")
[ "$gate" = true ] && args+=(--gate)
if [ -n "${TRIBUNAL_ARGS:-}" ]; then
	read -ra extra <<<"$TRIBUNAL_ARGS"
	args+=("${extra[@]}")
fi
rc=0
# The judges never hold the token that writes to the merge request, and
# the publishing step never holds the model key.
env -u TRIBUNAL_GITLAB_TOKEN tribunal-session "${args[@]}" || rc=$?
if [ ! -s "$out/tribunal-review.md" ]; then
	if [ "$rc" = 0 ]; then
		echo "tribunal: nothing to review in this merge request" >&2
		echo "[]" >"$out/gl-code-quality-report.json"
		exit 0
	fi
	echo "tribunal: error: the review wrote no result (exit $rc); see its messages above" >&2
	exit "$rc"
fi
cat "$out/tribunal-review.md"
if [ -n "${TRIBUNAL_GITLAB_TOKEN:-}" ]; then
	inline=true
	[ "${TRIBUNAL_INLINE:-true}" = false ] && inline=false
	env -u ANTHROPIC_API_KEY -u ANTHROPIC_AUTH_TOKEN -u CLAUDE_CODE_OAUTH_TOKEN tribunal-session gitlab publish --markdown "$out/tribunal-review.md" --json "$out/tribunal-review.json" --inline="$inline" ||
		echo "tribunal: warning: the merge request note was not written (above); the review is in the job log and the artifacts" >&2
else
	echo "tribunal: no TRIBUNAL_GITLAB_TOKEN: the review is in the job log and the artifacts only, not on the merge request" >&2
fi
if [ "$gate" = true ]; then
	exit "$rc"
fi
