#!/usr/bin/env bash
# bench-receipts.sh: receipts written and verified per second on a range of
# 1,000 commits (internal/store/receipt's BenchmarkReceiptsRange).
#
# The benchmark builds a repository of 1,001 commits with git fast-import,
# signs a receipt for each of the last 1,000 and merges it into its note
# (receipt.Write: one batch read of the existing notes, then one notes
# commit by git fast-import for the whole range), then verifies the range as
# `tribunal-session verify-receipt main~1000..main` does (one rev-list, one
# notes list, one cat-file --batch, then signature and tree checks).
#
# Environment:
#   COUNT   repetitions (default 1; each writes and verifies 1,000 receipts)
#
# Exit status: 0 on a completed run, 1 when the benchmark fails.
set -euo pipefail
export LC_ALL=C

case "${1:-}" in
-h | --help)
	sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 0
	;;
esac

COUNT=${COUNT:-1}
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
echo "git: $(git --version)"
go test -run '^$' -bench '^BenchmarkReceiptsRange$' -benchtime 1x -count "$COUNT" ./internal/store/receipt |
	awk '/^BenchmarkReceiptsRange/ {
		for (i = 1; i <= NF; i++) {
			if ($i == "written/s") w = $(i-1)
			if ($i == "verified/s") v = $(i-1)
		}
		printf "1000-commit range: %s receipts written/s, %s verified/s\n", w, v
		ok = 1
	}
	END { exit ok ? 0 : 1 }'
