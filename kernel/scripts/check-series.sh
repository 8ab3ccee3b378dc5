#!/bin/bash
# Check the series as a maintainer would take it, and bisectably:
#
#  - format: the cover letter, kernel/patches/0000-cover-letter.patch,
#    declares the subject prefix, "[RFC PATCH v3 0/N]" or any
#    "[(RFC )PATCH( vK) 0/N]", and patch n of the series must carry the
#    same prefix, "[RFC PATCH v3 n/N]" (n plain or zero-padded as git
#    format-patch writes it); the cover letter has a "base-commit:" line;
#    from v2 on, every patch has a changelog below its "---" ("v3: ..." or
#    "Changes since v2:" lines before the diffstat); every patch has a
#    Signed-off-by (the committed placeholder identity is fine: `make
#    format-series` writes the sendable copy); no text is still a
#    placeholder ("@@FIGURES@@": figures not measured yet); scripts/checkpatch.pl
#    --strict reports no error and no warning, and every CHECK it reports
#    is named in the cover letter (its message, as checkpatch prints it,
#    with why it is kept);
#  - each patch in order, on top of the pristine tree and the patches
#    before it: applies with git am, then in each configuration of
#    CHECK_SERIES_CONFIGS (default: all of them):
#      x86_64    the patched variant's configuration: bzImage and modules
#                build without a compiler warning, and the kernel boots
#                topologies/smoke.toml under TCG with a guest image built
#                for it;
#      noprocfs  the same configuration without CONFIG_PROC_FS,
#      nolegacy  the same without CONFIG_BLOCK_LEGACY_AUTOLOAD,
#      i386      ARCH=i386, i386_defconfig with kernel/configs/blkscale.config
#                where it applies,
#      w1        the patched variant's configuration with W=1,
#      sparse    the same with C=2 (sparse, when it is installed):
#    the five extra configurations compile only the objects of the C files
#    the patch changes (all the C files of the series when it changes a
#    header), each in an object directory of its own configured and
#    prepared once, and fail on an error or on a warning those files do
#    not give at base (recorded file by file before the first patch).
#
# kernel/patches holds several series, each a directory with its cover
# letter, patches and series file (driver-core, majors, partitions), and
# its own series file lists theirs one after the other, which is what
# the patched variants apply: the check then runs once per series, each
# from the base and in build/check-series/NAME, and fails if one does
# (CHECK_SERIES_PATCHES=kernel/patches/NAME checks one of them alone).
# A new file draws checkpatch's FILE_PATH_CHANGES warning; it passes
# when the cover letter names it, as a CHECK does.
#
# CHECK_SERIES_VARIANT=patched-6.12 checks the series of another variant
# of kernel/variants.toml (its base, patches and configuration; default
# patched, the 6.1 series) in build/check-series-<variant>;
# CHECK_SERIES_BUILD=0 stops after git am (no build, no boot);
# CHECK_SERIES_BOOT=0 builds but does not boot; CHECK_SERIES_CONFIGS="..."
# picks configurations; CHECK_SERIES_PATCHES=DIR checks another directory
# of patches; CHECK_SERIES_DIR=DIR keeps the check tree and logs elsewhere
# than build/check-series; CHECK_SERIES_FROM=N resumes a check at patch
# N: only if the check tree still holds patches 1..N-1 as they are now
# (same patch-id), those are not built or booted again, and patch N on
# builds incrementally on top of them.  Prints one verdict per patch, with
# a line per configuration, and the time each configuration took; exits
# non-zero if any patch fails.
#
# The whole output goes to check-series.log in the check directory as
# well, headed by the date, the base, the patches and the configurations;
# a check that builds every patch of kernel/patches is also kept as
# last-full-check.log, for the series author to copy into
# kernel/measure/evidence/.
#
# The check tree is a worktree of the pristine repository under
# build/check-series, rebuilt incrementally: after a patch only what it
# touches recompiles, and ccache shares objects with the variant builds.
. "$(dirname "$0")/common.sh"

# The series is a variant's (kernel/variants.toml): its base's pristine
# tree, its patch directory and its configuration.  patched is the 6.1
# series; CHECK_SERIES_VARIANT=patched-6.12 checks the same series on 6.12.
SERIES_VARIANT=${CHECK_SERIES_VARIANT:-patched}
variant_load "$SERIES_VARIANT"
[ "$VARIANT_KIND" = source ] && [ -n "$VARIANT_PATCHES" ] ||
	die "CHECK_SERIES_VARIANT=$SERIES_VARIANT: not a variant built from source with patches (kernel/variants.toml)"
