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
	check_fragments "$src" "$obj" "$variant" "$obj/.config.new"
	echo "tinyconfig, then $(variant_fragments "$variant" |
		sed "s|^$TOP/||" | paste -sd' ' | sed 's/ /, then /g')" \
		>"$obj/config_origin"
	replace_config "$obj"
}

# Every option a variant's fragments ask for must be in CONFIG as asked
# (kconfig's dependencies can refuse one); one the base's Kconfig does
# not define at all is left out and said.
check_fragments() {
	local src=$1 obj=$2 variant=$3 config=$4 f line sym missing= absent=
	kconfig_symbols "$src" >"$obj/kconfig.symbols"
	for f in $(variant_fragments "$variant"); do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*)
				sym=${line%%=*}
				if ! grep -qxF "$sym" "$obj/kconfig.symbols"; then
					absent="$absent $sym"
				elif ! grep -qxF "$line" "$config"; then
					missing="$missing $sym(${f#"$TOP"/})"
				fi ;;
			"# CONFIG_"*" is not set")
				sym=${line#\# }
				sym=${sym%% *}
				! grep -q "^$sym=" "$config" ||
					missing="$missing $sym(${f#"$TOP"/})" ;;
			esac
		done <"$f"
	done
	[ -z "$missing" ] || die "$variant: options not applied by kconfig:$missing"
	[ -z "$absent" ] || log "$variant: not in this kernel's Kconfig, left out:$absent"
}

# OBJ/.config.new replaces OBJ/.config only when it differs, so kbuild
# keeps its objects.
replace_config() {
	if ! cmp -s "$1/.config.new" "$1/.config"; then
		mv "$1/.config.new" "$1/.config"
	else
		rm -f "$1/.config.new"
	fi
}

# The versioned package a meta package (linux-image-amd64) depends on
# (linux-image-6.1.0-57-amd64), or the name itself.  awk reads all of
# apt's output: one that stopped early would kill it with SIGPIPE.
resolve_package() {
	local dep
	dep=$(apt-cache depends "$1" 2>/dev/null |
		awk -v kind="$2" '$1 == "Depends:" && index($2, kind) == 1 && !n++ { print $2 }')
	echo "${dep:-$1}"
}

# Debian's config of a linux-image-X package, taken from the package
# (apt-get download, nothing installed) once into
# build/kernel/distro-config/PACKAGE_VERSION/config: sets DISTRO_CONFIG
# to that file and DISTRO_IMAGE to "PACKAGE VERSION".
distro_config() {
	local want=$1 image version dir
	apt-cache show "$want" >/dev/null 2>&1 || apt-get update -q >/dev/null 2>&1 || true
	apt-cache show "$want" >/dev/null 2>&1 || die "apt knows no package $want"
	image=$(resolve_package "$want" linux-image-)
	version=$(apt-cache show --no-all-versions "$image" 2>/dev/null |
		awk '$1 == "Version:" && !n++ { print $2 }')
	[ -n "$version" ] || die "apt knows no version of $image"
	dir=$KOUT/distro-config/${image}_$version
	if [ ! -f "$dir/config" ]; then
		log "fetch $image $version (its config)"
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		# As root apt hands the download to its own user, who cannot write here.
		(cd "$dir.tmp" && apt-get download -q -o APT::Sandbox::User=root \
			"$image=$version") >"$KOUT/apt-download.log" 2>&1 ||
			die "apt-get download $image failed (see $KOUT/apt-download.log)"
		dpkg-deb --fsys-tarfile "$dir.tmp/"*.deb |
			tar -x -C "$dir.tmp" --wildcards './boot/config-*' ||
			die "$image holds no /boot/config-*"
		mv "$dir.tmp"/boot/config-* "$dir.tmp/config"
		rm -rf "$dir.tmp/"*.deb "$dir.tmp/boot"
		rm -rf "$dir" && mv "$dir.tmp" "$dir"
	fi
	DISTRO_CONFIG=$dir/config
	DISTRO_IMAGE="$image $version"
}

