#!/bin/bash
# qemu-system-x86_64 from Debian's source of the installed QEMU with
# qemu/patches applied: only the x86_64 system emulator, TCG and KVM, no
# docs, GUI, tools or network back-ends, with ccache when installed.
# Output in build/qemu/out: the binary, `version` (its --version line),
# `base` (Debian's source package and version) and `patches` (the
# series' subjects, in order).
. "$(dirname "$0")/common.sh"

JOBS=${QEMU_JOBS:-1}
started=$(date +%s)

# The source: fetched again when the installed QEMU is another version.
read -r source version <<<"$(installed_source)"
if [ ! -d "$QSRC/.git" ] || [ "$(cat "$QDIR/base" 2>/dev/null)" != "$source $version" ]; then
	"$TOP/qemu/scripts/fetch.sh"
	rm -rf "$QOBJ" "$QDIR/applied"
fi

# The series, applied on a branch from `base` when it differs from what
# the tree has: files the patches touch get new times, so ninja compiles
# only those again.
mapfile -t patches < <(series_patches)
for p in "${patches[@]}"; do
	[ -f "$p" ] || die "qemu/patches/series names ${p##*/}, which is not in qemu/patches"
done
wanted=$( (cat "$QPATCHES/series" 2>/dev/null; cat "${patches[@]}" </dev/null) | sha256sum | cut -d' ' -f1)
if [ "$(cat "$QDIR/applied" 2>/dev/null)" != "$wanted" ]; then
	log "apply ${#patches[@]} patches on base"
	git -C "$QSRC" am --abort >/dev/null 2>&1 || true
	git -C "$QSRC" checkout -q -f -B series base
	for p in "${patches[@]}"; do
		git "${GIT_ID[@]}" -C "$QSRC" am -q --keep-cr "$p" ||
			die "${p##*/} does not apply to $source $version (git -C $QSRC am --show-current-patch)"
	done
	echo "$wanted" >"$QDIR/applied"
fi

cc=gcc
[ -x /usr/lib/ccache/gcc ] && cc=/usr/lib/ccache/gcc
# Every feature off unless named: the launcher runs TCG (KVM when a probe
# boot works), null-co, file and raw block nodes, virtio-scsi, virtio-blk
# and virtio-serial devices, QMP on a UNIX socket, no display and no
# network.  Firmware (qboot, SeaBIOS, linuxboot_dma.bin) comes from
# Debian's packages, where Debian's own build looks for it; a prefix
# outside /usr keeps QEMU from taking those paths as relative to itself.
configure_opts=(
	--target-list=x86_64-softmmu
	--without-default-features
	--enable-tcg --enable-kvm --enable-fdt=system
	--disable-docs --disable-tools --disable-user --disable-guest-agent
	--disable-install-blobs --disable-werror
	--prefix="$QOUT" --firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu
	--meson=/usr/bin/meson --cc="$cc"
	--with-git-submodules=ignore
	--with-pkgversion="Debian $version, blkscale"
)
configured=$(printf '%s\n' "${configure_opts[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$QOBJ/build.ninja" ] || [ "$(cat "$QOBJ/.blkscale-configured" 2>/dev/null)" != "$configured" ]; then
	log "configure (x86_64-softmmu, TCG and KVM, no docs, GUI, tools or network back-ends)"
	rm -rf "$QOBJ"
	mkdir -p "$QOBJ"
	# Debian's python3 and meson: configure takes the first python3.
	(cd "$QOBJ" && PATH=/usr/bin:$PATH "$QSRC/configure" "${configure_opts[@]}" >"$QDIR/configure.log" 2>&1) ||
		die "configure failed (see $QDIR/configure.log)"
	echo "$configured" >"$QOBJ/.blkscale-configured"
fi

log "build qemu-system-x86_64 (-j$JOBS)"
ninja -C "$QOBJ" -j"$JOBS" qemu-system-x86_64 >"$QDIR/build.log" 2>&1 ||
	die "the build failed (see $QDIR/build.log: $(grep -m1 -E 'error:|FAILED' "$QDIR/build.log" || tail -1 "$QDIR/build.log"))"

mkdir -p "$QOUT"
cp "$QOBJ/qemu-system-x86_64" "$QOUT/qemu-system-x86_64.tmp"
"$QOUT/qemu-system-x86_64.tmp" --version | head -1 >"$QOUT/version"
echo "$source $version" >"$QOUT/base"
git -C "$QSRC" log --reverse --format=%s base..HEAD >"$QOUT/patches"
mv "$QOUT/qemu-system-x86_64.tmp" "$QOUT/qemu-system-x86_64"
log "built $(cat "$QOUT/version") with $(wc -l <"$QOUT/patches") patches in $(($(date +%s) - started)) s"
