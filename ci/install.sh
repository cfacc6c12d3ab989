#!/usr/bin/env bash
# Installs what a CI review job needs into DIR (default: $RUNNER_TEMP or
# /tmp, then tribunal): tribunal-session, built from this checkout, and the
# Claude Code CLI pinned in this checkout's package.json. Prints DIR/bin,
# the directory to put on PATH. Needs Go (go.mod's version) and npm.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/tribunal}
for tool in go npm node; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "tribunal: error: $tool is not installed; the review job needs it to install tribunal and Claude Code" >&2
		echo "tribunal: hint: use an image with Go $(sed -n 's/^go //p' "$here/go.mod") and Node.js 20 or newer" >&2
		exit 1
	fi
done
mkdir -p "$dir/bin"
version=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$here/plugin/.claude-plugin/plugin.json")
(cd "$here" && CGO_ENABLED=0 go build -trimpath \
	-ldflags "-s -w -X github.com/tribunal-cc/tribunal/internal/version.Version=$version" \
	-o "$dir/bin/" ./cmd/tribunal-session)
# TRIBUNAL_CLAUDE_BIN names a Claude Code CLI the runner already has (an
# offline runner; the act-driven tests): it is used instead of npm's.
if [ -n "${TRIBUNAL_CLAUDE_BIN:-}" ]; then
	ln -sf "$TRIBUNAL_CLAUDE_BIN" "$dir/bin/claude"
else
	claude=$(node -p "require(process.argv[1]).devDependencies['@anthropic-ai/claude-code']" "$here/package.json")
	npm install --prefix "$dir/npm" --no-audit --no-fund --loglevel=error "@anthropic-ai/claude-code@$claude" >&2
	ln -sf "$dir/npm/node_modules/.bin/claude" "$dir/bin/claude"
fi
"$dir/bin/claude" --version >&2
echo "$dir/bin"
