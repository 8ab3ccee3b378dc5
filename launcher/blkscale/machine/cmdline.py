"""How long a command line may be, and the one way to refuse a longer one.

The kernel's ARG_MAX bounds QEMU's command line: a quarter of the stack
rlimit the new process has at exec, at most 6 MiB (fs/exec.c,
bprm_stack_limits: min(_STK_LIM / 4 * 3, rlimit / 4)).  Each renderer
measures its own command line (qemu/argv.py, libvirt/domain.py) and
refuses it here.
"""

import os
import resource

from ..errors import TopologyError

# Room left for the environment and the kernel's own accounting.
ARG_MARGIN = 64 * 1024
# The kernel's ceiling whatever the stack rlimit: 3/4 of _STK_LIM (8 MiB).
ARG_CEILING = 6 * 1024 * 1024


def env_bytes():
    return sum(len(k) + len(v) + 2 + 8 for k, v in os.environ.items())


def arg_max():
    return os.sysconf("SC_ARG_MAX") - env_bytes() - ARG_MARGIN


def stack_arg_max():
    """ARG_MAX of a child whose soft stack rlimit is raised to the hard
    limit before exec."""
    hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
    limit = ARG_CEILING if hard == resource.RLIM_INFINITY else min(
        ARG_CEILING, hard // 4)
    return limit - env_bytes() - ARG_MARGIN


def stack_for(size):
    """The soft stack rlimit, bytes, that makes ARG_MAX hold size."""
    return 4 * (size + env_bytes() + ARG_MARGIN)


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
