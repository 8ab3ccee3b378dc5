#!/bin/bash
# The nightly's gated part on the A/A pair and on the canary, night after
# night, alternating which goes first: `nights.sh N [DIR]` runs N nights
# of each and appends a line per night to DIR/nights.tsv (the verdict's
# exit status, wall time, the host's load before and after; nights are
# numbered on from the record), each night's output beside it (DIR:
# this directory by default).  `nights.sh N DIR canary` runs the canary
# alone (a third argument names the sweeps, "aa canary" by default).
# Run from the repository's top after
# `make kernel initramfs VARIANTS='patched canary patched-again'`.
set -u
n=${1:?usage: $0 NIGHTS [DIR]}
here=${2:-$(dirname "$0")}
sweeps=(${3:-aa canary})
record=$here/nights.tsv
[ -s "$record" ] ||
	printf 'night\tsweep\trun_id\tstarted_utc\texit\twall_s\tload1_before\tload1_after\n' >"$record"
first=$(($(tail -n +2 "$record" | cut -f1 | sort -n | tail -1) + 0))
for i in $(seq $((first + 1)) $((first + n))); do
	order=("${sweeps[@]}")
	if [ $((i % 2)) -eq 0 ] && [ ${#sweeps[@]} -eq 2 ]; then
		order=("${sweeps[1]}" "${sweeps[0]}")
	fi
	for which in "${order[@]}"; do
		id=$(date -u +%Y%m%d-%H%M%S)-$which
		started=$(date -u +%FT%TZ)
		load0=$(cut -d' ' -f1 /proc/loadavg)
		t0=$(date +%s)
		./blkscale nightly --sweep "bench/sweeps/nightly-$which.toml" \
			--run-id "$id" >"$here/$id.txt" 2>&1
		rc=$?
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$which" "$id" \
			"$started" "$rc" "$(($(date +%s) - t0))" "$load0" \
			"$(cut -d' ' -f1 /proc/loadavg)" >>"$record"
		[ $rc -eq 130 ] && exit 130
	done
done
exit 0
