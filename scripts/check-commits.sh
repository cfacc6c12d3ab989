#!/usr/bin/env bash
# Checks the commit messages since a given ref against the house rule:
# a subject of at most 72 characters (what changed, "pkg: what changed")
# and a body after a blank line that says why. git log --oneline, GitHub
# and most terminals cut a longer subject; a commit without a body leaves
# the next reader only the diff to guess the reason from.
#
#   scripts/check-commits.sh REF      every non-merge commit in REF..HEAD
#
# For the commits a branch adds (e.g. scripts/check-commits.sh origin/main),
# not for the history before the rule: old commits are not rewritten. Prints
# one line per commit that breaks the rule and exits 1 if any does.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "tribunal: error: scripts/check-commits.sh takes one ref, the commit the checked range starts after" >&2
	echo "tribunal: hint: scripts/check-commits.sh main" >&2
	exit 2
fi
base=$1
if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
	echo "tribunal: error: '$base' names no commit in this repository" >&2
	echo "tribunal: hint: give a branch, tag or commit, e.g. main or HEAD~5" >&2
	exit 2
fi

max=72
bad=0
checked=0
while IFS= read -r commit; do
	checked=$((checked + 1))
	subject=$(git log -1 --format=%s "$commit")
	# The body: its lines that are neither blank nor a common trailer
	# (Signed-off-by: and the like are not a why).
	body=$(git log -1 --format=%b "$commit" |
		grep -Eiv '^[[:space:]]*$|^(signed-off-by|co-authored-by|reviewed-by|acked-by|change-id): ' || true)
	short=$(git rev-parse --short "$commit")
	# Characters, not bytes: a subject may hold "→" or "§".
	len=$(printf '%s' "$subject" | LC_ALL=C.UTF-8 wc -m)
	if [ "$len" -gt "$max" ]; then
		echo "$short: subject is $len characters, over $max: $subject"
		bad=$((bad + 1))
	fi
	if [ -z "$body" ]; then
		echo "$short: no body says why: $subject"
		bad=$((bad + 1))
	fi
done < <(git rev-list --no-merges --reverse "$base..HEAD")

if [ "$bad" -gt 0 ]; then
	echo "tribunal: error: $bad problem(s) in the $checked commit(s) after $base" >&2
	echo "tribunal: hint: subjects of at most $max characters, then a blank line and why; git commit --amend or git rebase -i $base to reword" >&2
	exit 1
fi
echo "tribunal: $checked commit(s) after $base: subjects ≤ $max characters, each with a body"
