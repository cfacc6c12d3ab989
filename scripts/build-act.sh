#!/usr/bin/env bash
# Builds nektos/act, which runs action.yml as a GitHub Actions runner does
# (host executor, offline) for the e2e tier's TestReviewActionUnderAct, at
# the version pinned in tools/act/go.mod — a module of its own, so that
# act's dependency graph never enters tribunal's go.mod. Built once per
# machine and kept outside the repository, then reused. Prints the path.
#
# Environment:
#   ACT_BIN   where the binary goes (and where the test looks); default
#             $XDG_CACHE_HOME/tribunal/act-<version>, else
#             ~/.cache/tribunal/act-<version>
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^[[:space:]]*github.com\/nektos\/act \(v[^ ]*\).*/\1/p' tools/act/go.mod)
if [ -z "$version" ]; then
	echo "tribunal: error: tools/act/go.mod pins no github.com/nektos/act version" >&2
	exit 2
fi
out=${ACT_BIN:-${XDG_CACHE_HOME:-$HOME/.cache}/tribunal/act-$version}
if [ ! -x "$out" ]; then
	mkdir -p "$(dirname "$out")"
	echo "tribunal: building act $version into $out (a minute or two, once)" >&2
	(cd tools/act && CGO_ENABLED=0 go build -trimpath -o "$out.tmp" github.com/nektos/act)
	mv "$out.tmp" "$out"
fi
echo "$out"
