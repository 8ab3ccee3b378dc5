#!/bin/bash
# Write a sendable copy of the series: the cover letter and every patch
# of kernel/patches/series (each series of it in a directory of its own,
# with its cover letter), with the committed placeholder author,
# "blkscale developers <blkscale@localhost>", replaced by the sender's git
# identity (git config user.name and user.email) in From:, Signed-off-by:
# and the cover letter's shortlog.  The copy goes to build/series-out/
# (FORMAT_SERIES_OUT=DIR elsewhere, FORMAT_SERIES_PATCHES=DIR reads another
# directory of patches), ready for git send-email.
#
# Refuses, in one line and with a non-zero exit, without an identity, with
# the placeholder as the identity, or if the placeholder would remain
# anywhere in the copy.
. "$(dirname "$0")/common.sh"

PATCHES=${FORMAT_SERIES_PATCHES:-$TOP/kernel/patches}
OUT=${FORMAT_SERIES_OUT:-$BUILD/series-out}
PLACEHOLDER_NAME="blkscale developers"
PLACEHOLDER_EMAIL="blkscale@localhost"

refuse() {
	echo "format-series: $*" >&2
	exit 1
}

# The sender's identity, "Name <email>", from git's configuration.
identity() {
	local name email
	name=$(git -C "$TOP" config user.name || true)
	email=$(git -C "$TOP" config user.email || true)
	[ -n "$name" ] && [ -n "$email" ] ||
		refuse "no git identity: set git config user.name and user.email to the sender's before formatting the series"
	# The placeholder (and the identity the check tree commits with) is
	# what is committed, never a sender.
	if [ "$name" = "$PLACEHOLDER_NAME" ] || [ "$email" = "$PLACEHOLDER_EMAIL" ]; then
		refuse "the git identity \"$name <$email>\" is the series' placeholder: set git config user.name and user.email to the sender's"
	fi
	echo "$name <$email>"
}

# Copy FILE to DEST with the placeholder author replaced by WHO (NAME
# <EMAIL>) where the author is named: From:, Signed-off-by: and the
# shortlog's "NAME (N):".
rewrite() {
	local file=$1 dest=$2 who=$3 name=$4
	WHO=$who NAME=$name PH="$PLACEHOLDER_NAME <$PLACEHOLDER_EMAIL>" \
		PHN=$PLACEHOLDER_NAME awk '
		function is(s, p) { return substr(s, 1, length(p)) == p }
		!body && is($0, "From: " ENVIRON["PH"]) { $0 = "From: " ENVIRON["WHO"] }
		/^$/ { body = 1 }
		$0 == "Signed-off-by: " ENVIRON["PH"] { $0 = "Signed-off-by: " ENVIRON["WHO"] }
		is($0, ENVIRON["PHN"] " (") && $0 ~ /\([0-9]+\):$/ {
			$0 = ENVIRON["NAME"] substr($0, length(ENVIRON["PHN"]) + 1)
		}
		{ print }' "$file" >"$dest"
}

series=$PATCHES/series
[ -f "$series" ] || refuse "${series#"$TOP"/}: no such file"
mapfile -t patches < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$series" |
	grep -v '^$' || true)
[ "${#patches[@]}" -gt 0 ] || refuse "${series#"$TOP"/}: lists no patch"
# A series of series (kernel/patches: driver-core/..., majors/...) gives
# each series' cover letter before its first patch, in its directory.
files=()
[ ! -f "$PATCHES/0000-cover-letter.patch" ] || files+=(0000-cover-letter.patch)
for p in "${patches[@]}"; do
	[ -f "$PATCHES/$p" ] || refuse "${series#"$TOP"/}: $p: no such patch"
	d=$(dirname "$p")
	if [ "$d" != . ] && [ -f "$PATCHES/$d/0000-cover-letter.patch" ] &&
		[[ " ${files[*]} " != *" $d/0000-cover-letter.patch "* ]]; then
		files+=("$d/0000-cover-letter.patch")
	fi
	files+=("$p")
done

who=$(identity)
name=${who% <*}
tmp=$OUT.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
for f in "${files[@]}"; do
	mkdir -p "$(dirname "$tmp/$f")"
	rewrite "$PATCHES/$f" "$tmp/$f" "$who" "$name"
done
# Anything still naming the placeholder (a Co-developed-by:, a
# Reported-by:) would go out under a name nobody answers to.
mapfile -t left < <(cd "$tmp" && grep -l -F "$PLACEHOLDER_EMAIL" "${files[@]}" || true)
if [ "${#left[@]}" -gt 0 ]; then
	rm -rf "$tmp"
	refuse "the placeholder $PLACEHOLDER_EMAIL remains in ${left[*]}, outside From: and Signed-off-by: lines: change the patch"
fi
rm -rf "$OUT"
mv "$tmp" "$OUT"
if [ "${files[0]}" = 0000-cover-letter.patch ] || [ "$(dirname "${files[0]}")" = . ]; then
	echo "format-series: ${#files[@]} files from $who in ${OUT#"$TOP"/}; send with: git send-email ${OUT#"$TOP"/}/*.patch"
else
	echo "format-series: ${#files[@]} files from $who in ${OUT#"$TOP"/}, a directory per series; send each with: git send-email ${OUT#"$TOP"/}/NAME/*.patch"
fi
