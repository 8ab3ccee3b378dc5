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
	stock|stock-blktests) echo "$KOUT/stock" ;;
	patched|debug|patched-blktests) echo "$KOUT/patched" ;;
	*) die "unknown variant '$1' (stock, patched, debug, stock-blktests, patched-blktests)" ;;
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
	case $1 in
	debug) echo "$TOP/kernel/configs/debug.config" ;;
	*-blktests) echo "$TOP/kernel/configs/blktests.config" ;;
	esac
}

# A git worktree of the pristine tree at base, ignoring build output.
add_worktree() {
	local src=$1 gitdir
	shift
	mkdir -p "$(dirname "$src")"
	git -C "$LINUX_GIT" worktree prune
	git -C "$LINUX_GIT" worktree add -q "$@" "$src" base
	gitdir=$(git -C "$src" rev-parse --git-dir)
	mkdir -p "$gitdir/info"
	printf '/.obj-*\n/.scmversion\n' >>"$gitdir/info/exclude"
}

# Write OBJ/.config for VARIANT: tinyconfig (allnoconfig over the tiny
# fragments) with our fragments last.  Every option a fragment asks for
# must survive kconfig's dependencies; .config is replaced only when it
# changed, so kbuild keeps its objects.
configure_tree() {
	local src=$1 obj=$2 variant=$3 log=$4 f line sym missing=
	mkdir -p "$obj"
	{
		cat "$src/kernel/configs/tiny-base.config" \
			"$src/kernel/configs/tiny.config" \
			"$src/arch/x86/configs/tiny.config"
		for f in $(variant_fragments "$variant"); do cat "$f"; done
	} >"$obj/blkscale.allconfig"
	KCONFIG_ALLCONFIG=$obj/blkscale.allconfig make -s -C "$src" O="$obj" \
		KCONFIG_CONFIG=.config.new allnoconfig >"$log" 2>&1 ||
		die "$variant: configuration failed (see $log)"
	for f in $(variant_fragments "$variant"); do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*)
				grep -qxF "$line" "$obj/.config.new" ||
					missing="$missing ${line%%=*}(${f#"$TOP"/})" ;;
			"# CONFIG_"*" is not set")
				sym=${line#\# }
				sym=${sym%% *}
				! grep -q "^$sym=" "$obj/.config.new" ||
					missing="$missing $sym(${f#"$TOP"/})" ;;
			esac
		done <"$f"
	done
	[ -z "$missing" ] || die "$variant: options not applied by kconfig:$missing"
	if ! cmp -s "$obj/.config.new" "$obj/.config"; then
		mv "$obj/.config.new" "$obj/.config"
	else
		rm -f "$obj/.config.new"
	fi
}

# Install the kernel built in OBJ (source tree SRC) as VARIANT into OUT:
# modules, config, System.map, release, objdir, and bzImage last, since it
# is what make's dependency checks look at.  Output goes to LOG.
install_kernel() {
	local src=$1 obj=$2 out=$3 variant=$4 log=$5 release
	local mk=(make -C "$src" O="$obj" CC="ccache gcc" LOCALVERSION="-$variant")

	release=$("${mk[@]}" -s kernelrelease) || return 1
	mkdir -p "$out"
	rm -rf "$out/modules.tmp"
	"${mk[@]}" -s INSTALL_MOD_PATH="$out/modules.tmp" INSTALL_MOD_STRIP=1 \
		modules_install >>"$log" 2>&1 || return 1
	rm -rf "$out/modules"
	mv "$out/modules.tmp" "$out/modules"
	cp "$obj/.config" "$out/config"
	cp "$obj/System.map" "$out/System.map"
	echo "$release" >"$out/release"
	echo "$obj" >"$out/objdir"
	cp "$obj/arch/x86/boot/bzImage" "$out/bzImage.tmp"
	mv "$out/bzImage.tmp" "$out/bzImage"
}
