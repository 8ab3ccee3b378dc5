#!/bin/bash
# register_blkdev on stock, series v4 and series v5 of both bases (8
# disks, one vCPU, interleaved), compared at equal numbers of held
# majors: does v5's search mark take away v4's cost at 0-47 held?
#   evidence/20261207-majors-v5/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export BLKSCALE_VARIANTS=$here/variants.toml
cd "$top"
make --no-print-directory kernel initramfs \
	VARIANTS='stock v4 v5 stock-6.12 v4-6.12 v5-6.12'
./blkscale bench --sweep "$here/sweep.toml" --run-id majors-v5
./blkscale bench --show results/majors-v5 \
	--held v5/stock --held v5/v4 \
	--held v5-6.12/stock-6.12 --held v5-6.12/v4-6.12
