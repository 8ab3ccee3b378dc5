#!/bin/bash
# Check the series as a maintainer would take it, and bisectably:
#
#  - format: kernel/patches/0000-cover-letter.patch is "[PATCH 0/N]" and
#    patch n of the series is "[PATCH n/N]"; every patch has a
#    Signed-off-by; scripts/checkpatch.pl --strict reports no error and no
#    warning, and every CHECK it reports is named in the cover letter
#    (its message, as checkpatch prints it, with why it is kept);
#  - each patch in order, on top of the pristine tree and the patches
#    before it: applies with git am, the kernel builds (bzImage and
#    modules, the patched variant's configuration) without a compiler
#    warning, and boots topologies/smoke.toml under TCG with a guest image
#    built for it.
#
# CHECK_SERIES_BUILD=0 stops after git am (no build, no boot);
# CHECK_SERIES_BOOT=0 builds but does not boot; CHECK_SERIES_PATCHES=DIR
# checks another directory of patches; CHECK_SERIES_FROM=N resumes a
# check at patch N: only if the check tree still holds patches 1..N-1 as
# they are now (same patch-id), those are not built or booted again, and
# patch N on builds incrementally on top of them.  Prints one verdict per patch and
# the time the whole check took; exits non-zero if any patch fails.
#
# The check tree is a worktree of the pristine repository under
# build/check-series, rebuilt incrementally: after a patch only what it
# touches recompiles, and ccache shares objects with the variant builds.
. "$(dirname "$0")/common.sh"

PATCHES=${CHECK_SERIES_PATCHES:-$TOP/kernel/patches}
DO_BUILD=${CHECK_SERIES_BUILD:-1}
DO_BOOT=${CHECK_SERIES_BOOT:-1}
[ "$DO_BUILD" = 1 ] || DO_BOOT=0
CHECK=$BUILD/check-series
src=$CHECK/linux
obj=$src/.obj-check
# The guest image of each prefix is built under its own build directory,
# where the kernel of the prefix stands as the patched variant.
boot=$CHECK/boot
jobs=${JOBS:-$(nproc)}
started=$(date +%s)

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
	nice -n 10 make -C "$src" O="$obj" CC="ccache gcc" \
		LOCALVERSION=-patched -j"$jobs" "$@"
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

# Install the kernel just built as the patched variant of $boot, build
# its guest image and boot the smoke topology; the reason on failure.
boot_prefix() {
	local name=$1 log=$2 run=$CHECK/results
	install_kernel "$src" "$obj" "$boot/kernel/out/patched" patched \
		"$log" || { echo "install failed (see $log)"; return 1; }
	# The guest tools do not depend on the kernel: start from ours.
	if [ ! -d "$boot/guest-tools/bin" ] && [ -d "$BUILD/guest-tools/bin" ]; then
		mkdir -p "$boot/guest-tools"
		cp -a "$BUILD/guest-tools/bin" "$BUILD/guest-tools/obj" \
			"$BUILD/guest-tools/obj32" "$boot/guest-tools/" 2>/dev/null || true
	fi
	# -o keeps make from building a kernel of its own; the module and
	# the image are made again for this prefix.
	rm -rf "$boot/guest-tools/module/patched" "$boot/initramfs/patched.cpio"
	if ! nice -n 10 make -s -C "$TOP" BUILD="$boot" \
		-o "$boot/kernel/out/patched/bzImage" \
		"$boot/initramfs/patched.cpio" >>"$log" 2>&1; then
		echo "guest image failed (see $log)"
		return 1
	fi
	rm -rf "${run:?}/$name"
	if ! BUILD=$boot "$TOP/blkscale" run "$TOP/topologies/smoke.toml" \
		--variant patched --accel tcg --run-id "$name" \
		--results-dir "$run" --quiet >>"$log" 2>&1; then
		echo "smoke boot failed (see $log and $run/$name/patched/console.log)"
		return 1
	fi
}

# The verdict line of NAME from the problems found: ok and what passed
# (TEXT), or FAIL and each problem on a line of its own.
verdict() {
	if [ "${#problems[@]}" -eq 0 ]; then
		say ok "$1: $2"
	else
		failed=$((failed + 1))
		say FAIL "$1"
		printf '         %s\n' "${problems[@]}"
	fi
}

# The subject of a patch file, on one line.
subject() {
	sed -n '/^Subject:/{s/^Subject: *//;p;q}' "$1"
}

