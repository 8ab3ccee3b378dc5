#!/bin/bash
# Take a prebuilt Debian kernel as a variant (kernel/variants.toml, base
# linux-image-X): the image package's kernel, config, System.map and
# modules, and the linux-headers packages the helper module is built
# against, fetched with apt-get download and unpacked with dpkg -x under
# build/kernel/.  Nothing is installed on this machine and nothing is
# loaded into its kernel.
. "$(dirname "$0")/common.sh"

variant=${1:?usage: prebuilt.sh VARIANT}
variant_load "$variant"
out=$(variant_out "$variant")
debs=$KOUT/debs-$variant
root=$KOUT/prebuilt/$variant

[ "$VARIANT_MODULES" = package ] ||
	die "$variant: modules = \"$VARIANT_MODULES\": only \"package\" is fetched here (a kernel of your own: blkscale run --kernel PATH --modules DIR)"

apt_known() {
	apt-cache show "$1" >/dev/null 2>&1
}

# The package that holds the files: a meta package (linux-image-amd64)
# depends on the versioned one (linux-image-6.1.0-57-amd64).
resolve() {
	local dep
	dep=$(apt-cache depends "$1" 2>/dev/null |
		awk -v kind="$2" '$1 == "Depends:" && index($2, kind) == 1 { print $2; exit }')
	echo "${dep:-$1}"
}

apt_known "$VARIANT_BASE" || apt-get update -q >/dev/null 2>&1 || true
apt_known "$VARIANT_BASE" || die "$variant: apt knows no package $VARIANT_BASE"
image=$(resolve "$VARIANT_BASE" linux-image-)
packages=("$image")
if [ -n "$VARIANT_HEADERS" ]; then
	headers=$(resolve "$VARIANT_HEADERS" linux-headers-)
	# The versioned headers need their -common half and kbuild's tools.
	mapfile -t more < <(apt-cache depends "$headers" 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-(headers|kbuild)-/ { print $2 }')
	packages+=("$headers" "${more[@]}")
fi

log "$variant: fetch ${packages[*]}"
rm -rf "$debs.tmp" "$root"
mkdir -p "$debs.tmp" "$root"
# As root apt hands the download to its own user, who cannot write here.
(cd "$debs.tmp" && apt-get download -q -o APT::Sandbox::User=root \
	"${packages[@]}" >"$KOUT/apt-download.log" 2>&1) ||
	die "$variant: apt-get download failed (see $KOUT/apt-download.log)"
for deb in "$debs.tmp"/*.deb; do
	dpkg-deb -x "$deb" "$root"
done

release=$(basename "$(find "$root/lib/modules" -mindepth 1 -maxdepth 1 -type d | head -1)")
[ -n "$release" ] && [ -f "$root/boot/vmlinuz-$release" ] ||
	die "$variant: $image holds no /boot/vmlinuz and /lib/modules"
version=$(dpkg-deb -f "$debs.tmp/${image}_"*.deb Version)

# Debian makes modules.dep at install time; depmod makes it here, in our
# copy of the tree (hard links: the tree stays in one place on disk).
rm -rf "$out/modules.tmp"
mkdir -p "$out/modules.tmp/lib/modules"
cp -al "$root/lib/modules/$release" "$out/modules.tmp/lib/modules/"
depmod -b "$out/modules.tmp" "$release" ||
	die "$variant: depmod failed on $image's modules"
rm -rf "$out/modules"
mv "$out/modules.tmp" "$out/modules"

objdir=
hdr=$root/usr/src/linux-headers-$release
if [ -f "$hdr/Makefile" ]; then
	# Its Makefile includes the -common half by its installed path.
	sed -i "s|^include /usr/src/|include $root/usr/src/|" "$hdr/Makefile"
	objdir=$hdr
fi

cp "$root/boot/config-$release" "$out/config"
cp "$root/boot/System.map-$release" "$out/System.map"
echo "$release" >"$out/release"
echo "$objdir" >"$out/objdir"
echo "$image $version" >"$out/base"
echo "debian $image $version config, as the package ships it" >"$out/config_origin"
: >"$out/patches"
rm -rf "$debs.tmp"
cp "$root/boot/vmlinuz-$release" "$out/bzImage.tmp"
mv "$out/bzImage.tmp" "$out/bzImage"
log "$variant: linux $release ($image $version) -> ${out#"$TOP"/}/bzImage${objdir:+, headers for the helper module}"
