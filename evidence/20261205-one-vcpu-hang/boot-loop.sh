#!/bin/bash
# Boot a topology N times in a row, one boot at a time, and append one
# line per boot to a TSV record: its start, the launcher's exit status
# and outcome, wall time and the host's load average before and after.
# Run from the repository's top:
#   boot-loop.sh TOPO VARIANT N RECORD.tsv [blkscale run options...]
# A boot that fails keeps its launcher output beside the record
# (RECORD.tsv -> RECORD-<n>.log); the loop goes on.
set -u
if [ $# -lt 4 ]; then
	echo "usage: $0 TOPO VARIANT N RECORD.tsv [run options...]" >&2
	exit 2
fi
topo=$1 variant=$2 n=$3 record=$4
shift 4
name=$(basename "$topo" .toml)
[ -s "$record" ] ||
	printf 'boot\tstarted_utc\ttopology\tvariant\texit\toutcome\twall_s\tload1_before\tload1_after\n' >"$record"
done_already=$(($(wc -l <"$record") - 1))
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for i in $(seq $((done_already + 1)) $((done_already + n))); do
	started=$(date -u +%FT%TZ)
	load0=$(cut -d' ' -f1 /proc/loadavg)
	t0=$(date +%s.%N)
	./blkscale run "$topo" --variant "$variant" --accel tcg --quiet \
		--results-dir results/one-vcpu-hang \
		--run-id "$name-$variant-$i-$(date -u +%H%M%S)" "$@" >"$log" 2>&1
	rc=$?
	wall=$(echo "$(date +%s.%N) - $t0" | bc)
	load1=$(cut -d' ' -f1 /proc/loadavg)
	case $rc in
	0) outcome=ok ;; 1) outcome=step-failed ;; 3) outcome=qemu-failure ;;
	4) outcome=hang-or-timeout ;; 5) outcome=panic ;; 130) outcome=interrupted ;;
	*) outcome=error ;;
	esac
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%.1f\t%s\t%s\n' "$i" "$started" "$name" \
		"$variant" "$rc" "$outcome" "$wall" "$load0" "$load1" >>"$record"
	[ $rc -eq 0 ] || cp "$log" "${record%.tsv}-$i.log"
	[ $rc -eq 130 ] && exit 130
done
exit 0
