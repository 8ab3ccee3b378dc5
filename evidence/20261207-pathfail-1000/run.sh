#!/bin/bash
# Every LUN's second path removed and restored under fio at 1000 LUNs on
# Debian's config (stock-dcfg), one boot: the pathfail step's timeline
# of each wait.
#   evidence/20261207-pathfail-1000/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top"
make --no-print-directory kernel initramfs VARIANTS=stock-dcfg
./blkscale run "$here/pathfail-1000.toml" --results-dir "$here" \
	--run-id pathfail-1000
