#!/usr/bin/env bash
# Installs the plugin assembled by `make plugin` into Claude Code through a
# local marketplace, then checks that Claude Code accepts it.
#
# Claude Code loads a directory marketplace from where it was added every
# time it starts, so the marketplace must not live in the clone: after
# `make clean` or moving the clone, `claude plugin list` would show
# "failed to load: cache-miss". It is copied to a stable place in the
# user's data directory first, and added from there.
#
#   install.sh [CLAUDE] [MARKETPLACE]     install (what `make install` runs)
#   install.sh --uninstall [CLAUDE]       remove it again (`make uninstall`)
set -euo pipefail
data_dir=${TRIBUNAL_DATA_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/tribunal}
market_abs=$data_dir/marketplace

# left_behind prints what uninstalling leaves — the store with every
# record, ledger and key, and Claude Code's copy of the plugin — and the
# commands that remove each, only for what exists. Nothing of it is removed
# here: the records and the ledger are the user's, to keep or delete.
left_behind() {
	onlooker=${ONLOOKER_DIR:-$HOME/.onlooker}
	claude_dir=${CLAUDE_CONFIG_DIR:-$HOME/.claude}
	set --
	for p in "$onlooker/tribunal" "$onlooker/tribunal-pending" "$onlooker/tribunal-cache" \
		"$onlooker"/keys/tribunal-ledger.key* "$onlooker/keys/review-cache.key" \
		"$claude_dir/plugins/cache/tribunal-local" "$claude_dir/plugins/data/tribunal-tribunal-local"; do
		[ -e "$p" ] && set -- "$@" "$p"
	done
	if [ $# -eq 0 ]; then
		echo "tribunal: uninstalled; nothing of it is left in $onlooker or $claude_dir/plugins"
		return
	fi
	echo "tribunal: uninstalled. Left in place, for you to keep or remove:"
	for p in "$@"; do
		case "$p" in
		"$claude_dir"/*) what="Claude Code's copy of the plugin" ;;
		*/keys/*) what="a signing key (ledger, receipts, review cache)" ;;
		*) what="records, ledgers and caches" ;;
		esac
		echo "  $p  ($what)"
	done
	echo "Remove them all with:"
	for p in "$@"; do
		printf '  rm -rf %q\n' "$p"
	done
	echo "The events log $onlooker/logs/onlooker-events.jsonl is shared with other onlooker tools."
	echo "In each repository where tasks ran, kept changes are on refs/tribunal/tasks/*; to drop them:"
	echo "  git for-each-ref --format='%(refname)' refs/tribunal/ | xargs -r -n1 git update-ref -d"
	echo "(receipts, on refs/notes/tribunal, are your team's too: keep them)"
}

if [ "${1:-}" = --uninstall ]; then
	claude_bin=${2:-claude}
	"$claude_bin" plugin uninstall tribunal@tribunal-local || true
	"$claude_bin" plugin marketplace remove tribunal-local || true
	rm -rf "$market_abs"
	# The link install made, only when it still points at that copy.
	link=$HOME/.local/bin/tribunal-session
	case "$(readlink "$link" 2>/dev/null)" in
	"$market_abs"/*) rm -f "$link" ;;
	esac
	left_behind
	exit 0
fi

claude_bin=${1:-claude}
market=${2:-dist/marketplace}
built=$(cd "$market" && pwd)

if ! command -v "$claude_bin" >/dev/null 2>&1; then
	cat >&2 <<MSG
tribunal: error: the Claude Code CLI ('$claude_bin') is not on PATH, so the plugin was built but not installed
tribunal: hint: install Claude Code, then run 'make install' again; or load it for one session with:
  claude --plugin-dir "$built/tribunal"
MSG
	exit 1
fi

# validate's report is addressed to authors submitting to the plugin
# directory (declare network.hosts, …): shown only when it fails.
if ! validated=$("$claude_bin" plugin validate "$built/tribunal" 2>&1); then
	printf '%s\n' "$validated" >&2
	echo "tribunal: error: 'claude plugin validate' refused the built plugin (above); nothing was installed" >&2
	exit 1
fi
echo "tribunal: the built plugin passed 'claude plugin validate'"
mkdir -p "$data_dir"
rm -rf "$market_abs.new"
cp -R "$built" "$market_abs.new"
rm -rf "$market_abs"
mv "$market_abs.new" "$market_abs"
# Re-installing replaces an older copy: remove first, ignoring "not installed".
"$claude_bin" plugin uninstall tribunal@tribunal-local >/dev/null 2>&1 || true
"$claude_bin" plugin marketplace remove tribunal-local >/dev/null 2>&1 || true
"$claude_bin" plugin marketplace add "$market_abs"
"$claude_bin" plugin install tribunal@tribunal-local

cat <<MSG

tribunal is installed. In any git repository:

  /tribunal <task>            run the task through Actor → Jury → Meta-Judge → Gate
  /tribunal:tribunal-log      recent tribunal verdicts for this project

Each /tribunal task calls an actor and several judges on strong models; a task
stops before it spends more than \$5 (tribunal.session.budget_usd; 'run --budget-usd'
raises it for one run), and every summary states the cost.

The advisory Stop-hook judge is off by default. Turn it on for a project with
  .claude/settings.json:  {"tribunal": {"stop_hook": {"enabled": true}}}
or for every project in ~/.claude/settings.json. See docs/configuration.md for every setting.

The plugin lives in $market_abs (a copy: 'make clean' or
moving this clone does not affect it; 'make install' again updates it).
MSG
# tribunal-session on PATH: a link in ~/.local/bin when that directory
# is on PATH already (most distributions' ~/.profile puts it there),
# else the line to add, which the README's Quick start also runs.
user_bin=$HOME/.local/bin
case ":$PATH:" in
*":$user_bin:"*)
	mkdir -p "$user_bin"
	ln -sfn "$market_abs/tribunal/bin/tribunal-session" "$user_bin/tribunal-session"
	echo "tribunal-session is on PATH: $user_bin/tribunal-session links to it"
	;;
*)
	cat <<MSG
To use tribunal-session from a terminal, put its directory on PATH, e.g. in ~/.profile:
  export PATH="$market_abs/tribunal/bin:\$PATH"
MSG
	;;
esac
"$market_abs/tribunal/bin/tribunal-session" version
