#!/bin/bash
# Every schedule of the A/A pair on a quiet host, then again beside a
# load (one core's worth of busy work, the other core free), the order
# of the schedules reversed under load; then the spread of each run's
# paired ratios (spread.py).  Run from the repository's top after
# `make kernel initramfs VARIANTS='stock patched-again'`.
set -u
here=$(dirname "$0")
tag=${1:-$(date -u +%Y%m%d-%H%M%S)}
run() {  # schedule, load
	./blkscale bench --sweep "$here/aa-$1.toml" \
		--run-id "$tag-$2-$1" >"$here/$tag-$2-$1.txt" 2>&1
	echo "$tag-$2-$1: exit $?"
}
for s in alternate together together-pinned; do run "$s" quiet; done
# The load: one process spinning in user space for as long as the runs.
/usr/bin/python3 -c 'while True: pass' &
hog=$!
trap 'kill $hog 2>/dev/null' EXIT
for s in together-pinned together alternate; do run "$s" loaded; done
