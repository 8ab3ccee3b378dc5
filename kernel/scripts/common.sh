# shellcheck shell=bash
# Shared paths and helpers for the kernel build scripts.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BLKSCALE_BUILD:-$TOP/build}
# Pristine tree of a base (a linux-source-X package) as a git repository:
# variants are worktrees of it, so `git diff` between variants is exactly
# the patch series.  6.1 keeps build/linux, where check-series and the
# table of static majors look.
base_git() {
	if [ "$1" = 6.1 ]; then echo "$BUILD/linux"; else echo "$BUILD/linux-$1"; fi
}
base_tarball() {
	echo "/usr/src/linux-source-$1.tar.xz"
}
LINUX_TARBALL=${LINUX_TARBALL:-$(base_tarball 6.1)}
LINUX_GIT=$(base_git 6.1)
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

# What results record of a built variant's kernel (out/base and
# out/patches): its base package and version, and the patches applied,
# each as its patch-id and subject, in order.
record_source() {
	local variant=$1 src out c
	(
		variant_load "$variant"
		src=$KOUT/$VARIANT_TREE
		out=$(variant_out "$variant")
		base_package_version "$VARIANT_BASE" >"$out/base"
		: >"$out/patches"
		[ -n "$VARIANT_PATCHES" ] || exit 0
		git -C "$src" rev-list --reverse base..HEAD | while read -r c; do
			echo "$(git -C "$src" show "$c" | git patch-id --stable | cut -d' ' -f1)  $(git -C "$src" log -1 --format=%s "$c")"
		done >"$out/patches"
	)
}

# "PACKAGE VERSION" of an installed Debian package (VERSION "unknown"
# when dpkg does not know it).
base_package_version() {
	local v
	v=$(dpkg-query -W -f='${Version}' "$1" 2>/dev/null) || v=
	echo "$1 ${v:-unknown}"
}

# What kernel/variants.toml says of a variant, as VARIANT_* shell
# variables (VARIANT_BASE, VARIANT_KIND, VARIANT_TREE, VARIANT_CONFIG,
# VARIANT_PATCHES, ...): the launcher's reader prints them, so the file is
# parsed in one place.  It names the file and field of any problem.
variant_load() {
	local vars
	vars=$("$TOP/blkscale" variants --shell "$1") || exit 1
	eval "$vars"
}

# Source tree and build directory of a variant.  The build directory sits
# directly inside the source tree so that kbuild uses the relative srctree
# "..": the compiler then sees identical paths in every variant and ccache
# shares objects between stock and patched.  Variants of one base and
# patch directory share a tree (patched, debug, patched-blktests).
variant_src() {
	(
		variant_load "$1"
		[ "$VARIANT_KIND" = source ] || die "$1: a prebuilt kernel has no source tree"
		echo "$KOUT/$VARIANT_TREE"
	)
}

variant_obj() {
	echo "$(variant_src "$1")/.obj-$1"
}

variant_out() {
	echo "$KOUT/out/$1"
}

# Config fragments of a variant, in order.
variant_fragments() {
	(
		variant_load "$1"
		for f in $VARIANT_CONFIG; do echo "$TOP/$f"; done
	)
}

# A git worktree of the pristine tree at base, ignoring build output.
add_worktree() {
	local src gitdir
	# Absolute: git -C would resolve a relative path inside the repository.
	src=$(realpath -m "$1")
	shift
	mkdir -p "$(dirname "$src")"
	git -C "$LINUX_GIT" worktree prune
	git -C "$LINUX_GIT" worktree add -q "$@" "$src" base
	gitdir=$(git -C "$src" rev-parse --git-dir)
	mkdir -p "$gitdir/info"
	printf '/.obj-*\n/.scmversion\n' >>"$gitdir/info/exclude"
}

# Symbols the tree's Kconfig files define, one per line.
kconfig_symbols() {
	grep -rhE --include='Kconfig*' '^[[:space:]]*(menu)?config [A-Z0-9_]+' "$1" |
		awk '{ print "CONFIG_" $2 }' | sort -u
}

# Write OBJ/.config for VARIANT: tinyconfig (allnoconfig over the tiny
# fragments) with our fragments last.  Every option a fragment asks for
# must survive kconfig's dependencies; one the base's Kconfig does not
# define at all (CONFIG_BASE_FULL is gone from 6.12) is left out and said.
# .config is replaced only when it changed, so kbuild keeps its objects.
configure_tree() {
	local src=$1 obj=$2 variant=$3 log=$4 f line sym missing= absent=
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
	kconfig_symbols "$src" >"$obj/kconfig.symbols"
	for f in $(variant_fragments "$variant"); do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*)
				sym=${line%%=*}
				if ! grep -qxF "$sym" "$obj/kconfig.symbols"; then
					absent="$absent $sym"
				elif ! grep -qxF "$line" "$obj/.config.new"; then
					missing="$missing $sym(${f#"$TOP"/})"
				fi ;;
			"# CONFIG_"*" is not set")
				sym=${line#\# }
				sym=${sym%% *}
				! grep -q "^$sym=" "$obj/.config.new" ||
					missing="$missing $sym(${f#"$TOP"/})" ;;
			esac
		done <"$f"
	done
	[ -z "$missing" ] || die "$variant: options not applied by kconfig:$missing"
	[ -z "$absent" ] || log "$variant: not in this kernel's Kconfig, left out:$absent"
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
