#!/bin/bash
# The glue directory KUnit suite on series v4, on the unpatched kernel
# and on v3's table: build each kernel (BLKSCALE_VARIANTS), boot smoke
# with kunit.enable=1, and keep the suite's KTAP lines from its log.
set -euo pipefail
here=evidence/20261206-glue-kunit
cd "$(dirname "$0")/../.."
export BLKSCALE_VARIANTS=$here/variants.toml
for v in ${KERNELS:-glue-kunit glue-kunit-mainline glue-kunit-v3 glue-kunit-6.12}; do
	nice -n 19 make --no-print-directory kernel VARIANTS="$v"
	run=kunit-$v-$(date -u +%Y%m%d-%H%M%S)
	./blkscale run "$here/smoke-kunit.toml" --accel tcg \
		--kernel "build/kernel/out/$v/bzImage" --run-id "$run" || true
	log=$(ls results/"$run"/*/dmesg.log)
	# the suite's lines, from its start to its verdict, without the
	# disks' probe messages printed between them
	sed -n '/KTAP version 1/,/ok 1 driver-core-glue-dir/p' "$log" |
		grep -v -E '\] (sd|scsi) [0-9]' >"$here/ktap-$v.txt" || true
	echo "$v: $(grep -m1 'driver-core-glue-dir: pass' "$log" || echo 'no summary line')"
done
