# shellcheck shell=bash
# Shared paths and helpers for the kernel build scripts.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BLKSCALE_BUILD:-$TOP/build}
LINUX_TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
# Pristine tree as a git repository: variants are worktrees of it, so
# `git diff` between variants is exactly the patch series.
LINUX_GIT=$BUILD/linux
KOUT=$BUILD/kernel
GIT_ID=(-c user.name=blkscale -c user.email=blkscale@localhost
	-c core.compression=0 -c core.looseCompression=0 -c gc.auto=0)

die() {
	echo "kernel: $*" >&2
	exit 1
}

log() {
	echo "  KERNEL  $*"
}

# Source tree and build directory of a variant.  The build directory sits
# directly inside the source tree so that kbuild uses the relative srctree
# "..": the compiler then sees identical paths in every variant and ccache
# shares objects between stock and patched.
variant_src() {
	case $1 in
	stock) echo "$KOUT/stock" ;;
	patched|debug) echo "$KOUT/patched" ;;
	*) die "unknown variant '$1' (stock, patched, debug)" ;;
	esac
}

variant_obj() {
	echo "$(variant_src "$1")/.obj-$1"
}

variant_out() {
	echo "$KOUT/out/$1"
}

# Config fragments of a variant, in order.
variant_fragments() {
	echo "$TOP/kernel/configs/blkscale.config"
	if [ "$1" = debug ]; then
		echo "$TOP/kernel/configs/debug.config"
	fi
}