SERIES_BASE=$VARIANT_BASE_VERSION
SERIES_PATCHES=$TOP/$VARIANT_PATCHES
LINUX_GIT=$(base_git "$SERIES_BASE")
PATCHES=${CHECK_SERIES_PATCHES:-$SERIES_PATCHES}
# The checks run in other directories: a relative path is the caller's.
[ -d "$PATCHES" ] || die "CHECK_SERIES_PATCHES=$PATCHES: not a directory"
PATCHES=$(cd "$PATCHES" && pwd)
DO_BUILD=${CHECK_SERIES_BUILD:-1}
DO_BOOT=${CHECK_SERIES_BOOT:-1}
[ "$DO_BUILD" = 1 ] || DO_BOOT=0
if [ "$SERIES_VARIANT" = patched ]; then
	CHECK=${CHECK_SERIES_DIR:-$BUILD/check-series}
else
	CHECK=${CHECK_SERIES_DIR:-$BUILD/check-series-$SERIES_VARIANT}
fi
LOG=$CHECK/check-series.log
ALL_CONFIGS="x86_64 noprocfs nolegacy i386 w1 sparse"

# --- several series -----------------------------------------------------
# A patch directory whose series lists only patches of subdirectories
# (kernel/patches: driver-core/..., majors/..., partitions/...) is
# several series applied in turn, each a directory with its own cover
# letter and series file.  Its series must be theirs concatenated, in
# the order it names them; each is checked on its own, from the base,
# in a check directory of its own ($CHECK/NAME), and the check fails if
# any of them does.
if [ -f "$PATCHES/series" ] && [ ! -f "$PATCHES/0000-cover-letter.patch" ]; then
	mapfile -t entries < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' \
		"$PATCHES/series" | grep -v '^$' || true)
	nested=0
	for e in "${entries[@]}"; do
		[[ "$e" =~ ^[A-Za-z0-9_][A-Za-z0-9_.+-]*/[^/]+$ ]] && nested=$((nested + 1))
	done
	if [ "$nested" -gt 0 ]; then
		shown=${PATCHES#"$TOP"/}/series
		[ "$nested" = "${#entries[@]}" ] ||
			die "$shown: lists patches of subdirectories and others: list only the series' directories' patches"
		[ -z "${CHECK_SERIES_FROM:-}" ] ||
			die "CHECK_SERIES_FROM: $shown holds several series: name one with CHECK_SERIES_PATCHES=${PATCHES#"$TOP"/}/NAME"
		mapfile -t parts < <(printf '%s\n' "${entries[@]}" | cut -d/ -f1 | awk '!seen[$0]++')
		want=
		for s in "${parts[@]}"; do
			[ -f "$PATCHES/$s/series" ] ||
				die "$shown: ${PATCHES#"$TOP"/}/$s/series: no such file"
			want+=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$PATCHES/$s/series" |
				grep -v '^$' | sed "s|^|$s/|")$'\n'
		done
		[ "$(printf '%s\n' "${entries[@]}")" = "${want%$'\n'}" ] ||
			die "$shown: not the series of ${parts[*]} one after the other: list each one's series, in order"
		status=0
		for s in "${parts[@]}"; do
			echo "check-series: series ${PATCHES#"$TOP"/}/$s"
			CHECK_SERIES_PATCHES=$PATCHES/$s CHECK_SERIES_DIR=$CHECK/$s \
				"$0" "$@" || status=1
		done
		[ "$status" = 0 ] || echo "check-series: a series FAILED: ${parts[*]} (logs in ${CHECK#"$TOP"/}/NAME)"
		exit "$status"
	fi
fi

# --- the log ------------------------------------------------------------
# The check runs again under tee.  The lock is taken first, so that a
# check refused by it leaves the log of the one running alone; the inner
# run inherits the lock with its descriptor.
if [ -z "${CHECK_SERIES_LOGGED:-}" ]; then
	mkdir -p "$CHECK"
	exec 9>"$CHECK/lock"
	flock -n 9 || die "check-series: another check is running ($CHECK/lock)"
	status=0
	CHECK_SERIES_LOGGED=1 "$0" "$@" 2>&1 | tee "$LOG" || status=${PIPESTATUS[0]}
	if [ "$DO_BUILD" = 1 ] && [ "${CHECK_SERIES_FROM:-1}" = 1 ] &&
		[ "$PATCHES" = "$SERIES_PATCHES" ]; then
		cp "$LOG" "$CHECK/last-full-check.log"
	fi
	exit "$status"
