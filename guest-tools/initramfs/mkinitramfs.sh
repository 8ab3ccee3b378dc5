#!/bin/bash
# Build the base initramfs of one kernel variant (guest-tools/PROTOCOL.md):
#   mkinitramfs.sh VARIANT OUTPUT.cpio
# busybox, /init and its helpers, the guest tools, fio and lvm2 with their
# shared libraries, the helper module and the variant's kernel modules.
set -euo pipefail

variant=${1:?usage: mkinitramfs.sh VARIANT OUTPUT}
output=${2:?usage: mkinitramfs.sh VARIANT OUTPUT}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}

die() {
	echo "initramfs: $*" >&2
	exit 1
}

# shellcheck source=guest-tools/initramfs/lib.sh
. "$here/lib.sh"
variant_kernel "$variant"
root=$(mktemp -d "${output}.root.XXXXXX")
trap 'rm -rf "$root" "$output.tmp"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc/lvm,proc,sys,dev,tmp,run,lib/blkscale/steps,lib/modules}

# busybox with a link per applet, made here so the guest forks nothing
# to install them.
cp /bin/busybox "$root/bin/busybox"
for applet in $(/bin/busybox --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

install -m 0755 "$here/init" "$root/init"
install -m 0755 "$here/guest-info" "$here/disk-list" "$here/load-helper" "$root/lib/blkscale/"
for step in "$here"/steps/*; do
	install -m 0755 "$step" "$root/lib/blkscale/steps/"
done

# Guest tools are static; the helper module is built per variant.
if [ -d "$build/guest-tools/bin" ]; then
	find "$build/guest-tools/bin" -maxdepth 1 -type f -perm -u+x \
		-exec install -m 0755 {} "$root/bin/" \;
fi
ko=$build/guest-tools/module/$variant/blkscale_majors.ko
if [ -f "$ko" ]; then
	mkdir -p "$root/lib/modules/blkscale"
	install -m 0644 "$ko" "$root/lib/modules/blkscale/"
fi
if [ -n "$(find "$tree" -name 'virtio_pci.ko*' -print -quit 2>/dev/null)" ]; then
	# A modular kernel (a distro's): only the modules the guest needs
	# (guest-tools/initramfs/modules) and what they depend on, with a
	# modules.dep of their own; /init loads the "boot" ones.
	"$here/copy-modules.sh" "$tree" "$root" "$release" boot plan udev ||
		die "$variant: the modules of ${tree#"$top"/} could not be copied"
	awk '$1 == "boot" { print $2 }' "$here/modules" >"$root/lib/blkscale/boot-modules"
elif [ -d "$tree" ]; then
	cp -a "$tree" "$root/lib/modules/"
	rm -f "$root/lib/modules/$release"/{build,source}
fi

# Dynamically linked Debian binaries with the libraries they need.
copy_elf() {
	local bin=$1 dest=$2 lib
	[ -x "$bin" ] || die "$bin not found (make deps)"
	install -D -m 0755 "$bin" "$root$dest"
	for lib in $(ldd "$bin" | awk '/=> \//{print $3} /^\t\/lib/{print $1}'); do
		[ -e "$root$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"
	done
}
copy_elf /usr/bin/fio /usr/bin/fio
copy_elf /sbin/lvm /sbin/lvm
for cmd in pvcreate pvremove vgcreate vgremove lvcreate lvremove lvs vgs pvs; do
	ln -sf lvm "$root/sbin/$cmd"
done
install -m 0644 "$here/lvm.conf" "$root/etc/lvm/lvm.conf"
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' \
	>"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"

write_newc "$root" "$output"
echo "  INITRAMFS $variant: $(du -h "$output" | cut -f1) -> ${output#"$top"/}"
