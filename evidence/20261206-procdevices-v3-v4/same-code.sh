#!/bin/bash
# Apply series v3 (the commit before the split, f5b8871^) and v4
# (kernel/patches as checked out) to the pristine 6.1 files they touch,
# and list the files whose result differs.
#   evidence/20261206-procdevices-v3-v4/same-code.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
v3=f5b8871^
base=build/linux
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/v3" "$work/v4"
for p in $(git show "$v3:kernel/patches/series" | grep -v '^#'); do
	git show "$v3:kernel/patches/$p" > "$work/v3/$p"
done
for p in $(grep -v '^#' kernel/patches/series); do
	cp "kernel/patches/$p" "$work/v4/$(echo "$p" | tr / -)"
done
files=$(cat "$work"/v3/*.patch "$work"/v4/*.patch | sed -n 's#^+++ b/##p' | sort -u)
for s in v3 v4; do
	for f in $files; do
		mkdir -p "$work/$s/tree/$(dirname "$f")"
		git -C "$base" show "HEAD:$f" > "$work/$s/tree/$f" 2>/dev/null ||
			rm -f "$work/$s/tree/$f"
	done
done
for p in $(git show "$v3:kernel/patches/series" | grep -v '^#'); do
	patch -d "$work/v3/tree" -p1 -s --no-backup-if-mismatch < "$work/v3/$p"
done
for p in $(grep -v '^#' kernel/patches/series); do
	patch -d "$work/v4/tree" -p1 -s --no-backup-if-mismatch \
		< "$work/v4/$(echo "$p" | tr / -)"
done
echo "files the two series touch: $(echo "$files" | wc -w)"
for f in $files; do
	if ! cmp -s "$work/v3/tree/$f" "$work/v4/tree/$f"; then
		echo "differs: $f ($(diff "$work/v3/tree/$f" "$work/v4/tree/$f" | grep -c '^[<>]') lines)"
	fi
done
