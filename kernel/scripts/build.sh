#!/bin/bash
# Configure and build one variant of kernel/variants.toml: bzImage and
# modules, installed into build/kernel/out/VARIANT/ with the release
# string, the .config, where that config came from (config_origin) and
# what the variant was made of (base, patches).
. "$(dirname "$0")/common.sh"

variant=${1:?usage: build.sh VARIANT}
variant_load "$variant"
# A prebuilt kernel is taken from its package, never built.
[ "$VARIANT_KIND" = source ] || exec "$TOP/kernel/scripts/prebuilt.sh" "$variant"
src=$KOUT/$VARIANT_TREE
obj=$(variant_obj "$variant")
out=$(variant_out "$variant")
jobs=${JOBS:-$(nproc)}
# Fixed build identity so an unchanged tree gives identical objects and
# ccache hits across variants and rebuilds.
export KBUILD_BUILD_USER=blkscale KBUILD_BUILD_HOST=blkscale
export KBUILD_BUILD_TIMESTAMP="2026-01-01"
export CCACHE_BASEDIR=$src CCACHE_NOHASHDIR=1
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
# Kernel objects are large: the default 5 GB cache keeps both variants.
ccache -M 8G >/dev/null 2>&1 || true

"$TOP/kernel/scripts/source-tree.sh" "$VARIANT_BASE_VERSION"
"$TOP/kernel/scripts/variant-tree.sh" "$variant"
mkdir -p "$obj" "$out"

kmake() {
	make -C "$src" O="$obj" CC="ccache gcc" LOCALVERSION="-$variant" \
		-j"$jobs" "$@"
}

if [ -n "$VARIANT_CONFIG_FROM" ]; then
	configure_distro_tree "$src" "$obj" "$variant" "$obj/config.log"
else
	configure_tree "$src" "$obj" "$variant" "$obj/config.log"
fi

log "build $variant ($jobs jobs)"
kmake bzImage modules >"$obj/build.log" 2>&1 || {
	grep -E -m5 'error|Error' "$obj/build.log" >&2 || tail -5 "$obj/build.log" >&2
	die "$variant: build failed (see $obj/build.log)"
}

# Before bzImage, which install_kernel writes last: a kernel make thinks
# up to date always says what it was made of.
record_source "$variant"
cp "$obj/config_origin" "$out/config_origin"
install_kernel "$src" "$obj" "$out" "$variant" "$obj/build.log" ||
	die "$variant: modules_install failed (see $obj/build.log)"
release=$(cat "$out/release")
log "$variant: linux $release -> ${out#"$TOP"/}/bzImage"
