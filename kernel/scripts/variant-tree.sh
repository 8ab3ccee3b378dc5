#!/bin/bash
# Bring a variant's source tree up to date: a variant without patches is
# the pristine tree of its base, one with patches is that tree plus its
# patch directory's series applied with git am (kernel/variants.toml).
# Only files the series touches change, so kbuild rebuilds only what a
# changed patch affects.
. "$(dirname "$0")/common.sh"

variant=${1:?usage: variant-tree.sh VARIANT}
variant_load "$variant"
src=$KOUT/$VARIANT_TREE
LINUX_GIT=$(base_git "$VARIANT_BASE_VERSION")
PATCHES=$TOP/$VARIANT_PATCHES
if [ -n "$VARIANT_PATCHES_COMMIT" ]; then
	# The series a baseline was measured with: its patch directory as
	# the commit the baseline names holds it (series_at).
	at=$KOUT/series-at/$VARIANT_PATCHES_COMMIT
	if [ ! -f "$at/$VARIANT_PATCHES/series" ]; then
		rm -rf "$at.tmp" && mkdir -p "$at.tmp"
		git -C "$TOP" archive "$VARIANT_PATCHES_COMMIT" "$VARIANT_PATCHES" |
			tar -x -C "$at.tmp" ||
			die "$variant: $VARIANT_PATCHES: not in commit $VARIANT_PATCHES_COMMIT"
		rm -rf "$at" && mv "$at.tmp" "$at"
	fi
	PATCHES=$at/$VARIANT_PATCHES
fi
if [ -n "$VARIANT_PATCHES" ] && [ ! -f "$PATCHES/series" ]; then
	die "$variant: $VARIANT_PATCHES/series: no such file: the series for $VARIANT_BASE is not there yet (kernel/variants.toml names $VARIANT_PATCHES)"
fi

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

[ -n "$VARIANT_PATCHES" ] || exit 0

# The series is identified by the content of every patch it lists.
want=$(
	cd "$PATCHES"
	for p in $(series_files); do
		[ -f "$p" ] || die "$VARIANT_PATCHES/series: $p: no such patch"
		sha256sum "$p"
	done | sha256sum | cut -d' ' -f1
)
stamp=$(git -C "$src" rev-parse --git-dir)/blkscale-series
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	exit 0
fi

rm -f "$stamp"
git -C "$src" am --abort >/dev/null 2>&1 || true
# Keep the commits that still are the series' first patches (same
# patch-id: a changed changelog or subject does not count) and apply only
# the rest: git leaves the files it does not change alone, so kbuild
# rebuilds only what the changed or added patches touch.
mapfile -t wanted < <(series_files)
mapfile -t held < <(git -C "$src" rev-list --reverse base..HEAD 2>/dev/null)
keep=0
while [ "$keep" -lt "${#held[@]}" ] && [ "$keep" -lt "${#wanted[@]}" ]; do
	a=$(git patch-id --stable <"$PATCHES/${wanted[keep]}" | cut -d' ' -f1)
	b=$(git -C "$src" show "${held[keep]}" | git patch-id --stable | cut -d' ' -f1)
	[ -n "$a" ] && [ "$a" = "$b" ] || break
	keep=$((keep + 1))
done
if [ "$keep" -gt 0 ]; then
	git -C "$src" reset -q --hard "${held[keep - 1]}"
else
	git -C "$src" checkout -q -f --detach base
fi
for p in "${wanted[@]:keep}"; do
	log "apply $p"
	if ! git -C "$src" "${GIT_ID[@]}" am -q --keep-cr "$PATCHES/$p" \
		>"$KOUT/am.log" 2>&1; then
		git -C "$src" am --abort >/dev/null 2>&1 || true
		die "$VARIANT_PATCHES/$p: does not apply to $(git -C "$LINUX_GIT" log -1 --format=%s base) ($(grep -m1 -E 'error|failed' "$KOUT/am.log" || echo 'see git am'))"
	fi
done
echo "$want" >"$stamp"
