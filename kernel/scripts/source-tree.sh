#!/bin/bash
# Extract linux-source-6.1 once into a git repository (tag "base").
. "$(dirname "$0")/common.sh"

if git -C "$LINUX_GIT" rev-parse -q --verify base >/dev/null 2>&1; then
	exit 0
fi
[ -r "$LINUX_TARBALL" ] ||
	die "$LINUX_TARBALL not found: install linux-source-6.1 (make deps)"

rm -rf "$LINUX_GIT" "$LINUX_GIT.tmp"
mkdir -p "$LINUX_GIT.tmp"
log "extracting $(basename "$LINUX_TARBALL")"
tar -xf "$LINUX_TARBALL" -C "$LINUX_GIT.tmp" --strip-components=1
version=$(make -s -C "$LINUX_GIT.tmp" kernelversion)
log "importing linux $version into git"
cd "$LINUX_GIT.tmp"
git init -q
# Debian's tarball ignores its whole top level; nothing is built here.
git add -f -A
git "${GIT_ID[@]}" commit -q -m "linux-source-6.1 $version (Debian)"
git tag base
cd - >/dev/null
mv "$LINUX_GIT.tmp" "$LINUX_GIT"
