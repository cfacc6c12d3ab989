#!/usr/bin/env bash
# Builds the Jaeger that the otel test tier sends traces to (make test-otel,
# internal/testkit/testtier), at the version pinned in tools/jaeger/go.mod — a module
# of its own, so that Jaeger's large dependency graph never enters tribunal's
# go.mod. Built once per machine and kept outside the repository (about 5–10
# minutes on 2 cores; a 120 MB binary), then reused. Prints the binary's path.
#
# Environment:
#   TRIBUNAL_JAEGER_BIN   where the binary goes (and where the tests look);
#                         default $XDG_CACHE_HOME/tribunal/jaeger-<version>,
#                         else ~/.cache/tribunal/jaeger-<version>
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^[[:space:]]*github.com\/jaegertracing\/jaeger \(v[^ ]*\).*/\1/p' tools/jaeger/go.mod)
if [ -z "$version" ]; then
	echo "tribunal: error: tools/jaeger/go.mod pins no github.com/jaegertracing/jaeger version" >&2
	exit 2
fi
out=${TRIBUNAL_JAEGER_BIN:-${XDG_CACHE_HOME:-$HOME/.cache}/tribunal/jaeger-$version}
if [ ! -x "$out" ]; then
	mkdir -p "$(dirname "$out")"
	echo "tribunal: building jaeger $version into $out (a few minutes, once)" >&2
	(cd tools/jaeger && CGO_ENABLED=0 go build -trimpath -o "$out.tmp" github.com/jaegertracing/jaeger/cmd/jaeger)
	mv "$out.tmp" "$out"
fi
echo "$out"
