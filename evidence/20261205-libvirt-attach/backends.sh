#!/bin/bash
# ibm-5000-verify through both backends on both kernels in one sitting,
# one run at a time, the kernels' order alternating with the backends':
# QEMU stock, libvirt stock, libvirt patched, QEMU patched.  Run from the
# repository's top; prints each run's start and end with the host's load.
#   evidence/20261205-libvirt-attach/backends.sh RUN_ID_PREFIX
set -u
prefix=${1:?usage: $0 RUN_ID_PREFIX}
topo=topologies/ibm-5000-verify.toml
for spec in qemu:stock libvirt:stock libvirt:patched qemu:patched; do
	backend=${spec%%:*} variant=${spec#*:}
	echo "$(date -u +%FT%TZ) start $backend $variant load $(cut -d' ' -f1-3 /proc/loadavg)"
	./blkscale run "$topo" --backend "$backend" --variant "$variant" \
		--run-id "$prefix-$backend-$variant" --quiet
	echo "$(date -u +%FT%TZ) end $backend $variant exit $? load $(cut -d' ' -f1-3 /proc/loadavg)"
done
