#!/bin/bash
# register_blkdev's cost on three kernels that share its code: the
# baseline's series (v3), today's (v4), and v4 without the driver-core
# series (v4-no-driver-core/series), built with today's config, booted
# interleaved on the gated part's topology.
#   evidence/20261206-register-v3-v4/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export BLKSCALE_VARIANTS=$here/variants.toml
cd "$top"
make --no-print-directory kernel initramfs \
	VARIANTS='patched-baseline patched v4-no-driver-core'
./blkscale bench --sweep "$here/sweep.toml" --run-id register-v3-v4
