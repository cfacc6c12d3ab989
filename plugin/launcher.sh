#!/bin/sh
# Release launcher: runs the binary built for this machine. Installed as
# bin/<name> for every tribunal binary; the real programs live in
# bin/<os>-<arch>/<name>. It runs before every hook call of a release
# install, so it forks one child (uname) and nothing else: the directory
# and the name come from parameter expansion, not dirname and basename
# (a symlink to it costs one readlink more).
# A hook must never fail loudly, so on an unsupported platform a hook
# exits 0 after its two stderr lines; tribunal-session exits 2.
# A link to the launcher (tribunal-session put on PATH) is followed to
# the launcher itself: the binaries live beside it, under its name. Only
# a link costs a readlink; the plain path forks nothing for this.
self=$0
hops=0
while [ -L "$self" ] && [ $hops -lt 8 ]; do
	link=$(readlink "$self") || break
	case $link in
	/*) self=$link ;;
	*) self=${self%/*}/$link ;;
	esac
	hops=$((hops + 1))
done
case $self in
*/*) dir=${self%/*} ;;
*) dir=. ;;
esac
[ -n "$dir" ] || dir=/
name=${self##*/}
sm=$(uname -sm)
sys=${sm%% *}
mach=${sm##* }
case $sys in
Linux) os=linux ;;
Darwin) os=darwin ;;
*) os=unknown ;;
esac
case $mach in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) arch=unknown ;;
esac
bin="$dir/$os-$arch/$name"
if [ -x "$bin" ]; then
	exec "$bin" "$@"
fi
echo "tribunal: error: no $name binary for $sys/$mach in $dir" >&2
echo "tribunal: hint: build from source with 'make install' (needs Go 1.26)" >&2
case $name in
stop-gate | session-start | prompt-submit) exit 0 ;;
*) exit 2 ;;
esac
