#!/bin/bash
# Build the blktests modules layer of a modular kernel (a distro's), a
# newc archive the launcher appends after the blktests layer:
#   modlayer.sh VARIANT OUTPUT_DIR
# The base image of such a kernel holds only the modules a scale run
# needs; blktests loads loop, nbd, md, dm targets, sg and file systems
# itself.  The layer holds those of class "blktests" in
# guest-tools/initramfs/modules with the base's, and a modules.dep over
# them all that replaces the base's, and the kernel's config as
# /boot/config-RELEASE.  Modules the kernel lacks are named
# in /lib/blkscale/blktests/modules-missing.  The archive is named after
# a hash of its inputs; its path is the only line printed on stdout.
set -euo pipefail

variant=${1:?usage: modlayer.sh VARIANT OUTPUT_DIR}
outdir=${2:?usage: modlayer.sh VARIANT OUTPUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
initramfs=$(cd "$here/.." && pwd)

die() {
	echo "blktests modules layer: $*" >&2
	exit 1
}

# shellcheck source=guest-tools/initramfs/lib.sh
. "$initramfs/lib.sh"
variant_kernel "$variant"
[ -f "$tree/modules.dep" ] || die "$variant: no modules.dep in its modules tree"

key=$(
	{
		echo "$release"
		sha256sum "$tree/modules.dep" "$initramfs/modules" \
			"$initramfs/copy-modules.sh" "$initramfs/lib.sh" "$here/modlayer.sh" |
			cut -c1-64
		[ ! -f "$kout/config" ] || sha256sum <"$kout/config"
	} | sha256sum | cut -c1-16
)
out=$outdir/modules-$variant-$key.cpio
if [ -f "$out" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$outdir"
root=$(mktemp -d "$outdir/modlayer.XXXXXX")
trap 'rm -rf "$root" "$out.tmp"' EXIT
missing=$("$initramfs/copy-modules.sh" "$tree" "$root" "$release" \
	boot plan blktests) || die "$variant: the modules could not be copied"
install -d "$root/lib/blkscale/blktests"
# blktests reads the kernel's config where Debian keeps it (block/001
# and the _have_kernel_option checks).
[ ! -f "$kout/config" ] || install -D -m 0644 "$kout/config" "$root/boot/config-$release"
if [ -n "$missing" ]; then
	echo "$missing" >"$root/lib/blkscale/blktests/modules-missing"
else
	: >"$root/lib/blkscale/blktests/modules-missing"
fi

write_newc "$root" "$out"
echo "  BLKTESTS modules of $variant: $(du -h "$out" | cut -f1)${missing:+; not in this kernel: ${missing//$'\n'/ }}" >&2
echo "$out"
