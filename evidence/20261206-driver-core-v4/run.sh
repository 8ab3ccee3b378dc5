#!/bin/bash
# The driver-core series alone (kernel/patches/driver-core) against the
# kernel it applies to, with three glue directories per SCSI LUN (the
# lean config) and five (sg and bsg built in, sg-bsg.config): scsi_debug
# LUNs in a one-vCPU TCG guest, time to every disk present and to a full
# census.  4096 and 16,384 LUNs as a bench sweep (three repeats, the
# variants interleaved, their order alternating); 65,536 one boot each,
# in alternating order (KERNELS_65536 names fewer, in its order).
# Results go to results/driver-core-v4-*.
#   evidence/20261206-driver-core-v4/run.sh [sweep] [65536]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export BLKSCALE_VARIANTS=$here/variants.toml
cd "$top"
parts=("${@:-sweep 65536}")
read -r -a parts <<< "${parts[*]}"
variants=(stock driver-core stock-sg driver-core-sg)

make --no-print-directory kernel initramfs VARIANTS="${variants[*]}"
for part in "${parts[@]}"; do
	case $part in
	sweep)
		./blkscale bench --sweep "$here/sweep.toml" \
			--run-id driver-core-v4-sweep
		;;
	65536)
		# the pairs in opposite orders: patched first, then stock first
		for v in ${KERNELS_65536:-driver-core stock stock-sg driver-core-sg}; do
			echo "65536 $v $(cut -d' ' -f1-3 /proc/loadavg)" >> "$here/load.txt"
			# with sg and bsg: the LUNs stop at 32,768 (sim-65536-sg.toml)
			topo=sim-65536.toml
			case $v in *-sg) topo=sim-65536-sg.toml ;; esac
			./blkscale run "$here/$topo" --variant "$v" \
				--accel tcg --run-id "driver-core-v4-65536-$v" --quiet || true
		done
		;;
	*)
		echo "run.sh: $part: the parts are sweep and 65536" >&2
		exit 2
		;;
	esac
done
