#!/bin/bash
# The runs of this directory, one after another on an otherwise idle host
# (make test ran beside the first ones: see README.md), then the slab
# tables.  From the checkout's top: evidence/20261206-dcfg-udev-4000/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
make kernel initramfs VARIANTS="stock-dcfg patched-dcfg debian"
./blkscale run topologies/oracle-250-udev.toml --variant stock-dcfg \
	--variant patched-dcfg --run-id 20261206-oracle-250-udev-dcfg
./blkscale run topologies/oracle-4000-udev.toml --variant stock-dcfg \
	--variant patched-dcfg --run-id 20261206-oracle-4000-udev-dcfg
./blkscale run topologies/oracle-4000-udev.toml --variant debian \
	--run-id 20261206-oracle-4000-udev-debian
./blkscale run topologies/oracle-250-udev.toml --variant debian \
	--run-id 20261206-oracle-250-udev-debian
for v in stock-dcfg patched-dcfg; do
	./blkscale slab results/20261206-oracle-250-udev-dcfg/$v/results.json \
		results/20261206-oracle-4000-udev-dcfg/$v/results.json --top 12 \
		> "$here/slab-$v.txt"
done
./blkscale slab results/20261206-oracle-250-udev-debian/debian/results.json \
	results/20261206-oracle-4000-udev-debian/debian/results.json --top 12 \
	> "$here/slab-debian.txt"
