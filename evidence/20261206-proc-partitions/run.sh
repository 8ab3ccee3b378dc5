#!/bin/bash
# The full-read cost of /proc/partitions and /proc/diskstats, stock
# against the kernel with the series' resume patch, at each disk count:
# ROUNDS rounds, both kernels booted in each round, their order and the
# order of the counts reversed every other round.  Each boot runs the
# census and the partitions step (partbench's defaults).  The host's
# load average before each boot goes to load.txt; each run's
# results.json, without its per-disk list, to runs/parts-N-R/VARIANT/.
#   evidence/20261206-proc-partitions/run.sh [ROUNDS] [COUNTS...]
# PATCHED: the patched kernel's output directory (bzImage, modules),
# default build/kernel/out/patched.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
rounds=${1:-3}
shift || true
counts=("${@:-1024 4096 16384}")
read -r -a counts <<< "${counts[*]}"
patched=${PATCHED:-$top/build/kernel/out/patched}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

boot() { # VARIANT-LABEL COUNT ROUND
	local label=$1 n=$2 r=$3 id="parts-$n-$r" args
	if [ "$label" = stock ]; then
		args=(--variant stock)
	else
		args=(--kernel "$patched/bzImage" --modules "$patched/modules")
	fi
	echo "$id $label $(cut -d' ' -f1-3 /proc/loadavg)" >> "$here/load.txt"
	"$top/blkscale" run "$here/parts-$n.toml" "${args[@]}" --accel tcg \
		--run-id "$id-$label" --results-dir "$scratch" --quiet || true
	mkdir -p "$here/runs/$id/$label"
	/usr/bin/python3 - "$scratch/$id-$label" "$here/runs/$id/$label" <<'PY'
import json, sys
from pathlib import Path
src = next(Path(sys.argv[1]).glob("*/results.json"))
doc = json.loads(src.read_text())
doc.pop("disks", None)
Path(sys.argv[2], "results.json").write_text(json.dumps(doc, indent=1) + "\n")
PY
	rm -rf "${scratch:?}/$id-$label"
}

for r in $(seq 1 "$rounds"); do
	order=("${counts[@]}")
	kernels=(stock patched)
	if [ $((r % 2)) -eq 0 ]; then
		order=($(printf '%s\n' "${counts[@]}" | sort -rn))
		kernels=(patched stock)
	fi
	for n in "${order[@]}"; do
		for k in "${kernels[@]}"; do
			boot "$k" "$n" "$r"
		done
	done
done
