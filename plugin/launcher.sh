#!/bin/sh
# Release launcher: runs the binary built for this machine. Installed as
# bin/<name> for every tribunal binary; the real programs live in
# bin/<os>-<arch>/<name>. A hook must never fail loudly, so an unsupported
# platform is reported on stderr and the hook exits 0.
dir=$(dirname "$0")
name=$(basename "$0")
case $(uname -s) in
Linux) os=linux ;;
Darwin) os=darwin ;;
*) os=unknown ;;
esac
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) arch=unknown ;;
esac
bin="$dir/$os-$arch/$name"
if [ -x "$bin" ]; then
	exec "$bin" "$@"
fi
echo "tribunal: error: no $name binary for $(uname -s)/$(uname -m) in $dir" >&2
echo "tribunal: hint: build from source with 'make install' (needs Go 1.26)" >&2
case $name in
stop-gate | session-start) exit 0 ;;
*) exit 2 ;;
esac
