# shellcheck shell=bash
# Sourced by the image scripts (mkinitramfs.sh, blktests/*layer.sh), after
# they define die().

# The built kernel of a variant: sets kout, release and tree (its modules,
# if it has any) under build (BUILD, else the repository's build/).
# shellcheck disable=SC2034 # kout, release and tree are the caller's
variant_kernel() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	kout=${BUILD:-$top/build}/kernel/out/$1
	[ -f "$kout/release" ] || die "$1: no kernel build in ${kout#"$top"/} (make kernel)"
	release=$(cat "$kout/release")
	tree=$kout/modules/lib/modules/$release
}

# A reproducible newc archive of a directory (fixed order, owners and
# times), written beside the output and renamed into place.
write_newc() {
	local root=$1 output=$2
	find "$root" -exec touch -h -d @0 {} +
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0 --reproducible) >"$output.tmp"
	mv "$output.tmp" "$output"
}
