#!/bin/bash
# Bring a variant's source tree up to date: stock is the pristine tree,
# patched is the pristine tree plus kernel/patches/series applied with
# git am.  Only files the series touches change, so kbuild rebuilds only
# what a changed patch affects.
. "$(dirname "$0")/common.sh"

variant=${1:?usage: variant-tree.sh VARIANT}
src=$(variant_src "$variant")
PATCHES=$TOP/kernel/patches

series_files() {
	[ -f "$PATCHES/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$PATCHES/series" | grep -v '^$' || true
}

if [ ! -e "$src/.git" ]; then
	log "worktree $(basename "$src")"
	# Detached: a branch could be checked out by another build directory
	# that shares the pristine repository.
	add_worktree "$src" --detach
fi
# An empty .scmversion keeps setlocalversion from appending "+" for a
# git tree: the release names the variant instead (build.sh).
: >"$src/.scmversion"

[ "$src" = "$(variant_src stock)" ] && exit 0

# The series is identified by the content of every patch it lists.
want=$(
	cd "$PATCHES"
	for p in $(series_files); do
		[ -f "$p" ] || die "kernel/patches/series: $p: no such patch"
		sha256sum "$p"
	done | sha256sum | cut -d' ' -f1
)
stamp=$(git -C "$src" rev-parse --git-dir)/blkscale-series
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	exit 0
fi

rm -f "$stamp"
git -C "$src" am --abort >/dev/null 2>&1 || true
git -C "$src" checkout -q -f --detach base
for p in $(series_files); do
	log "apply $p"
	if ! git -C "$src" "${GIT_ID[@]}" am -q --keep-cr "$PATCHES/$p" \
		>"$KOUT/am.log" 2>&1; then
		git -C "$src" am --abort >/dev/null 2>&1 || true
		die "kernel/patches/$p: does not apply to $(git -C "$LINUX_GIT" log -1 --format=%s base) ($(grep -m1 -E 'error|failed' "$KOUT/am.log" || echo 'see git am'))"
	fi
done
echo "$want" >"$stamp"