fi

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

# Seconds as "XmYYs".
duration() {
	printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
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
	local log=$1 text line
	# gcc colours its messages when ccache asks it to.
	text=$(sed 's/\x1b\[[0-9;]*[mK]//g' "$log")
	line=$(grep -m1 -E 'error:|Error [0-9]' <<<"$text" || true)
	[ -n "$line" ] || line=$(grep -m1 'warning:' <<<"$text" || true)
	[ -n "$line" ] || line=$(tail -1 <<<"$text")
	line=${line#"$src"/}
	echo "${line#../}"
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

# --- the configurations ---------------------------------------------------

# What configuration NAME is, for the head of the log.
config_what() {
	case $1 in
	x86_64) echo "the patched variant's configuration: bzImage and modules without a warning$([ "$DO_BOOT" = 1 ] && echo ", smoke boot")" ;;
	noprocfs) echo "the patched variant's configuration without CONFIG_PROC_FS" ;;
	nolegacy) echo "the patched variant's configuration without CONFIG_BLOCK_LEGACY_AUTOLOAD" ;;
	i386) echo "ARCH=i386: i386_defconfig with kernel/configs/blkscale.config where it applies" ;;
	w1) echo "the patched variant's configuration, W=1" ;;
	sparse) echo "the patched variant's configuration, C=2 (sparse)" ;;
	esac
}

# The object directory of extra configuration NAME: inside the tree, so
# that kbuild's srctree is ".." as in the variant builds.
config_obj() {
	echo "$src/.obj-$1"
}

# make in the object directory of extra configuration NAME.
cmake() {
	local name=$1 args=()
	shift
	case $name in
	i386) args=(ARCH=i386) ;;
	w1) args=(W=1) ;;
	sparse) args=(C=2) ;;
	esac
	nice -n 10 make -C "$src" O="$(config_obj "$name")" CC="ccache gcc" \
		LOCALVERSION=-patched -j"$jobs" "${args[@]}" "$@"
}

# Options of the patched variant's fragments that the .config in ODIR
# does not hold as asked, on one line: what "where it applies" left out.
unapplied() {
	local odir=$1 f line sym out=
	for f in $(variant_fragments "$SERIES_VARIANT"); do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*)
				sym=${line%%=*}
				grep -qxF "$line" "$odir/.config" || out="$out ${sym#CONFIG_}" ;;
			esac
		done <"$f"
	done
	echo "${out# }"
}

# Write the .config of extra configuration NAME, keeping the one there
# when nothing changed so that its objects stay valid.  The reason on
# failure.
configure_config() {
	local name=$1 log=$2 odir off="" target=allnoconfig f
	odir=$(config_obj "$name")
	mkdir -p "$odir"
	case $name in
	w1 | sparse)
		# The patched variant's configuration as build.sh writes it.
		(configure_tree "$src" "$odir" "$SERIES_VARIANT" "$log") ||
			{ echo "configuration failed (see $log)"; return 1; }
		return 0 ;;
	noprocfs) off=CONFIG_PROC_FS ;;
	nolegacy) off=CONFIG_BLOCK_LEGACY_AUTOLOAD ;;
	i386) target=alldefconfig ;;
	esac
	{
		if [ "$name" = i386 ]; then
			cat "$src/arch/x86/configs/i386_defconfig"
		else
			cat "$src/kernel/configs/tiny-base.config" \
				"$src/kernel/configs/tiny.config" \
				"$src/arch/x86/configs/tiny.config"
		fi
		for f in $(variant_fragments "$SERIES_VARIANT"); do cat "$f"; done
		# Last, so that it overrides the fragments.
		[ -z "$off" ] || echo "# $off is not set"
	} >"$odir/blkscale.allconfig"
	KCONFIG_ALLCONFIG=$odir/blkscale.allconfig cmake "$name" \
		KCONFIG_CONFIG=.config.new "$target" >"$log" 2>&1 ||
		{ echo "configuration failed (see $log)"; return 1; }
	if [ -n "$off" ] && grep -q "^$off=" "$odir/.config.new"; then
		echo "kconfig keeps $off on (see $log)"
		return 1
	fi
	if ! cmp -s "$odir/.config.new" "$odir/.config"; then
		mv "$odir/.config.new" "$odir/.config"
	else
		rm -f "$odir/.config.new"
	fi
}

