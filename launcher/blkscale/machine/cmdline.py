"""How long a command line may be, and the one way to refuse a longer one.

QEMU takes every disk from its command line, so the kernel's ARG_MAX
bounds the disks of one guest.  Each renderer measures its own command
line (qemu/argv.py, libvirt/domain.py) and refuses it here.
"""

import os

from ..errors import TopologyError

# Room left for the environment and the kernel's own accounting.
ARG_MARGIN = 64 * 1024


def arg_max():
    env = sum(len(k) + len(v) + 2 + 8 for k, v in os.environ.items())
    return os.sysconf("SC_ARG_MAX") - env - ARG_MARGIN


def check_size(topo, size, limit, via="", note=""):
    """TopologyError at the field that adds most disks if size > limit.

    via says how QEMU is started ("through libvirt "), note how to get
    below the limit.
    """
    if size <= limit:
        return
    raise TopologyError(topo.path, topo.largest_disk_field(), f"{via}the QEMU "
                        f"command line would be {size // 1024} KiB; ARG_MAX "
                        f"leaves {limit // 1024} KiB{note}")
