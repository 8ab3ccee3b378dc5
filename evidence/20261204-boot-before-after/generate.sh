#!/bin/bash
# Writes the before/after topologies and the three round sweeps of this
# run from the shipped topologies.  "before" is the command line as it was
# (the kernel's own clocksource, every message on the 8250, scsi_debug at
# the module's delay of 1 jiffy); "after" is the shipped default (TSC,
# quiet console, delay 0).  Only the census is asked for: the figure is
# boot to census, and the later steps would only lengthen each run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
rel=${here#"$top"/}

sim() { # name hosts
	cat <<EOT
description = "$(($2 * 1024)) scsi_debug LUNs in the guest: $2 hosts x 4 targets x 256"

[guest]
vcpus = 2
memory_mib = $((1024 + $2 * 256))

[timeouts]
boot_s = 600
run_s = 3600
hang_s = 900

[scsi_debug]
add_host = $2
num_tgts = 4
max_luns = 256
dev_size_mb = 16

[plan]
steps = ["census"]
settle_s = 3000
EOT
}

census_only() { # shipped topology -> the same machine, census only
	sed -e 's/^steps = .*/steps = ["census"]/' -e '/^# fio skips/,$d' \
		"$top/topologies/$1.toml"
}

before() { # topology text -> the old command line
	sed -e 's/^\[guest\]$/[guest]\nclocksource = "kernel"\nconsole = "serial"/' \
		-e 's/^\[scsi_debug\]$/[scsi_debug]\ndelay = 1/'
}

names=()
for t in default oracle-4000 ibm-5000; do
	census_only "$t" >"$here/$t-after.toml"
	before <"$here/$t-after.toml" >"$here/$t-before.toml"
	names+=("$t")
done
for h in 4 16; do
	t=sim-$((h * 1024))
	sim "$t" "$h" >"$here/$t-after.toml"
	before <"$here/$t-after.toml" >"$here/$t-before.toml"
	names+=("$t")
done

for round in 1 2 3; do
	list=()
	for t in "${names[@]}"; do
		if [ $((round % 2)) = 1 ]; then pair=(before after); else pair=(after before); fi
		for s in "${pair[@]}"; do list+=("\"$rel/$t-$s.toml\""); done
	done
	{
		echo "# Round $round of 3: each topology before and after, back to back,"
		echo "# the order of the pair and of the kernels reversed every other round."
		echo "description = \"boot to census before and after the clock and console change, round $round\""
		echo "topologies = [$(IFS=,; echo "${list[*]}" | sed 's/,/, /g')]"
		if [ $((round % 2)) = 1 ]; then
			echo 'variants = ["stock", "patched"]'
		else
			echo 'variants = ["patched", "stock"]'
		fi
		echo 'reference = "stock"'
		echo 'accel = "tcg"'
		echo 'repeat = 1'
	} >"$here/sweep-$round.toml"
done