# Whether kbuild builds NAME (FILE.o, or DIR/) of directory DIR in the
# configuration of ODIR: a line of DIR's Makefile adds it to obj-y/obj-m,
# or to a composite object that is built, under an option that is y or m,
# and DIR itself is built.  The Makefiles are read as text (ifdef blocks
# are not followed); what no Makefile names is taken as built.  This
# keeps fs/proc/devices.c out of the configuration without /proc.
in_config() {
	local odir=$1 dir=$2 name=$3 mk l owner cond sym lhs
	if [ "$dir" = . ]; then
		mk=$src/Kbuild
	else
		mk=$src/$dir/Kbuild
		[ -f "$mk" ] || mk=$src/$dir/Makefile
	fi
	[ -f "$mk" ] || return 0
	mapfile -t lhs < <(awk -v name="$name" '
		{ line = line $0 }
		/\\$/ { sub(/\\$/, " ", line); next }
		{
			sub(/#.*/, "", line)
			if (match(line, /^[ \t]*[A-Za-z0-9_$()-]+[ \t]*[:+]?=/)) {
				l = substr(line, 1, RLENGTH)
				sub(/[ \t]*[:+]?=$/, "", l)
				gsub(/[ \t]/, "", l)
				n = split(substr(line, RLENGTH + 1), w, /[ \t]+/)
				for (i = 1; i <= n; i++)
					if (w[i] == name) { print l; break }
			}
			line = ""
		}' "$mk")
	[ "${#lhs[@]}" -gt 0 ] || return 0
	for l in "${lhs[@]}"; do
		owner=${l%-*}
		cond=${l##*-}
		# shellcheck disable=SC2016 # a make variable, literally
		case $cond in
		y | m | objs) ;;
		'$(CONFIG_'*')')
			sym=${cond#\$(}
			sym=${sym%)}
			grep -qE "^$sym=[ym]$" "$odir/.config" || continue ;;
		*) continue ;;
		esac
		case $owner in
		obj | lib)
			[ "$dir" = . ] && return 0
			in_config "$odir" "$(dirname "$dir")" "$(basename "$dir")/" &&
				return 0 ;;
		*)
			in_config "$odir" "$dir" "$owner.o" && return 0 ;;
		esac
	done
	return 1
}

