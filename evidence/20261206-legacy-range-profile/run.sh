#!/bin/bash
# Where register_blkdev spends its time with 0-47 dynamic majors held, on
# stock and the series of both bases: three boots each of churn-48.toml,
# the kernels interleaved, with the guest profiler sampling every 0.05 s;
# profile.txt of each run lists the kernel functions by their share of
# the samples, shares.py their medians.
#   evidence/20261206-legacy-range-profile/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top"
variants='stock patched stock-6.12 patched-6.12'
make --no-print-directory kernel initramfs VARIANTS="$variants"
for r in 1 2 3; do
	for v in $variants; do
		./blkscale run "$here/churn-48.toml" --variant "$v" \
			--profile 0.05 --run-id "churn48-$v$([ $r = 1 ] || echo "-r$r")"
	done
done
