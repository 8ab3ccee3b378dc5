#!/bin/bash
# Boot the stress-500 topology N times on each of two kernels, one guest at
# a time, the order alternating, and note the host's load before and after
# each boot:  boots.sh N [TOPO] [VARIANT_A] [VARIANT_B]  (from the top).
set -euo pipefail
n=${1:?usage: boots.sh N [TOPO] [A] [B]}
topo=${2:-bench/topologies/stress-500.toml}
a=${3:-patched}
b=${4:-patched-again}
stamp=$(date -u +%Y%m%d-%H%M%S)
tsv=results/percall-$stamp.tsv
mkdir -p results
printf 'boot\tvariant\trun_id\texit\tload_before\tload_after\n' >"$tsv"
for i in $(seq 1 "$n"); do
	if [ $((i % 2)) -eq 1 ]; then order="$a $b"; else order="$b $a"; fi
	for v in $order; do
		id=percall-$stamp-$i-$v
		before=$(cut -d' ' -f1-3 /proc/loadavg)
		rc=0
		./blkscale run "$topo" --variant "$v" --run-id "$id" --quiet \
			>/dev/null 2>&1 || rc=$?
		after=$(cut -d' ' -f1-3 /proc/loadavg)
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$v" "$id" "$rc" \
			"$before" "$after" >>"$tsv"
	done
done
echo "$tsv"