# The warnings of a build log, sparse's errors among them, one a line as
# "SOURCE<TAB>MESSAGE": SOURCE is the file being compiled (the CC or
# CHECK line before; make runs with --output-sync so that a file's lines
# stay together), and MESSAGE leaves out line and column, so that a
# warning the patch only moves is still the same warning.
warnings_of() {
	awk -v src="$src/" '
		{ gsub(/\033\[[0-9;]*[mK]/, "") }
		/^  (CC|CHECK) / {
			f = $NF
			sub(/^\.\.\//, "", f)
			sub(/\.[co]$/, "", f)
			next
		}
		/: (warning|error): / {
			line = $0
			if (index(line, src) == 1)
				line = substr(line, length(src) + 1)
			sub(/^\.\.\//, "", line)
			if (match(line, /^[^ :]+:[0-9]+(:[0-9]+)?: /)) {
				loc = substr(line, 1, RLENGTH)
				rest = substr(line, RLENGTH + 1)
				sub(/:[0-9]+(:[0-9]+)?: $/, "", loc)
				line = loc ": " rest
			}
			print f "\t" line
		}' "$1"
}

# Compile FILES (C files of the tree) from scratch in extra configuration
# NAME, as STAGE (base, or a patch's name): the build log and its
# warnings go to the configuration's directory.  Prints the files kbuild
# builds in that configuration; the others go to $CHECK/configs/NAME/STAGE.skipped.
compile_config() {
	local name=$1 stage=$2 dir odir f objs=() status=0
	shift 2
	dir=$CHECK/configs/$name
	odir=$(config_obj "$name")
	mkdir -p "$dir"
	: >"$dir/$stage.skipped"
	for f in "$@"; do
		[ -f "$src/$f" ] || continue
		if in_config "$odir" "$(dirname "$f")" "$(basename "${f%.c}").o"; then
			objs+=("${f%.c}.o")
			# From scratch, so that every warning shows again.
			rm -f "$odir/${f%.c}.o"
		else
			echo "$f" >>"$dir/$stage.skipped"
		fi
	done
	: >"$dir/$stage.log"
	if [ "${#objs[@]}" -gt 0 ]; then
		cmake "$name" --output-sync=target "${objs[@]}" \
			>"$dir/$stage.log" 2>&1 || status=$?
	fi
	warnings_of "$dir/$stage.log" >"$dir/$stage.warn"
	echo "${objs[*]}"
	return "$status"
}

# Configure, prepare and compile the series' C files at base in extra
# configuration NAME: the warnings each file gives there are what later
# patches are judged against.  Prints the verdict's text; fails with the
# reason.
base_config() {
	local name=$1 dir why objs n left
	dir=$CHECK/configs/$name
	mkdir -p "$dir"
	why=$(configure_config "$name" "$dir/config.log") || { echo "$why"; return 1; }
	if ! cmake "$name" prepare >"$dir/prepare.log" 2>&1; then
		echo "make prepare failed: $(build_reason "$dir/prepare.log")"
		return 1
	fi
	if ! objs=$(compile_config "$name" base "${series_c[@]}"); then
		echo "the pristine tree does not compile: $(build_reason "$dir/base.log")"
		return 1
	fi
	n=$(wc -l <"$dir/base.warn")
	echo -n "configured, prepared, ${objs:-nothing} compiled; $n warning(s) at base"
	[ "$n" = 0 ] || echo -n " ($(cut -f1 "$dir/base.warn" | sort | uniq -c |
		awk '{ printf "%s%s %s", sep, $2, $1; sep = ", " }'))"
	[ ! -s "$dir/base.skipped" ] ||
		echo -n "; not in this configuration: $(tr '\n' ' ' <"$dir/base.skipped" | sed 's/ $//')"
	if [ "$name" = i386 ]; then
		left=$(unapplied "$(config_obj "$name")")
		[ -z "$left" ] || echo -n "; blkscale.config options that do not apply: $left"
	fi
	echo
}

# Check the current tree in extra configuration NAME as patch STAGE
# (compiling C FILES), against the configuration's base record.  Prints
# the verdict's text; fails with the reason.
patch_config() {
	local name=$1 stage=$2 dir objs new n skipped
	shift 2
	dir=$CHECK/configs/$name
	if ! objs=$(compile_config "$name" "$stage" "$@"); then
		echo "does not compile: $(build_reason "$dir/$stage.log")"
		return 1
	fi
	skipped=$(tr '\n' ' ' <"$dir/$stage.skipped" | sed 's/ $//')
	skipped=${skipped:+; not in this configuration: $skipped}
	[ -n "$objs" ] || { echo "nothing to compile$skipped"; return 0; }
	new=$(comm -23 <(sort "$dir/$stage.warn") <(sort "$dir/base.warn"))
	if [ -n "$new" ]; then
		n=$(wc -l <<<"$new")
		echo "$n new warning(s) against base, first: $(head -1 <<<"$new" | cut -f2-) (see $dir/$stage.log)"
		return 1
	fi
	echo "$objs compile, no warning new against base$skipped"
}

# The files a patch changes: the b/ side of its diff headers.
patch_files() {
	sed -n 's|^diff --git a/.* b/||p' "$1"
}

# The C files extra configurations compile for a patch: its own, and
# when it changes a header, every C file of the series (the code that
# uses what the series declares there).
patch_c_files() {
	local f
	for f in $(patch_files "$1"); do
		case $f in
		*.c) echo "$f" ;;
		*.h) printf '%s\n' "${series_c[@]}" ;;
		esac
	done | sort -u
}

# --- the format -----------------------------------------------------------

# The subject of a patch file, on one line.
subject() {
	sed -n '/^Subject:/{s/^Subject: *//;p;q}' "$1"
}

# "[(RFC )PATCH( vK) n/N] ": BASH_REMATCH 1 is the prefix, 4 the version,
# 5 the number, 6 the total.
SUBJECT_RE='^\[((RFC )?PATCH( v([0-9]+))?) ([0-9]+)/([0-9]+)\] '

# Number N of TOTAL as git format-patch writes it, zero-padded.
number() {
	printf '%0*d' "${#2}" "$1"
}

