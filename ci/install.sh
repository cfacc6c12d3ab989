#!/usr/bin/env bash
# Installs what a CI review job needs: tribunal-session, built from this
# checkout, and the Claude Code CLI pinned in this checkout's package.json
# (and package-lock.json). Needs Go (go.mod's version), and npm and Node.js
# when the CLI is not cached.
#
#   install.sh [DIR]       install; DIR/bin (default $RUNNER_TEMP/tribunal/bin)
#                          gets links to both and is printed, to put on PATH
#   install.sh --cache-key print key=, path= and local= lines for
#                          $GITHUB_OUTPUT, for the Action's actions/cache steps
#
# Both are kept in a tool cache, TRIBUNAL_TOOL_CACHE, else
# $RUNNER_TOOL_CACHE/tribunal (a self-hosted runner keeps it between jobs),
# else DIR/cache, as two entries whose names cover everything that changes
# them: session-<go version>-<os>-<arch>-<hash of the sources> and
# claude-code-<pinned version>-<hash of package-lock.json>. The sources'
# hash stands in for the action's commit: `uses: owner/repo@ref` unpacks a
# tarball without .git, and a checkout with local edits must not reuse an
# older build. A later run reuses an entry without building; an entry is
# used only when its .complete marker names its key and its program
# reports the expected version, else it is rebuilt (one log line). A new
# entry is built in a scratch directory beside it and renamed into place
# once it checks out, so an interrupted build never leaves a usable-looking
# entry (a runner runs one job at a time, so no two jobs race on it).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
sum=sha256sum
command -v sha256sum >/dev/null 2>&1 || sum="shasum -a 256" # macOS runners

need() {
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "tribunal: error: $1 is not installed; the review job needs it to install tribunal and Claude Code" >&2
		echo "tribunal: hint: use an image with Go $(sed -n 's/^go //p' "$here/go.mod") and Node.js 20 or newer" >&2
		exit 1
	fi
}

# keys sets version, claude and the two entries' keys. Go's version and
# platform come from `go env` in the checkout, so a toolchain go.mod
# selects is the one named.
keys() {
	local goenv sources
	need go
	goenv=$(cd "$here" && go env GOVERSION GOOS GOARCH | paste -sd- -)
	# Every file the binary is built from, and this script (its flags).
	sources=$(cd "$here" && find go.mod go.sum ci/install.sh plugin/.claude-plugin/plugin.json cmd internal -type f -print0 |
		LC_ALL=C sort -z | xargs -0 $sum | $sum | cut -c1-16)
	session_key="session-$goenv-$sources"
	version=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$here/plugin/.claude-plugin/plugin.json")
	claude=$(sed -n 's/^ *"@anthropic-ai\/claude-code": *"\([^"]*\)".*/\1/p' "$here/package.json")
	claude_key="claude-code-$claude-$($sum <"$here/package-lock.json" | cut -c1-16)"
}

cache_root() {
	if [ -n "${TRIBUNAL_TOOL_CACHE:-}" ]; then
		echo "$TRIBUNAL_TOOL_CACHE"
	elif [ -n "${RUNNER_TOOL_CACHE:-}" ]; then
		echo "$RUNNER_TOOL_CACHE/tribunal"
	else
		echo "$1/cache"
	fi
}

# checks ENTRY KEY PROGRAM WANT: the entry is complete and PROGRAM
# --version prints WANT (claude appends " (Claude Code)"); on a mismatch it
# prints why and fails.
checks() {
	local got
	if [ "$(cat "$1/.complete" 2>/dev/null)" != "$2" ]; then
		echo "it is incomplete (no .complete marker naming its key)"
		return 1
	fi
	got=$("$1/$3" --version 2>&1 | head -n 1) || true
	case "$got" in
	"$4" | "$4 "*) return 0 ;;
	esac
	echo "$3 --version says \"$got\", want \"$4\""
	return 1
}

# provide NAME KEY PROGRAM WANT BUILDER: reuses the entry NAME in the
# cache when it checks out, else builds it with BUILDER into a scratch
# directory and renames that into place. Prints nothing on stdout.
provide() {
	local entry="$root/$2" why scratch
	if [ -e "$entry" ]; then
		if why=$(checks "$entry" "$2" "$3" "$4"); then
			echo "tribunal: $1 from the tool cache ($entry)" >&2
			return 0
		fi
		echo "tribunal: the tool cache's $1 ($entry) is not used: $why; installing it again" >&2
	fi
	mkdir -p "$root"
	rm -rf "$root/.partial-$2".* # a build a cancelled job left
	scratch=$(mktemp -d "$root/.partial-$2.XXXXXX")
	chmod 755 "$scratch"
	"$5" "$scratch" >&2
	echo "$2" >"$scratch/.complete"
	if ! why=$(checks "$scratch" "$2" "$3" "$4"); then
		echo "tribunal: error: the $1 just installed does not check out: $why" >&2
		rm -rf "$scratch"
		exit 1
	fi
	rm -rf "$entry"
	mv "$scratch" "$entry"
	echo "tribunal: $1 installed in the tool cache ($entry)" >&2
}

# build_session builds tribunal-session and the helper programs it finds
# only in its own directory (tribunal-schema: a rubric's json_schema
# evaluators; tribunal-otel: telemetry), so they share the entry that
# $dir/bin/tribunal-session links to.
build_session() {
	(cd "$here" && CGO_ENABLED=0 go build -trimpath \
		-ldflags "-s -w -X github.com/tribunal-cc/tribunal/internal/version.Version=$version" \
		-o "$1/" ./cmd/tribunal-session ./cmd/tribunal-schema ./cmd/tribunal-otel)
}

build_claude() {
	need npm
	need node
	npm install --prefix "$1/npm" --no-audit --no-fund --loglevel=error "@anthropic-ai/claude-code@$claude"
	# Relative, so the entry still works once renamed into place or
	# restored by actions/cache elsewhere.
	mkdir -p "$1/bin"
	ln -s ../npm/node_modules/.bin/claude "$1/bin/claude"
}

if [ "${1:-}" = --cache-key ]; then
	keys
	root=$(cache_root "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/tribunal")
	paths=("$root/$session_key")
	key="tribunal-$session_key"
	# TRIBUNAL_CLAUDE_BIN: the runner's own CLI, never cached.
	if [ -z "${TRIBUNAL_CLAUDE_BIN:-}" ]; then
		paths+=("$root/$claude_key")
		key="$key-$claude_key"
	fi
	local_hit=true
	for p in "${paths[@]}"; do [ -f "$p/.complete" ] || local_hit=false; done
	echo "key=$key"
	printf 'path<<TRIBUNAL_PATHS\n%s\nTRIBUNAL_PATHS\n' "$(printf '%s\n' "${paths[@]}")"
	echo "local=$local_hit"
	exit 0
fi

dir=${1:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/tribunal}
keys
root=$(cache_root "$dir")
mkdir -p "$dir/bin"
provide tribunal-session "$session_key" tribunal-session "tribunal-session $version" build_session
ln -sfn "$root/$session_key/tribunal-session" "$dir/bin/tribunal-session"
# TRIBUNAL_CLAUDE_BIN names a Claude Code CLI the runner already has (an
# offline runner; the act-driven tests): it is used instead of npm's.
if [ -n "${TRIBUNAL_CLAUDE_BIN:-}" ]; then
	ln -sfn "$TRIBUNAL_CLAUDE_BIN" "$dir/bin/claude"
else
	provide "Claude Code" "$claude_key" bin/claude "$claude" build_claude
	ln -sfn "$root/$claude_key/bin/claude" "$dir/bin/claude"
fi
echo "$dir/bin"
