#!/usr/bin/env bash
# Runs every test: formatting, vet, the unit and end-to-end suites under the
# race detector, and a short run of every fuzz target. `make test` calls it;
# so does CI.
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZTIME=${FUZZTIME:-8s}
# -race needs cgo (and a C compiler); the release builds are static and
# turn it off, so switch it back on here whatever the caller exported.
export CGO_ENABLED=1
if ! command -v "$(go env CC)" >/dev/null 2>&1; then
	echo "tribunal: error: the race detector needs a C compiler ($(go env CC)), which is not installed" >&2
	echo "tribunal: hint: apt-get install -y gcc" >&2
	exit 1
fi

echo "== go $(go env GOVERSION), $(git --version)"
unformatted=$(gofmt -l cmd internal e2e)
if [ -n "$unformatted" ]; then
	echo "tribunal: error: gofmt would change these files:" >&2
	echo "$unformatted" >&2
	exit 1
fi
echo "== go vet"
go vet ./...

# go test's default per-package limit is 10 minutes; the slowest packages
# (the session runner's scripts, the stress suite) run close to that under
# -race on a 2-CPU runner, and their scripts are then stopped mid-command
# with SIGQUIT. The limits below are for the whole package binary.
echo "== go test -race"
go test -race -count=1 -timeout=30m ./...

# The same suite again, three times, with every CPU kept busy by a plain
# shell loop: a test that synchronises by sleeping, or assumes a deadline
# is met on an idle machine, fails here instead of flaking later on a
# developer's laptop or a shared CI runner. LOAD_COUNT=0 skips this pass
# (it roughly doubles each run's duration and costs three of them).
LOAD_COUNT=${LOAD_COUNT:-3}
if [ "$LOAD_COUNT" -gt 0 ]; then
	cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
	echo "== go test -race -count=${LOAD_COUNT} under load (${cpus} busy loops)"
	load_pids=()
	stop_load() {
		if [ ${#load_pids[@]} -gt 0 ]; then
			kill "${load_pids[@]}" 2>/dev/null || true
			wait "${load_pids[@]}" 2>/dev/null || true
			load_pids=()
		fi
	}
	trap stop_load EXIT
	trap 'stop_load; exit 130' INT TERM
	for _ in $(seq "$cpus"); do
		(while :; do :; done) &
		load_pids+=($!)
	done
	go test -race -count="$LOAD_COUNT" -timeout=$((LOAD_COUNT * 20))m ./...
	stop_load
	trap - EXIT INT TERM
fi

echo "== fuzz (${FUZZTIME} per target)"
# Every Fuzz* function gets a short coverage-guided run; the committed seed
# corpora already ran above as ordinary tests.
while IFS= read -r line; do
	file=${line%%:*}
	name=$(sed -E 's/^func (Fuzz[A-Za-z0-9_]*).*/\1/' <<<"${line#*:}")
	pkg=./$(dirname "$file")
	echo "-- $pkg $name"
	# Go 1.26's fuzz coordinator can fail a target with a bare "context
	# deadline exceeded" when -fuzztime runs out while a worker is mid-call
	# (go.dev/issue/75804, fixed in Go 1.27). That failure writes no
	# failing input; it earns one more run, and any other failure (or a
	# second one) fails the suite.
	for attempt in 1 2; do
		if out=$(go test -run='^$' -fuzz="^${name}\$" -fuzztime="$FUZZTIME" "$pkg" 2>&1); then
			echo "$out"
			break
		fi
		echo "$out"
		if [ "$attempt" = 1 ] && grep -q '^    context deadline exceeded$' <<<"$out" && ! grep -q 'Failing input written to' <<<"$out"; then
			echo "tribunal: $name stopped on the fuzz coordinator's deadline race (go.dev/issue/75804), not on an input; running it again" >&2
			continue
		fi
		exit 1
	done
done < <(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' cmd internal | sed -E 's/^([^:]*):[0-9]+:/\1:/')
echo "== all tests passed"
