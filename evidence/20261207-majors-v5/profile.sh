#!/bin/bash
# Where register_blkdev spends its time with 0-47 dynamic majors held on
# series v4 and v5 of both bases: three boots each of the legacy-range
# profile's churn-48.toml, the kernels interleaved, the guest profiler
# sampling every 0.05 s; shares.py gives each kernel's share of samples
# in xa_load/xas_start and its round time.
#   evidence/20261207-majors-v5/profile.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export BLKSCALE_VARIANTS=$here/variants.toml
cd "$top"
variants='v4 v5 v4-6.12 v5-6.12'
make --no-print-directory kernel initramfs VARIANTS="$variants"
topo=evidence/20261206-legacy-range-profile/churn-48.toml
for r in 1 2 3; do
	# the order alternates from one repeat to the next
	order=$variants
	[ $((r % 2)) = 1 ] || order=$(echo "$variants" | tr ' ' '\n' | tac | tr '\n' ' ')
	for v in $order; do
		./blkscale run "$topo" --variant "$v" --profile 0.05 \
			--results-dir "$here" \
			--run-id "churn48-$v$([ $r = 1 ] || echo "-r$r")"
	done
done
evidence/20261206-legacy-range-profile/shares.py "$here" $variants \
	>"$here/shares.txt"
