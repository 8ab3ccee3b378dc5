#!/bin/bash
# Copy modules of a modular kernel (a distro's) into a guest image root,
# with what each depends on (its modules.dep), and make the root's own
# modules.dep:
#   copy-modules.sh TREE ROOT RELEASE CLASS...
# TREE is the kernel's lib/modules/RELEASE; CLASS names the classes of
# guest-tools/initramfs/modules to take (boot, plan, udev, blktests).  A module
# of class "blktests" that the kernel does not have is left out (its
# config decides what blktests can run) and named on stdout, one a line;
# any other missing module is an error.
set -euo pipefail

tree=${1:?usage: copy-modules.sh TREE ROOT RELEASE CLASS...}
root=${2:?usage: copy-modules.sh TREE ROOT RELEASE CLASS...}
release=${3:?usage: copy-modules.sh TREE ROOT RELEASE CLASS...}
shift 3
here=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "modules: $*" >&2
	exit 1
}

# The line of a file (modules.dep, modules.builtin) whose first field
# names the module: kernel/drivers/scsi/sd_mod.ko for sd_mod.
find_module() {
	[ -f "$2" ] || return 0
	awk -v m="$1" '{ f = $1; sub(":$", "", f); n = f;
		sub(".*/", "", n); sub("\\.ko.*", "", n); gsub("-", "_", n)
		if (n == m) { print; exit } }' "$2"
}

[ -f "$tree/modules.dep" ] || die "no modules.dep in $tree"
dest=$root/lib/modules/$release
mkdir -p "$dest"
for class in "$@"; do
	awk -v c="$class" '$1 == c { print $2 }' "$here/modules" | while read -r mod; do
		# modules.dep names files: kernel/drivers/scsi/sd_mod.ko: dep.ko ...
		line=$(find_module "$mod" "$tree/modules.dep")
		if [ -z "$line" ]; then
			# Built in: nothing to copy, and nothing missing.
			[ -z "$(find_module "$mod" "$tree/modules.builtin")" ] || continue
			[ "$class" = blktests ] || die "module $mod not in $tree"
			echo "$mod"
			continue
		fi
		for f in $(echo "$line" | tr -d ':'); do
			install -D -m 0644 "$tree/$f" "$dest/$f"
		done
	done || exit 1
done
cp "$tree"/modules.builtin* "$tree/modules.order" "$dest/" 2>/dev/null || true
depmod -b "$root" "$release" || die "depmod failed"
