#!/bin/bash
# Extract a linux-source-X package's tarball once into a git repository
# (tag "base"): source-tree.sh [X], 6.1 by default.  A base other than
# 6.1 is installed here when missing, so only the builds that use it
# fetch it.
. "$(dirname "$0")/common.sh"

version=${1:-6.1}
LINUX_GIT=$(base_git "$version")
[ "$version" = 6.1 ] || LINUX_TARBALL=$(base_tarball "$version")
package=linux-source-$version

if git -C "$LINUX_GIT" rev-parse -q --verify base >/dev/null 2>&1; then
	exit 0
fi
if [ ! -r "$LINUX_TARBALL" ] && [ "$version" != 6.1 ]; then
	[ "$(id -u)" = 0 ] || die "$LINUX_TARBALL not found: apt-get install $package"
	log "installing $package"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q --no-install-recommends "$package" >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null && \
		  apt-get install -y -q --no-install-recommends "$package" >/dev/null; } ||
		die "apt-get could not install $package"
fi
[ -r "$LINUX_TARBALL" ] ||
	die "$LINUX_TARBALL not found: install $package (make deps)"

rm -rf "$LINUX_GIT" "$LINUX_GIT.tmp"
mkdir -p "$LINUX_GIT.tmp"
log "extracting $(basename "$LINUX_TARBALL")"
tar -xf "$LINUX_TARBALL" -C "$LINUX_GIT.tmp" --strip-components=1
kversion=$(make -s -C "$LINUX_GIT.tmp" kernelversion)
log "importing linux $kversion into git"
cd "$LINUX_GIT.tmp"
git init -q
# Debian's tarball ignores its whole top level; nothing is built here.
git add -f -A
git "${GIT_ID[@]}" commit -q -m "$package $kversion (Debian)"
git tag base
cd - >/dev/null
mv "$LINUX_GIT.tmp" "$LINUX_GIT"
