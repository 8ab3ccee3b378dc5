#!/usr/bin/python3
"""QEMU without its last virtio-blk disk (BLKSCALE_QEMU): the guest boots
with one disk fewer than the topology planned, as when a disk does not
come up.  Everything else reaches the real QEMU (BLKSCALE_REAL_QEMU)."""

import os
import sys


def main(argv):
    qemu = os.environ.get("BLKSCALE_REAL_QEMU", "qemu-system-x86_64")
    last = None
    for i, a in enumerate(argv[:-1]):
        if a == "-device" and argv[i + 1].startswith("virtio-blk-pci,"):
            last = i
    if last is not None:
        argv = argv[:last] + argv[last + 2:]
    os.execvp(qemu, [qemu] + argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