# Write OBJ/.config for a variant on a Debian image's config
# (config_from): Debian's config as its package ships it, olddefconfig,
# localmodconfig against the variant's module list (every =m option no
# listed module needs becomes n; no =y option changes), then the
# variant's fragments.  OBJ/config-changes lists every option Debian
# builds in (=y) that the result does not, and why: a fragment asks, it
# follows from one (or from this machine's toolchain), or kconfig allows
# it only with a module localmodconfig left out (each such option is
# tried again as =y: one that kconfig lets stand stays).
configure_distro_tree() {
	local src=$1 obj=$2 variant=$3 log=$4 cfg=$2/distro-config list f
	local k=(make -s -C "$src" O="$cfg")
	distro_config "$VARIANT_CONFIG_FROM"
	list=$TOP/$VARIANT_MODULES_LIST
	[ -f "$list" ] || die "$variant: $VARIANT_MODULES_LIST: no such file"
	mkdir -p "$cfg"
	cp "$DISTRO_CONFIG" "$obj/distro.config"
	: >"$log"
	# Debian's, and Debian's with the fragments but every module kept:
	# what localmodconfig alone took away shows between the two.
	cp "$DISTRO_CONFIG" "$cfg/.config"
	for f in $(variant_fragments "$variant"); do cat "$f"; done >>"$cfg/.config"
	"${k[@]}" olddefconfig >>"$log" 2>&1 ||
		die "$variant: olddefconfig failed (see $log)"
	mv "$cfg/.config" "$cfg/full.config"
	cp "$DISTRO_CONFIG" "$cfg/.config"
	"${k[@]}" olddefconfig >>"$log" 2>&1 ||
		die "$variant: olddefconfig failed (see $log)"
	# Comments and blank lines out: every other line's first word is a
	# module, as in lsmod's output.
	grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$list" >"$cfg/lsmod"
	LSMOD=$cfg/lsmod "${k[@]}" localmodconfig </dev/null >>"$log" 2>&1 ||
		die "$variant: localmodconfig failed (see $log)"
	if grep -q 'config not found' "$log"; then
		die "$variant: $VARIANT_MODULES_LIST: modules this kernel does not build:$(grep -o '^[^ ]* config not found' "$log" | cut -d' ' -f1 | paste -sd' ' | sed 's/^/ /')"
	fi
	for f in $(variant_fragments "$variant"); do cat "$f"; done >>"$cfg/.config"
	"${k[@]}" olddefconfig >>"$log" 2>&1 ||
		die "$variant: olddefconfig failed (see $log)"
	# A built-in option that went with the modules but that kconfig lets
	# stand without them is put back: what stays lost is only what
	# cannot be built in without a module the list does not load.
	config_changes "$DISTRO_CONFIG" "$cfg/full.config" "$cfg/.config" \
		"$(variant_fragments "$variant")" |
		awk '$1 == "localmodconfig" { print $2 "=y" }' >>"$cfg/.config"
	"${k[@]}" olddefconfig >>"$log" 2>&1 ||
		die "$variant: olddefconfig failed (see $log)"
	check_fragments "$src" "$obj" "$variant" "$cfg/.config"
	cp "$cfg/.config" "$obj/.config.new"
	config_changes "$DISTRO_CONFIG" "$cfg/full.config" "$obj/.config.new" \
		"$(variant_fragments "$variant")" >"$obj/config-changes"
	echo "debian $DISTRO_IMAGE config, localmodconfig against $VARIANT_MODULES_LIST ($(wc -l <"$cfg/lsmod") modules), then $(variant_fragments "$variant" |
		sed "s|^$TOP/||" | paste -sd' ' | sed 's/ /, then /g'); built-in options changed: $(grep -c '^fragment\|^follows' "$obj/config-changes" || true) by the fragments, $(grep -c '^localmodconfig' "$obj/config-changes" || true) only with a module left out" \
		>"$obj/config_origin"
	replace_config "$obj"
}

# Each CONFIG_X=y of DISTRO that FINAL does not have, one a line:
# "fragment X", "follows X" (FULL, Debian's with the fragments and every
# module, lacks it too) or "localmodconfig X" (only FINAL lacks it).
config_changes() {
	local distro=$1 full=$2 final=$3 fragments=$4 sym
	grep -E '^CONFIG_[A-Z0-9_]+=y$' "$distro" | cut -d= -f1 | while read -r sym; do
		grep -qx "$sym=y" "$final" && continue
		# shellcheck disable=SC2086
		if grep -qE "^$sym=|^# $sym is not set" $fragments; then
			echo "fragment $sym"
		elif ! grep -qx "$sym=y" "$full"; then
			echo "follows $sym"
		else
			echo "localmodconfig $sym"
		fi
	done
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