# The prefix the series must carry: the cover letter's, else the first
# patch's, else "PATCH"; sets prefix and version (1 without a "vK").
series_prefix() {
	local s
	prefix=PATCH
	version=1
	for s in "$(subject "$cover" 2>/dev/null || true)" "$(subject "$PATCHES/${patches[0]}")"; do
		if [[ $s =~ $SUBJECT_RE ]]; then
			prefix=${BASH_REMATCH[1]}
			version=${BASH_REMATCH[4]:-1}
			return
		fi
	done
}

# The lines between a patch's first "---" and its diffstat (or diff):
# where the per-patch changelog goes, which git am leaves out.
below_dashes() {
	awk '
		!seen && /^---$/ { seen = 1; next }
		seen && (/^ [^ ].* \| +([0-9]+|Bin)/ || /^ [0-9]+ files? changed/ || /^diff --git /) { exit }
		seen { print }' "$1"
}

# Format problems of patch N of TOTAL (0: the cover letter), one a line.
format_problems() {
	local file=$1 n=$2 total=$3 cover=$4 out line msg s want
	s=$(subject "$file")
	want="[$prefix $(number "$n" "$total")/$total]"
	if [[ $s =~ $SUBJECT_RE ]] && [ "${BASH_REMATCH[1]}" != "$prefix" ]; then
		echo "subject prefix \"[${BASH_REMATCH[1]} ...]\" is not the cover letter's \"[$prefix $(number 0 "$total")/$total]\": expected \"$want ...\", found: $s"
	elif [ "$n" = 0 ] && [[ $s =~ $SUBJECT_RE ]] &&
		[ "$((10#${BASH_REMATCH[5]}))" = 0 ] && [ "${BASH_REMATCH[6]}" != "$total" ]; then
		echo "subject says ${BASH_REMATCH[6]} patches, the series has $total: $s"
	elif ! [[ $s =~ $SUBJECT_RE ]] || [ "$((10#${BASH_REMATCH[5]}))" != "$n" ] ||
		[ "${BASH_REMATCH[6]}" != "$total" ] ||
		{ [ "${BASH_REMATCH[5]}" != "$n" ] && [ "${BASH_REMATCH[5]}" != "$(number "$n" "$total")" ]; }; then
		echo "subject is not \"$want ...\": $s"
	fi
	# A placeholder stands where figures or text belong: not sendable.
	line=$(grep -m1 -oE '@@[A-Z_]+@@' "$file" || true)
	[ -z "$line" ] ||
		echo "$line where text belongs: the figures or words it stands for are not written yet"
	if [ "$n" = 0 ]; then
		grep -qE '^base-commit: [0-9a-f]{40}$' "$file" ||
			echo "no \"base-commit: <40-hex commit>\" line: the commit the series applies to, as git format-patch --base writes it below the diffstat"
		return 0
	fi
	grep -q '^Signed-off-by: .* <.*@.*>$' "$file" ||
		echo "no Signed-off-by"
	if [ "$version" -ge 2 ] && ! below_dashes "$file" | grep -qE \
		'^[[:space:]]*(v[0-9]+([[:space:]]*(->|\.\.)[[:space:]]*v[0-9]+)?:|[Cc]hanges (since|in|from) v[0-9]+)'; then
		echo "no changelog below \"---\": a v$version patch says what changed since v$((version - 1)) in lines such as \"v$version: ...\" or \"Changes since v$((version - 1)):\" between \"---\" and the diffstat (\"v$version: new patch\" or \"v$version: unchanged\" if so)"
	fi
	out=$("$checkpatch" --strict --no-tree --no-color --show-types \
		--ignore UNKNOWN_COMMIT_ID \
		"$file" 2>&1 || true)
	# A new file under a directory MAINTAINERS already covers draws
	# FILE_PATH_CHANGES; like a CHECK, it passes when the cover letter
	# names it (its message, as checkpatch prints it, on a line).
	while IFS= read -r line; do
		case $line in
		WARNING:FILE_PATH_CHANGES:*)
			msg=${line#WARNING:FILE_PATH_CHANGES:}
			msg=${msg# }
			grep -qF -- "$msg" "$cover" 2>/dev/null && continue ;;
		esac
		echo "checkpatch --strict: $line"
		break
	done < <(grep -E '^(ERROR|WARNING):' <<<"$out" || true)
	while IFS= read -r line; do
		msg=${line#CHECK:}
		msg=${msg#*:}
		if ! grep -qF -- "$msg" "$cover" 2>/dev/null; then
			echo "checkpatch --strict: $line (not named in the cover letter)"
		fi
	done < <(grep -E '^CHECK:' <<<"$out" || true)
}

# The verdict of NAME: ok and what passed (TEXT) when nothing went
# wrong, else FAIL and each problem on a line of its own; then a line per
# configuration.
verdict() {
	if [ "${#problems[@]}" -eq 0 ] && [ "$config_failed" = 0 ]; then
		say ok "$1: $2"
	else
		failed=$((failed + 1))
		say FAIL "$1"
		[ "${#problems[@]}" -eq 0 ] || printf '         %s\n' "${problems[@]}"
	fi
	[ "${#config_lines[@]}" -eq 0 ] || printf '         %s\n' "${config_lines[@]}"
}

# Record configuration NAME's verdict for the current patch: STATUS (ok,
# FAIL, skip), TEXT and the seconds it took.
config_verdict() {
	local name=$1 status=$2 text=$3 secs=$4
	config_lines+=("$(printf '%-9s %-5s %s (%s)' "$name" "$status" "$text" "$(duration "$secs")")")
	[ "$status" != FAIL ] || config_failed=1
	spent[$name]=$((${spent[$name]:-0} + secs))
}

# --- the series file ----------------------------------------------------
series=$PATCHES/series
[ -f "$series" ] || die "${series#"$TOP"/}: no such file"
mapfile -t patches < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$series" |
	grep -v '^$' || true)
[ "${#patches[@]}" -gt 0 ] || die "${series#"$TOP"/}: lists no patch"
for p in "${patches[@]}"; do
	[ -f "$PATCHES/$p" ] || die "${series#"$TOP"/}: $p: no such patch"
done
cover=$PATCHES/0000-cover-letter.patch
total=${#patches[@]}
series_prefix

# Every C file of the series, for the base records and header changes.
mapfile -t series_c < <(for p in "${patches[@]}"; do patch_files "$PATCHES/$p"; done |
	grep '\.c$' | sort -u)

# The configurations, x86_64 first.
configs=()
if [ "$DO_BUILD" = 1 ]; then
	for c in ${CHECK_SERIES_CONFIGS:-$ALL_CONFIGS}; do
		case " $ALL_CONFIGS " in
		*" $c "*) ;;
		*) die "CHECK_SERIES_CONFIGS: $c is not one of: $ALL_CONFIGS" ;;
		esac
	done
	for c in $ALL_CONFIGS; do
		case " ${CHECK_SERIES_CONFIGS:-$ALL_CONFIGS} " in
		*" $c "*) configs+=("$c") ;;
		esac
	done
	[ "${#configs[@]}" -gt 0 ] || die "CHECK_SERIES_CONFIGS: no configuration"
