#!/bin/bash
# Boot a topology N times on one variant, one boot at a time, optionally
# pinned to one host CPU (taskset), and print each boot's in-guest
# per-call costs: register_blkdev and open() medians, a /proc/devices
# read with no majors added, and the peak of QEMU's transparent huge
# pages.  Run from the repository's top:
#   percall-modes.sh TOPO VARIANT N TAG [CPU]
set -u
topo=$1 variant=$2 n=$3 tag=$4 cpu=${5:-}
pin=()
[ -n "$cpu" ] && pin=(taskset -c "$cpu")
for i in $(seq 1 "$n"); do
	id=percall-$tag-$i-$(date -u +%H%M%S)
	"${pin[@]}" ./blkscale run "$topo" --variant "$variant" --run-id "$id" \
		--quiet >/dev/null 2>&1 &
	pid=$!
	thp=0
	while kill -0 $pid 2>/dev/null; do
		q=$(pgrep -f "qemu-system-x86_64 -name blkscale" | head -1)
		v=$([ -n "$q" ] && awk '/AnonHugePages/{print $2}' "/proc/$q/smaps_rollup" 2>/dev/null)
		[ -n "$v" ] && [ "$v" -gt "$thp" ] && thp=$v
		sleep 1
	done
	PYTHONPATH=launcher /usr/bin/python3 -c "
import json, sys
from blkscale.figures import metrics
d = json.load(open(sys.argv[1]))
print(sys.argv[2], sys.argv[3], 'thp_kib', sys.argv[4], *(
    f'{n} {metrics.BY_NAME[n].extract(d)}' for n in (
        'register_p50_ns', 'lookup_p50_ns', 'procdevices_ns_per_read_0')))
" "results/$id/$variant/results.json" "$tag" "$i" "$thp"
done
