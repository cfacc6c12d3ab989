#!/usr/bin/env bash
# The GitLab CI job of ci/gitlab/tribunal-review.yml: reviews a merge
# request's change and writes, in the job's directory, the Code Quality
# report (gl-code-quality-report.json, shown in the merge request), the
# comment body (tribunal-review.md) and SARIF (tribunal-review.sarif).
# tribunal-session and claude must be on PATH (ci/install.sh).
#
# Advisory unless TRIBUNAL_GATE=true: the job fails only when no review
# could be written. TRIBUNAL_ARGS adds arguments to the review.
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

args=(review --base "$base" --head "$head" --task-file "$task"
	--output "md=$out/tribunal-review.md" --output "sarif=$out/tribunal-review.sarif"
	--output "codequality=$out/gl-code-quality-report.json")
[ "${TRIBUNAL_GATE:-false}" = true ] && args+=(--gate)
if [ -n "${TRIBUNAL_ARGS:-}" ]; then
	read -ra extra <<<"$TRIBUNAL_ARGS"
	args+=("${extra[@]}")
fi
rc=0
tribunal-session "${args[@]}" || rc=$?
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
if [ "${TRIBUNAL_GATE:-false}" = true ]; then
	exit "$rc"
fi
