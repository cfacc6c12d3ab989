#!/usr/bin/env bash
# Installs the pinned Claude Code CLI (package.json) into node_modules for
# the end-to-end tests in e2e/, with the pinned Codex and Gemini CLIs that
# the cross-family tests drive and the pinned SARIF validator
# (@microsoft/sarif-multitool, internal/present/reviewfmt's TestSARIFValidates)
# and the pinned MCP Inspector (@modelcontextprotocol/inspector, whose CLI
# mode e2e/mcp_test.go drives against tribunal-session mcp) and the pinned
# gitlab-ci-local (the GitLab template's test), then prints the path of the claude binary.
# Progress goes to stderr, so that CLAUDE_BIN=$(scripts/install-claude.sh)
# works. The e2e tests find the binary there on their own.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v npm >/dev/null 2>&1; then
	echo "tribunal: error: npm is not installed; the end-to-end tests need it to install Claude Code" >&2
	echo "tribunal: hint: install Node.js 20 or newer (npm included), e.g. apt-get install -y nodejs npm" >&2
	exit 1
fi
# Node 20 warns EBADENGINE (the CLI declares node >=22) but the package
# carries a native binary that does not use Node at run time.
if [ -f package-lock.json ]; then
	npm ci --no-audit --no-fund --loglevel=error >&2
else
	npm install --no-audit --no-fund --loglevel=error >&2
fi
bin="$PWD/node_modules/.bin/claude"
if ! "$bin" --version >/dev/null 2>&1; then
	echo "tribunal: error: $bin does not run (was the postinstall script skipped?)" >&2
	echo "tribunal: hint: run 'node node_modules/@anthropic-ai/claude-code/install.cjs'" >&2
	exit 1
fi
# The other families' CLIs (e2e/crossfamily_test.go). Both run on Node 20:
# the Codex CLI is a native binary, the Gemini CLI declares node >=20.
for cli in codex gemini; do
	if ! "$PWD/node_modules/.bin/$cli" --version >/dev/null 2>&1; then
		echo "tribunal: error: $PWD/node_modules/.bin/$cli does not run" >&2
		echo "tribunal: hint: run 'npm ci' in $PWD and check that Node.js 20 or newer is installed" >&2
		exit 1
	fi
done
if ! "$PWD/node_modules/.bin/sarif-multitool" --version >/dev/null 2>&1; then
	echo "tribunal: error: $PWD/node_modules/.bin/sarif-multitool does not run" >&2
	echo "tribunal: hint: run 'npm ci' in $PWD; the validator ships a native binary per platform (@microsoft/sarif-multitool-linux)" >&2
	exit 1
fi
# gitlab-ci-local runs ci/gitlab/tribunal-review.yml as a GitLab runner
# would (cmd/tribunal-session TestGitLabTemplateUnderGitLabCILocal); its
# re2 dependency is compiled by its install script when no prebuilt one
# downloads.
if ! "$PWD/node_modules/.bin/gitlab-ci-local" --version >/dev/null 2>&1; then
	echo "tribunal: error: $PWD/node_modules/.bin/gitlab-ci-local does not run" >&2
	echo "tribunal: hint: run 'npm rebuild re2' in $PWD (it needs gcc, make and python3)" >&2
	exit 1
fi
if ! "$PWD/node_modules/.bin/mcp-inspector" --version >/dev/null 2>&1; then
	echo "tribunal: error: $PWD/node_modules/.bin/mcp-inspector does not run" >&2
	echo "tribunal: hint: run 'npm ci' in $PWD and check that Node.js 20 or newer is installed" >&2
	exit 1
fi
echo "$bin"
