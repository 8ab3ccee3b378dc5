#!/bin/bash
# Check every patch of kernel/patches/series on its own, in order, on top
# of the pristine tree: it applies with git am, the kernel still builds
# (bzImage and modules, the project's configuration) without a compiler
# warning, and scripts/checkpatch.pl reports no error and no warning.
# Prints one verdict per patch; exits non-zero if any patch fails.
#
# The check tree is a worktree of the pristine repository under
# build/check-series, rebuilt incrementally: after a patch only what it
# touches recompiles, and ccache shares objects with the variant builds.
. "$(dirname "$0")/common.sh"

PATCHES=$TOP/kernel/patches
CHECK=$BUILD/check-series
src=$CHECK/linux
obj=$src/.obj-check
jobs=${JOBS:-$(nproc)}

# Same build identity and cache settings as build.sh, so that unchanged
# files are ccache hits.
export KBUILD_BUILD_USER=blkscale KBUILD_BUILD_HOST=blkscale
export KBUILD_BUILD_TIMESTAMP="2026-01-01"
export CCACHE_BASEDIR=$src CCACHE_NOHASHDIR=1
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}

say() {
	printf '  %-6s %s\n' "$1" "$2"
}

kmake() {
	nice -n 10 make -C "$src" O="$obj" CC="ccache gcc" -j"$jobs" "$@"
}

# Build into LOG; fail on a build error or on any compiler warning (the
# pristine tree builds without one in this configuration).
build() {
	local log=$1
	kmake bzImage modules >"$log" 2>&1 || return 1
	! grep -q 'warning:' "$log"
}

# Why a build failed, in one line.
build_reason() {
	local log=$1 line
	line=$(grep -m1 -E 'error:|Error [0-9]' "$log" || true)
	[ -n "$line" ] || line=$(grep -m1 'warning:' "$log" || true)
	[ -n "$line" ] || line=$(tail -1 "$log")
	echo "${line#"$src"/}"
}

# --- the series file ----------------------------------------------------
series=$PATCHES/series
[ -f "$series" ] || die "kernel/patches/series: no such file"
mapfile -t patches < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$series" |
	grep -v '^$' || true)
[ "${#patches[@]}" -gt 0 ] || die "kernel/patches/series: lists no patch"
for p in "${patches[@]}"; do
	[ -f "$PATCHES/$p" ] || die "kernel/patches/series: $p: no such patch"
done

mkdir -p "$CHECK"
exec 9>"$CHECK/lock"
flock -n 9 || die "check-series: another check is running ($CHECK/lock)"

"$TOP/kernel/scripts/source-tree.sh"
checkpatch=$LINUX_GIT/scripts/checkpatch.pl

# --- a clean tree at base -----------------------------------------------
if [ ! -e "$src/.git" ]; then
	rm -rf "$src"
	add_worktree "$src" --detach
fi
git -C "$src" am --abort >/dev/null 2>&1 || true
git -C "$src" checkout -q -f --detach base
git -C "$src" clean -q -f -d
# An empty .scmversion keeps the release free of a "+" for the git tree.
: >"$src/.scmversion"
mkdir -p "$obj"

# The configuration build.sh gives the patched variant.
configure_tree "$src" "$obj" patched "$CHECK/config.log"

count="${#patches[@]} patch"
[ "${#patches[@]}" = 1 ] || count="${count}es"
echo "check-series: $count on $(git -C "$src" log -1 --format=%s base)"
if ! build "$CHECK/base.log"; then
	say FAIL "base: the pristine tree does not build: $(build_reason "$CHECK/base.log")"
	exit 1
fi
say ok "base builds"

# --- each patch in order ------------------------------------------------
failed=0
applying=1
for p in "${patches[@]}"; do
	problems=()
	log=$CHECK/${p%.patch}.log

	if ! out=$("$checkpatch" --no-tree --no-color "$PATCHES/$p" 2>&1); then
		first=$(grep -m1 '^ERROR:' <<<"$out" ||
			grep -m1 '^WARNING:' <<<"$out" || true)
		problems+=("checkpatch: $(grep -m1 '^total:' <<<"$out" || true); first: $first")
	fi

	if [ "$applying" = 1 ]; then
		if ! git -C "$src" "${GIT_ID[@]}" am -q --keep-cr "$PATCHES/$p" \
			>"$log" 2>&1; then
			git -C "$src" am --abort >/dev/null 2>&1 || true
			problems+=("does not apply: $(grep -m1 -E 'error|failed' "$log" || echo 'see git am')")
			applying=0
		elif ! build "$log"; then
			problems+=("build: $(build_reason "$log")")
		fi
	else
		problems+=("not applied: an earlier patch does not apply")
	fi

	if [ "${#problems[@]}" -eq 0 ]; then
		say ok "$p: applies, builds, checkpatch clean"
	else
		failed=$((failed + 1))
		say FAIL "$p"
		for why in "${problems[@]}"; do
			echo "         $why"
		done
	fi
done

if [ "$failed" -gt 0 ]; then
	echo "check-series: $failed of $count FAILED (logs in ${CHECK#"$TOP"/})"
	exit 1
fi
echo "check-series: $count, all pass"
