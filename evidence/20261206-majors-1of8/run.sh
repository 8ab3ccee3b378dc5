#!/bin/bash
# The majors series' 1/8 alone (majors-1/series) against stock, booted
# interleaved on stress-500 with one vCPU, 6 repeats: the figures its
# changelog and the cover letter give for it.
#   evidence/20261206-majors-1of8/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export BLKSCALE_VARIANTS=$here/variants.toml
cd "$top"
make --no-print-directory kernel initramfs VARIANTS='stock majors-1'
./blkscale bench --sweep "$here/sweep.toml" --run-id majors-1of8
