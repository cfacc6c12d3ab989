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

echo "== go test -race"
go test -race -count=1 ./...

echo "== fuzz (${FUZZTIME} per target)"
# Every Fuzz* function gets a short coverage-guided run; the committed seed
# corpora already ran above as ordinary tests.
while IFS= read -r line; do
	file=${line%%:*}
	name=$(sed -E 's/^func (Fuzz[A-Za-z0-9_]*).*/\1/' <<<"${line#*:}")
	pkg=./$(dirname "$file")
	echo "-- $pkg $name"
	go test -run='^$' -fuzz="^${name}\$" -fuzztime="$FUZZTIME" "$pkg"
done < <(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' cmd internal | sed -E 's/^([^:]*):[0-9]+:/\1:/')
echo "== all tests passed"
