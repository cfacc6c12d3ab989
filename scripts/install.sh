#!/usr/bin/env bash
# Installs the plugin assembled by `make plugin` into Claude Code through a
# local marketplace, then checks that Claude Code accepts it.
set -euo pipefail
claude_bin=${1:-claude}
market=${2:-dist/marketplace}
market_abs=$(cd "$market" && pwd)

if ! command -v "$claude_bin" >/dev/null 2>&1; then
	cat >&2 <<MSG
tribunal: error: the Claude Code CLI ('$claude_bin') is not on PATH, so the plugin was built but not installed
tribunal: hint: install Claude Code, then run 'make install' again; or load it for one session with:
  claude --plugin-dir "$market_abs/tribunal"
MSG
	exit 1
fi

"$claude_bin" plugin validate "$market_abs/tribunal"
# Re-installing replaces an older copy: remove first, ignoring "not installed".
"$claude_bin" plugin uninstall tribunal@tribunal-local >/dev/null 2>&1 || true
"$claude_bin" plugin marketplace remove tribunal-local >/dev/null 2>&1 || true
"$claude_bin" plugin marketplace add "$market_abs"
"$claude_bin" plugin install tribunal@tribunal-local

cat <<MSG

tribunal is installed. In any git repository:

  /tribunal <task>            run the task through Actor → Jury → Meta-Judge → Gate
  /tribunal-log               recent tribunal verdicts for this project

The advisory Stop-hook judge is off by default. Turn it on for a project with
  .claude/settings.json:  {"tribunal": {"stop_hook": {"enabled": true}}}
or for every project in ~/.claude/settings.json. See README.md for every setting.
MSG
"$market_abs/tribunal/bin/tribunal-session" version
