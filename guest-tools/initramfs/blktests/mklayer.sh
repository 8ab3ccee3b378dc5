#!/bin/bash
# Build the blktests layer of the guest image, a newc archive that the
# launcher appends to the base initramfs when a plan has the blktests step:
#   mklayer.sh BLKTESTS_DIR OUTPUT_DIR
# It holds a copy of the blktests checkout with its src/ helpers built,
# the Debian programs blktests calls (with the libraries ldd names) and
# the guest-side runner.  The archive is named after a hash of everything
# that goes into it, so an unchanged checkout and host reuse it; the path
# of the archive is the only line printed on stdout.
set -euo pipefail

checkout=${1:?usage: mklayer.sh BLKTESTS_DIR OUTPUT_DIR}
outdir=${2:?usage: mklayer.sh BLKTESTS_DIR OUTPUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "blktests layer: $*" >&2
	exit 1
}

# shellcheck source=guest-tools/initramfs/lib.sh
. "$here/../lib.sh"

[ -x "$checkout/check" ] && [ -d "$checkout/tests" ] ||
	die "$checkout: not a blktests checkout (no check script or tests/)"

# Debian packages whose programs blktests calls (udev for udevadm settle,
# which returns at once without a udev daemon; gzip for the zgrep that
# reads /proc/config.gz).
PACKAGES="bash coreutils gawk sed grep diffutils findutils util-linux mount
bsdutils bsdextrautils kmod procps psmisc xfsprogs e2fsprogs pciutils mdadm
nbd-client nbd-server dmsetup parted bc udev blktrace dosfstools libnl-utils
gzip"
# What building blktests' helpers needs besides a compiler: miniublk, the
# ublk server of the ublk tests, is built only where liburing's headers are.
BUILD_PACKAGES="liburing-dev"

# Programs blktests never calls that would bring large libraries
# (xfs_scrub alone brings 35 MB of ICU).
SKIP_PROGRAMS="xfs_scrub xfs_scrub_all"

# The key: the checkout's files, this directory's scripts and the
# installed versions of the packages.
key=$(
	{
		(cd "$checkout" && find . -path ./.git -prune -o -type f -print0 |
			LC_ALL=C sort -z | xargs -0 sha256sum)
		(cd "$here" && LC_ALL=C sha256sum ./* ../lib.sh)
		# shellcheck disable=SC2086
		dpkg-query -W -f='${Package} ${Version}\n' $PACKAGES $BUILD_PACKAGES libc6 2>&1
	} | sha256sum | cut -c1-16
)
out=$outdir/blktests-$key.cpio
if [ -f "$out" ]; then
	echo "$out"
	exit 0
fi

missing=
for p in $PACKAGES $BUILD_PACKAGES; do
	dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' ||
		missing="$missing $p"
done
[ -z "$missing" ] || die "Debian packages missing:$missing (make deps)"

mkdir -p "$outdir"
root=$(mktemp -d "$outdir/layer.XXXXXX")
trap 'rm -rf "$root" "$out.tmp"' EXIT

# blktests builds its helpers in its own tree: build a private copy, the
# checkout itself stays untouched (it may be read-only).
mkdir -p "$root/opt"
cp -a "$checkout" "$root/opt/blktests"
rm -rf "$root/opt/blktests/.git" "$root/opt/blktests/results"
make -s -C "$root/opt/blktests" >"$root/make.log" 2>&1 ||
	die "building blktests' helpers failed: $(tail -1 "$root/make.log")"
rm -f "$root/make.log"

copy_elf_libs() {
	local bin=$1 lib
	{ ldd "$bin" 2>/dev/null || true; } | awk '/=> \//{print $3} /^\t\/lib/{print $1}' |
		while read -r lib; do
			[ -e "$root$lib" ] ||
				install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"
		done
}

# Every program the packages ship, at the path the package gives it
# (the base image has real /bin and /usr/bin directories), symlinks kept.
# shellcheck disable=SC2086
for f in $(dpkg -L $PACKAGES | grep -E '^(/usr)?/s?bin/[^/]+$' | LC_ALL=C sort -u); do
	[ -e "$f" ] || [ -L "$f" ] || continue
	case " $SKIP_PROGRAMS " in *" ${f##*/} "*) continue ;; esac
	if [ -L "$f" ]; then
		mkdir -p "$root$(dirname "$f")"
		rm -f "$root$f"
		ln -s "$(readlink "$f")" "$root$f"
		continue
	fi
	[ -f "$f" ] || continue
	install -D -m 0755 "$(readlink -f "$f")" "$root$f"
	copy_elf_libs "$f"
done
for f in $(find "$root/opt/blktests/src" -type f -perm -u+x); do
	copy_elf_libs "$f"
done

# mkfs.fat converts file names through iconv's codepage 850 (loop/008):
# glibc's module for it and the tables that name it.
gconv=$(dpkg -L libc6 | grep '/gconv/IBM850\.so$') ||
	die "glibc's IBM850 iconv module not found"
gconv=${gconv%%$'\n'*}
gconv=${gconv%/*}
mkdir -p "$root$gconv"
cp -a "$gconv"/IBM850.so "$gconv"/gconv-modules* "$root$gconv/"

install -D -m 0755 "$here/run-blktests" "$root/lib/blkscale/blktests/run"
install -m 0644 "$here/results.awk" "$root/lib/blkscale/blktests/results.awk"
install -m 0755 "$here/rerun-tests" "$root/lib/blkscale/blktests/rerun-tests"
install -m 0755 "$here/rerun-rounds" "$root/lib/blkscale/blktests/rerun-rounds"

write_newc "$root" "$out"
echo "  BLKTESTS layer: $(du -h "$out" | cut -f1)" >&2
echo "$out"