fi
has_x86_64=0
[ "${configs[0]:-}" != x86_64 ] || has_x86_64=1
[ "$has_x86_64" = 1 ] || DO_BOOT=0
extra=()
for c in "${configs[@]}"; do [ "$c" = x86_64 ] || extra+=("$c"); done
declare -A spent=() base_ok=()

"$TOP/kernel/scripts/source-tree.sh" "$SERIES_BASE"
checkpatch=$LINUX_GIT/scripts/checkpatch.pl

count="$total patch"
[ "$total" = 1 ] || count="${count}es"
base_subject=$(git -C "$LINUX_GIT" log -1 --format=%s base)
echo "check-series: $count on $base_subject"
# The head of the log: enough to tell later what was checked, and how.
printf '  %-9s %s\n' date "$(date -u '+%Y-%m-%d %H:%M:%S UTC')" \
	base "$base_subject, commit $(git -C "$LINUX_GIT" rev-parse --short=12 base) of the pristine tree" \
	cover "$(subject "$cover" 2>/dev/null || echo "no cover letter")" \
	base-commit "$(sed -n 's/^base-commit: *//p' "$cover" 2>/dev/null | head -1 | grep . || echo "none in the cover letter")" \
	patches "${PATCHES#"$TOP"/} ($count, prefix \"[$prefix n/$total]\"), project commit $(git -C "$TOP" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)" \
	host "$(nproc) CPUs, $(gcc -dumpfullversion 2>/dev/null | sed 's/^/gcc /'), $(sparse --version 2>/dev/null | sed 's/^/sparse /' || echo "no sparse")" \
	run "configurations: ${configs[*]:-none}; boot: $([ "$DO_BOOT" = 1 ] && echo yes || echo no)${CHECK_SERIES_FROM:+; resumed at patch $CHECK_SERIES_FROM}"
