# shellcheck shell=bash
# Shared paths and helpers of the QEMU build scripts.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# The Makefile exports BUILD, which the launcher reads too.
BUILD=${BUILD:-${BLKSCALE_BUILD:-$TOP/build}}
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
QDIR=$BUILD/qemu
# Debian's source of the installed QEMU, as dpkg-source unpacks it, as a
# git repository: tag `base` is Debian's tree, HEAD is base + our series.
QSRC=$QDIR/src
QOBJ=$QDIR/obj
QOUT=$QDIR/out
QPATCHES=$TOP/qemu/patches
# The Debian package whose binary the launcher runs by default.
QEMU_BINARY_PACKAGE=qemu-system-x86
GIT_ID=(-c user.name="blkscale developers" -c user.email=blkscale@localhost
	-c core.compression=0 -c core.looseCompression=0 -c gc.auto=0)

die() {
	echo "qemu: $*" >&2
	exit 1
}

log() {
	echo "  QEMU    $*"
}

# "SOURCE VERSION" of the installed binary package: a binNMU (+bN) is
# built from the source version without its suffix, and dpkg says which.
installed_source() {
	dpkg-query -W -f='${source:Package} ${source:Version}' "$QEMU_BINARY_PACKAGE" 2>/dev/null ||
		die "$QEMU_BINARY_PACKAGE is not installed (make deps)"
}

# The patches of qemu/patches/series, in order, as paths.
series_patches() {
	local line
	[ -f "$QPATCHES/series" ] || return 0
	while read -r line; do
		line=${line%%#*}
		line=${line//[[:space:]]/}
		[ -n "$line" ] && echo "$QPATCHES/$line"
	done <"$QPATCHES/series"
}
