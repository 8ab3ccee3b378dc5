#!/bin/bash
# Build the multipath layer of the guest image, a newc archive that the
# launcher appends after the udev layer when a topology has a LUN on
# several paths (virtio_scsi[].paths):
#   mklayer.sh OUTPUT_DIR
# It holds Debian's multipathd and multipath from the host's
# multipath-tools package with the libraries ldd names, the checker and
# prioritizer plugins multipathd loads at run time (/lib/multipath), the
# package's udev rules (60-multipath.rules marks paths as multipath
# members, 56-dm-mpath.rules handles the maps), the project's
# multipath.conf, an lvmlocal.conf that makes lvm skip multipath
# components, and the guest-side script (start).  The archive is named
# after a hash of everything that goes into it; its path is the only line
# printed on stdout.
set -euo pipefail

outdir=${1:?usage: mklayer.sh OUTPUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "multipath layer: $*" >&2
	exit 1
}

# shellcheck source=guest-tools/initramfs/lib.sh
. "$here/../lib.sh"

PACKAGES="multipath-tools"
PROGRAMS="/sbin/multipathd /sbin/multipath /sbin/multipathc"

dpkg-query -W -f='${db:Status-Abbrev}' multipath-tools 2>/dev/null | grep -q '^ii' ||
	die "Debian packages missing: multipath-tools (make deps)"

# shellcheck disable=SC2086
rules=$(dpkg -L $PACKAGES | grep -E '^/lib/udev/rules\.d/[^/]+\.rules$' | LC_ALL=C sort -u)
# shellcheck disable=SC2086
plugins=$(dpkg -L $PACKAGES | grep -E '^/lib/multipath/[^/]+\.so$' | LC_ALL=C sort -u)
[ -n "$plugins" ] || die "multipath-tools has no plugins in /lib/multipath"

# shellcheck disable=SC2086
key=$(
	{
		sha256sum $PROGRAMS $rules $plugins
		(cd "$here" && LC_ALL=C sha256sum ./* ../lib.sh)
		dpkg-query -W -f='${Package} ${Version}\n' $PACKAGES libc6
	} | sha256sum | cut -c1-16
)
out=$outdir/multipath-$key.cpio
if [ -f "$out" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$outdir"
root=$(mktemp -d "$outdir/layer.XXXXXX")
trap 'rm -rf "$root" "$out.tmp"' EXIT

copy_elf() {
	local bin=$1 lib
	install -D -m 0755 "$(readlink -f "$bin")" "$root$bin"
	{ ldd "$bin" 2>/dev/null || true; } | awk '/=> \//{print $3} /^\t\/lib/{print $1}' |
		while read -r lib; do
			[ -e "$root$lib" ] ||
				install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"
		done
}

for f in $PROGRAMS $plugins; do
	copy_elf "$f"
done
mkdir -p "$root/lib/udev/rules.d" "$root/etc/multipath" "$root/etc/lvm"
# shellcheck disable=SC2086
cp $rules "$root/lib/udev/rules.d/"
install -m 0644 "$here/multipath.conf" "$root/etc/multipath.conf"
install -m 0644 "$here/lvmlocal.conf" "$root/etc/lvm/lvmlocal.conf"
install -D -m 0755 "$here/start" "$root/lib/blkscale/multipath/start"
install -m 0755 "$here/count" "$root/lib/blkscale/multipath/count"
dpkg-query -W -f='${Package} ${Version}' multipath-tools >"$root/lib/blkscale/multipath/package"

write_newc "$root" "$out"
echo "  MULTIPATH layer: $(du -h "$out" | cut -f1)" >&2
echo "$out"
