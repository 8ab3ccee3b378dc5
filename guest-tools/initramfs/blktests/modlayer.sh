#!/bin/bash
# Build the blktests modules layer of a modular kernel (a distro's), a
# newc archive the launcher appends after the blktests layer:
#   modlayer.sh VARIANT OUTPUT_DIR
# The base image of such a kernel holds only the modules a scale run
# needs; blktests loads loop, nbd, md, dm targets, sg and file systems
# itself.  The layer holds those of class "blktests" in
# guest-tools/initramfs/modules with the base's, and a modules.dep over
# them all that replaces the base's.  Modules the kernel lacks are named
# in /lib/blkscale/blktests/modules-missing.  The archive is named after
# a hash of its inputs; its path is the only line printed on stdout.
set -euo pipefail

variant=${1:?usage: modlayer.sh VARIANT OUTPUT_DIR}
outdir=${2:?usage: modlayer.sh VARIANT OUTPUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
initramfs=$(cd "$here/.." && pwd)
top=$(cd "$here/../../.." && pwd)
build=${BUILD:-$top/build}
kout=$build/kernel/out/$variant

die() {
	echo "blktests modules layer: $*" >&2
	exit 1
}

[ -f "$kout/release" ] || die "$variant: no kernel in ${kout#"$top"/} (make kernel)"
release=$(cat "$kout/release")
tree=$kout/modules/lib/modules/$release
[ -f "$tree/modules.dep" ] || die "$variant: no modules.dep in ${tree#"$top"/}"

key=$(
	{
		echo "$release"
		sha256sum "$tree/modules.dep" "$initramfs/modules" \
			"$initramfs/copy-modules.sh" "$here/modlayer.sh" | cut -c1-64
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
if [ -n "$missing" ]; then
	echo "$missing" >"$root/lib/blkscale/blktests/modules-missing"
else
	: >"$root/lib/blkscale/blktests/modules-missing"
fi

find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 --reproducible) >"$out.tmp"
mv "$out.tmp" "$out"
echo "  BLKTESTS modules of $variant: $(du -h "$out" | cut -f1)${missing:+; not in this kernel: ${missing//$'\n'/ }}" >&2
echo "$out"
