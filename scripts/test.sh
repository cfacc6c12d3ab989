#!/usr/bin/env bash
# Runs one tier of the test suite; the Makefile's test targets call it.
#
#   scripts/test.sh [test]     gofmt, go vet, go test ./... (the default tier: unit,
#                              testscript end-to-end runs of every binary against a
#                              scripted fake claude, fault tests). What a contributor
#                              runs before committing.
#   scripts/test.sh race       the default tier under the race detector
#   scripts/test.sh load       the race-detector suite LOAD_COUNT (3) more times with
#                              every CPU kept busy
#   scripts/test.sh fuzz       a FUZZTIME (8s) coverage-guided run of every fuzz target
#   scripts/test.sh e2e|browser|calibration|stress|otel|bench
#                              one slow tier (internal/testkit/testtier), under -race
#   scripts/test.sh fmt        gofmt -w every directory that go vet ./... checks
#   scripts/test.sh staticcheck
#                              staticcheck (pinned below) over the code and its tests
#   scripts/test.sh check      everything CI runs: gofmt, vet, staticcheck, every
#                              tier under -race, every tier but calibration once
#                              more under load
#                              (LOAD_COUNT, if set, says how many times), the fuzz
#                              targets
#
# The slow tiers are opt-in through TRIBUNAL_TIERS (internal/testkit/testtier); a
# tier that is not selected skips, and every such skip is printed once at
# the end of the run. With CI set, a selected tier that lacks what it
# needs (claude, chromium) fails instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZTIME=${FUZZTIME:-8s}
# check's loaded pass runs once unless LOAD_COUNT is given: three times
# the session runner's scripts under -race and busy CPUs would take CI past
# its time limit on two cores; make test-load runs it three times.
CHECK_LOAD_COUNT=${LOAD_COUNT:-1}
LOAD_COUNT=${LOAD_COUNT:-3}

# gotest runs go test with its arguments, printing plain go test output
# followed by one line per skipped tier (go test -json keeps the skip
# lines that plain go test hides for passing packages).
gotest() {
	CGO_ENABLED=0 go build -o build/test/summary ./internal/testkit/testtier/summary
	go test -json "$@" 2>&1 | build/test/summary
}

# race needs cgo (and a C compiler); the release builds are static and
# turn it off, so switch it back on here whatever the caller exported.
need_race() {
	export CGO_ENABLED=1
	if ! command -v "$(go env CC)" >/dev/null 2>&1; then
		echo "tribunal: error: the race detector needs a C compiler ($(go env CC)), which is not installed" >&2
		echo "tribunal: hint: apt-get install -y gcc" >&2
		exit 1
	fi
}

# godirs prints the top-level directories that hold the module's packages:
# the ones go vet ./... checks, so that gofmt (lint, make fmt) covers the
# same code and a new top-level directory is covered without a list to edit.
godirs() {
	local module
	module=$(go list -m)
	go list ./... | sed -e "s|^$module\$|.|" -e "s|^$module/||" | cut -d/ -f1 | sort -u
}

format() {
	# shellcheck disable=SC2046 # one word per directory
	gofmt -l -w $(godirs)
}

lint() {
	echo "== go $(go env GOVERSION), $(git --version)"
	local unformatted
	# shellcheck disable=SC2046 # one word per directory
	unformatted=$(gofmt -l $(godirs))
	if [ -n "$unformatted" ]; then
		echo "tribunal: error: gofmt would change these files:" >&2
		echo "$unformatted" >&2
		exit 1
	fi
	echo "== go vet"
	go vet ./...
}

# staticcheck, at the version pinned here: go run fetches it through the Go
# module proxy on first use (into the module cache, never into go.mod) and
# reuses the cached build after. It checks the test files too: a test that
# compares a value with itself or calls a deprecated API is as wrong as
# product code that does.
STATICCHECK=honnef.co/go/tools/cmd/staticcheck@v0.8.2

staticcheck() {
	echo "== staticcheck ${STATICCHECK#*@}"
	go run "$STATICCHECK" ./...
}

quick() {
	lint
	echo "== go test ./..."
	gotest ./...
}