# Format problems of patch N of TOTAL (0: the cover letter), one a line.
format_problems() {
	local file=$1 n=$2 total=$3 cover=$4 out line msg
	case $(subject "$file") in
	"[PATCH $n/$total] "*) ;;
	*) echo "subject is not \"[PATCH $n/$total] ...\": $(subject "$file")" ;;
	esac
	[ "$n" -gt 0 ] || return 0
	grep -q '^Signed-off-by: .* <.*@.*>$' "$file" ||
		echo "no Signed-off-by"
	out=$("$checkpatch" --strict --no-tree --no-color --show-types \
		"$file" 2>&1 || true)
	line=$(grep -m1 -E '^(ERROR|WARNING):' <<<"$out" || true)
	[ -z "$line" ] || echo "checkpatch --strict: $line"
	while IFS= read -r line; do
		msg=${line#CHECK:}
		msg=${msg#*:}
		if ! grep -qF -- "$msg" "$cover" 2>/dev/null; then
			echo "checkpatch --strict: $line (not named in the cover letter)"
		fi
	done < <(grep -E '^CHECK:' <<<"$out" || true)
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
cover=$PATCHES/0000-cover-letter.patch
total=${#patches[@]}

mkdir -p "$CHECK"
exec 9>"$CHECK/lock"
flock -n 9 || die "check-series: another check is running ($CHECK/lock)"

"$TOP/kernel/scripts/source-tree.sh"
checkpatch=$LINUX_GIT/scripts/checkpatch.pl

count="$total patch"
[ "$total" = 1 ] || count="${count}es"
echo "check-series: $count on $(git -C "$LINUX_GIT" log -1 --format=%s base)"

failed=0
# --- the cover letter ---------------------------------------------------
if [ ! -f "$cover" ]; then
	say FAIL "0000-cover-letter.patch: no such file"
	failed=$((failed + 1))
else
	mapfile -t problems < <(format_problems "$cover" 0 "$total" "$cover")
	verdict 0000-cover-letter.patch "[PATCH 0/$total]"
fi

# --- a clean tree at base, or at patch FROM-1 when resuming ------------
from=${CHECK_SERIES_FROM:-1}
[[ "$from" =~ ^[1-9][0-9]*$ ]] && [ "$from" -le "$total" ] ||
	die "CHECK_SERIES_FROM=$from: not a patch number from 1 to $total"
if [ ! -e "$src/.git" ]; then
	[ "$from" = 1 ] || die "CHECK_SERIES_FROM=$from: no check tree to resume (run the whole check)"
	rm -rf "$src"
	add_worktree "$src" --detach
fi
git -C "$src" am --abort >/dev/null 2>&1 || true
if [ "$from" -gt 1 ]; then
	# Resume only on the very commits an earlier check made of patches
	# 1..FROM-1: git leaves files it does not change untouched, so kbuild
	# rebuilds only what the later patches change.
	mapfile -t held < <(git -C "$src" rev-list --reverse base..HEAD)
	for ((i = 0; i < from - 1; i++)); do
		want=$(git patch-id --stable <"$PATCHES/${patches[i]}" | cut -d' ' -f1)
		have=$(git -C "$src" show "${held[i]:-none}" 2>/dev/null |
			git patch-id --stable | cut -d' ' -f1)
		[ -n "$want" ] && [ "$want" = "$have" ] ||
			die "CHECK_SERIES_FROM=$from: the check tree does not hold ${patches[i]} as it is now (run the whole check)"
	done
	git -C "$src" reset -q --hard "${held[from - 2]}"
else
	git -C "$src" checkout -q -f --detach base
fi
git -C "$src" clean -q -f -d
# An empty .scmversion keeps the release free of a "+" for the git tree.
: >"$src/.scmversion"
mkdir -p "$obj"

if [ "$DO_BUILD" = 1 ] && [ "$from" -gt 1 ]; then
	held_text="patch 1"
	[ "$from" -le 2 ] || held_text="patches 1-$((from - 1))"
	say ok "$held_text: held from an earlier check (CHECK_SERIES_FROM=$from)"
elif [ "$DO_BUILD" = 1 ]; then
	# The configuration build.sh gives the patched variant.
	configure_tree "$src" "$obj" patched "$CHECK/config.log"
	if ! build "$CHECK/base.log"; then
		say FAIL "base: the pristine tree does not build: $(build_reason "$CHECK/base.log")"
		exit 1
	fi
	say ok "base builds"
fi

# --- each patch in order ------------------------------------------------
what="applies"
[ "$DO_BUILD" = 1 ] && what="$what, builds"
[ "$DO_BOOT" = 1 ] && what="$what, boots"
applying=1
n=0
for p in "${patches[@]}"; do
	n=$((n + 1))
	log=$CHECK/${p%.patch}.log
	mapfile -t problems < <(format_problems "$PATCHES/$p" "$n" "$total" "$cover")

	if [ "$n" -lt "$from" ]; then
		verdict "$p" "format and checkpatch --strict clean; built and booted by an earlier check"
		continue
	fi
	if [ "$applying" = 1 ]; then
		if ! git -C "$src" "${GIT_ID[@]}" am -q --keep-cr "$PATCHES/$p" \
			>"$log" 2>&1; then
			git -C "$src" am --abort >/dev/null 2>&1 || true
			problems+=("does not apply: $(grep -m1 -E 'error|failed' "$log" || echo 'see git am')")
			applying=0
		elif [ "$DO_BUILD" = 1 ] && ! build "$log"; then
			problems+=("build: $(build_reason "$log")")
		elif [ "$DO_BOOT" = 1 ] && ! why=$(boot_prefix "${p%%-*}" "$log"); then
			problems+=("boot: $why")
		fi
	else
		problems+=("not applied: an earlier patch does not apply")
	fi

	verdict "$p" "$what, format and checkpatch --strict clean"
done

took=$(($(date +%s) - started))
took="$((took / 60))m$((took % 60))s"
if [ "$failed" -gt 0 ]; then
	echo "check-series: $failed FAILED of $count and the cover letter (logs in ${CHECK#"$TOP"/}; $took)"
	exit 1
fi
echo "check-series: $count and the cover letter, all pass ($what; $took)"
