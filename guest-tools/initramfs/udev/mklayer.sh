#!/bin/bash
# Build the udev layer of the guest image, a newc archive that the
# launcher appends to the base initramfs when a topology sets guest.udev:
#   mklayer.sh OUTPUT_DIR
# It holds Debian's systemd-udevd and udevadm from the host's packages
# with the libraries ldd names, the rules of the packages below
# (60-persistent-storage.rules, lvm2's and dmsetup's among them), the
# helpers those rules call (scsi_id, ata_id, ..., dmsetup; lvm is in the
# base image), the hardware database, udev.conf, the groups the rules
# name, and the guest-side scripts (start, settle).  The archive is named
# after a hash of everything that goes into it; its path is the only
# line printed on stdout.
set -euo pipefail

outdir=${1:?usage: mklayer.sh OUTPUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "udev layer: $*" >&2
	exit 1
}

# shellcheck source=guest-tools/initramfs/lib.sh
. "$here/../lib.sh"

# Packages whose udev rules a Debian server with LVM has.  Other
# packages' rules (mdadm, btrfs-progs, ...) are left out: they act on
# devices these runs do not have.
PACKAGES="udev systemd lvm2 dmsetup"
# Programs the rules call, besides /lib/udev's own helpers.
PROGRAMS="/sbin/dmsetup"

missing=
for p in $PACKAGES; do
	dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' ||
		missing="$missing $p"
done
[ -z "$missing" ] || die "Debian packages missing:$missing (make deps)"

# shellcheck disable=SC2086
rules=$(dpkg -L $PACKAGES | grep -E '^/lib/udev/rules\.d/[^/]+\.rules$' | LC_ALL=C sort -u)
# /lib/udev's executables: scsi_id, ata_id, cdrom_id, ...
helpers=$(dpkg -L udev | grep -E '^/lib/udev/[^/]+$' | while read -r f; do
	[ -f "$f" ] && [ -x "$f" ] && echo "$f"
done)
hwdb=/lib/udev/hwdb.bin
[ -f "$hwdb" ] || die "$hwdb missing (systemd-hwdb update)"

# The key: the files that go in, this directory's scripts, the versions.
# shellcheck disable=SC2086
key=$(
	{
		sha256sum /bin/udevadm $rules $helpers $hwdb $PROGRAMS /etc/udev/udev.conf
		(cd "$here" && LC_ALL=C sha256sum ./* ../lib.sh)
		dpkg-query -W -f='${Package} ${Version}\n' $PACKAGES libc6
	} | sha256sum | cut -c1-16
)
out=$outdir/udev-$key.cpio
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

# udevadm is the daemon too, by the name it is called with.
copy_elf /bin/udevadm
mkdir -p "$root/lib/systemd"
ln -s /bin/udevadm "$root/lib/systemd/systemd-udevd"
for f in $helpers $PROGRAMS; do
	copy_elf "$f"
done
mkdir -p "$root/lib/udev/rules.d" "$root/etc/udev"
# shellcheck disable=SC2086
cp $rules "$root/lib/udev/rules.d/"
cp "$hwdb" "$root/lib/udev/"
cp /etc/udev/udev.conf "$root/etc/udev/"

# The groups the rules give device nodes to, with Debian's ids (from the
# host's /etc/group, which base-passwd and the packages made); the base
# image's root and nogroup stay.
# shellcheck disable=SC2086
groups=$(grep -ohE 'GROUP="[^"]+"' $rules | cut -d'"' -f2 | LC_ALL=C sort -u)
{
	printf 'root:x:0:\n'
	for g in $groups; do
		grep -E "^$g:" /etc/group | cut -d: -f1-3 | sed 's/$/:/' || true
	done
	printf 'nogroup:x:65534:\n'
} >"$root/etc/group"

install -D -m 0755 "$here/start" "$root/lib/blkscale/udev/start"
install -m 0755 "$here/settle" "$here/queued" "$root/lib/blkscale/udev/"
install -m 0644 "$here/monitor.awk" "$here/udevd-log.awk" "$here/running.sh" \
	"$root/lib/blkscale/udev/"
dpkg-query -W -f='${Package} ${Version}' udev >"$root/lib/blkscale/udev/package"

write_newc "$root" "$out"
echo "  UDEV layer: $(du -h "$out" | cut -f1)" >&2
echo "$out"