# go test's default per-package limit is 10 minutes; the slowest packages
# (the session runner's scripts, the stress tier) run close to that under
# -race on a 2-CPU runner, and their scripts are then stopped mid-command
# with SIGQUIT. The limits below are for the whole package binary.
race() {
	need_race
	echo "== go test -race ./...${TRIBUNAL_TIERS:+ (tiers: $TRIBUNAL_TIERS)}"
	gotest -race -count=1 -timeout=40m ./...
}

# The same suite again, LOAD_COUNT times, with every CPU kept busy by a
# plain shell loop: a test that synchronises by sleeping, or assumes a
# deadline is met on an idle machine, fails here instead of flaking later
# on a developer's laptop or a shared CI runner.
load() {
	need_race
	# load_pids is global: the EXIT trap that reads it runs after this
	# function has returned when a test fails under set -e.
	local cpus
	load_pids=()
	cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
	echo "== go test -race -count=${LOAD_COUNT} ./... under load (${cpus} busy loops)${TRIBUNAL_TIERS:+ (tiers: $TRIBUNAL_TIERS)}"
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
	gotest -race -count="$LOAD_COUNT" -timeout=$((LOAD_COUNT * 30 + 10))m ./...
	stop_load
	trap - EXIT INT TERM
}

fuzz() {
	echo "== fuzz (${FUZZTIME} per target)"
	# Every Fuzz* function gets a short coverage-guided run; the committed
	# seed corpora run in every tier as ordinary tests.
	local line file name pkg out attempt
	while IFS= read -r line; do
		file=${line%%:*}
		name=$(sed -E 's/^func (Fuzz[A-Za-z0-9_]*).*/\1/' <<<"${line#*:}")
		pkg=./$(dirname "$file")
		echo "-- $pkg $name"
		# Go 1.26's fuzz coordinator can fail a target with a bare "context
		# deadline exceeded" when -fuzztime runs out while a worker is
		# mid-call (go.dev/issue/75804, fixed in Go 1.27). That failure
		# writes no failing input; it earns one more run, and any other
		# failure (or a second one) fails the suite.
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
}

# tier runs the packages that hold one slow tier's tests, with that tier
# selected (internal/testkit/testtier lists the tiers).
tier() {
	local name=$1 pkgs run=.
	case $name in
	e2e) pkgs=./e2e ;;
	browser) pkgs=./internal/present/report ;;
	calibration) pkgs=./internal/judging/calibrate ;;
	stress) pkgs=./internal/testkit/stress ;;
	bench) pkgs=./scripts ;;
	otel)
		# The tier's one test, not the rest of the package's suite; the
		# pinned Jaeger is built on first use (scripts/build-jaeger.sh).
		pkgs=./cmd/tribunal-session run=TestOTelScripts
		TRIBUNAL_JAEGER_BIN=$(scripts/build-jaeger.sh)
		export TRIBUNAL_JAEGER_BIN
		;;
	esac
	need_race
	echo "== tier $name: go test -race -run $run $pkgs"
	TRIBUNAL_TIERS=$name gotest -race -count=1 -timeout=30m -run "$run" $pkgs
}

case ${1:-test} in
test) quick ;;
fmt)
	format
	exit 0
	;;
staticcheck) staticcheck ;;
race) race ;;
load) load ;;
fuzz) fuzz ;;
e2e | browser | calibration | stress | otel | bench) tier "$1" ;;
check)
	# Every tier, as CI has always run them: the race pass and the loaded
	# pass each cover the slow tiers too.
	export TRIBUNAL_TIERS=all
	# The otel tier's receiver, built once per machine (minutes, cached).
	TRIBUNAL_JAEGER_BIN=$(scripts/build-jaeger.sh)
	export TRIBUNAL_JAEGER_BIN
	lint
	staticcheck
	race
	# The calibration tier re-derives labels by running the sets'
	# programs (deterministic, minutes of python3), and the bench tier
	# runs timing scripts once: load adds nothing to either but time, so
	# the loaded pass runs the other tiers.
	LOAD_COUNT=$CHECK_LOAD_COUNT TRIBUNAL_TIERS=e2e,browser,stress,otel load
	fuzz
	;;
*)
	echo "tribunal: error: unknown test tier '$1'" >&2
	echo "tribunal: hint: scripts/test.sh [test|fmt|staticcheck|race|load|fuzz|e2e|browser|calibration|stress|otel|bench|check]" >&2
	exit 2
	;;
esac
echo "== all tests passed"
