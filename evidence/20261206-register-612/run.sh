#!/bin/bash
# register_blkdev on stock and patched of both bases, 8 disks and one
# vCPU, with and without an RCU barrier before each warm round, then
# compared at equal numbers of held majors.
#   evidence/20261206-register-612/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top"
variants='stock patched stock-6.12 patched-6.12'
make --no-print-directory kernel initramfs VARIANTS="$variants"
./blkscale bench --sweep "$here/sweep.toml" --run-id register-612
./blkscale bench --show results/register-612 \
	--held patched/stock --held patched-6.12/stock-6.12 \
	--held patched-6.12/patched --held stock-6.12/stock