if [ "$DO_BUILD" = 1 ]; then
	for c in "${configs[@]}"; do
		printf '  %-9s %s: %s\n' config "$c" "$(config_what "$c")"
	done
else
	printf '  %-9s %s\n' config "none (CHECK_SERIES_BUILD=0: git am only)"
fi

failed=0
problems=()
config_lines=()
config_failed=0
# --- the cover letter ---------------------------------------------------
if [ ! -f "$cover" ]; then
	say FAIL "0000-cover-letter.patch: no such file"
	failed=$((failed + 1))
else
	mapfile -t problems < <(format_problems "$cover" 0 "$total" "$cover")
	verdict 0000-cover-letter.patch "[$prefix $(number 0 "$total")/$total], base-commit"
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
	for c in "${extra[@]}"; do
		[ -f "$CHECK/configs/$c/base.warn" ] ||
			die "CHECK_SERIES_FROM=$from: no base record of configuration $c (run the whole check)"
		base_ok[$c]=1
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
	if [ "$has_x86_64" = 1 ]; then
		t=$(date +%s)
		# The configuration build.sh gives the patched variant.
		configure_tree "$src" "$obj" "$SERIES_VARIANT" "$CHECK/config.log"
		if ! build "$CHECK/base.log"; then
			say FAIL "base: the pristine tree does not build: $(build_reason "$CHECK/base.log")"
			exit 1
		fi
		secs=$(($(date +%s) - t))
		spent[x86_64]=$secs
		say ok "base builds (x86_64, $(duration "$secs"))"
	fi
	for c in "${extra[@]}"; do
		t=$(date +%s)
		if [ "$c" = sparse ] && ! command -v sparse >/dev/null; then
			say skip "base: sparse: not installed (make deps installs it); not checked"
			continue
		fi
		if text=$(base_config "$c"); then
			say ok "base: $c: $text ($(duration $(($(date +%s) - t))))"
			base_ok[$c]=1
		else
			say FAIL "base: $c: $text"
			failed=$((failed + 1))
		fi
		spent[$c]=$(($(date +%s) - t))
	done
fi
# A configuration whose base failed, or sparse when it is missing, is
# not checked on the patches.
checked=()
for c in "${extra[@]}"; do
	[ -n "${base_ok[$c]:-}" ] || continue
	[ "$c" != sparse ] || command -v sparse >/dev/null || continue
	checked+=("$c")
done

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
	config_lines=()
	config_failed=0

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
		elif [ "$DO_BUILD" = 1 ]; then
			if [ "$has_x86_64" = 1 ]; then
				t=$(date +%s)
				if ! build "$log"; then
					config_verdict x86_64 FAIL "build: $(build_reason "$log")" $(($(date +%s) - t))
				elif [ "$DO_BOOT" = 1 ] && ! why=$(boot_prefix "${p%%-*}" "$log"); then
					config_verdict x86_64 FAIL "builds; boot: $why" $(($(date +%s) - t))
				else
					config_verdict x86_64 ok "bzImage and modules, no warning$([ "$DO_BOOT" = 1 ] && echo ", smoke boot")" $(($(date +%s) - t))
				fi
			fi
			mapfile -t files < <(patch_c_files "$PATCHES/$p")
			for c in "${checked[@]}"; do
				t=$(date +%s)
				if text=$(patch_config "$c" "${p%.patch}" "${files[@]}"); then
					config_verdict "$c" ok "$text" $(($(date +%s) - t))
				else
					config_verdict "$c" FAIL "$text" $(($(date +%s) - t))
				fi
			done
		fi
	else
		problems+=("not applied: an earlier patch does not apply")
	fi

	verdict "$p" "$what, format and checkpatch --strict clean"
done

took=$(($(date +%s) - started))
if [ "${#spent[@]}" -gt 0 ]; then
	times=
	for c in "${configs[@]}"; do
		[ -z "${spent[$c]+x}" ] || times="$times, $c $(duration "${spent[$c]}")"
	done
	echo "check-series: time per configuration: ${times#, }"
fi
echo "check-series: log in ${LOG#"$TOP"/}"
if [ "$failed" -gt 0 ]; then
	echo "check-series: $failed FAILED of $count and the cover letter (logs in ${CHECK#"$TOP"/}; $(duration "$took"))"
	exit 1
fi
echo "check-series: $count and the cover letter, all pass ($what; $(duration "$took"))"
