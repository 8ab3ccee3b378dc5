"""Topology files: load, validate, lay out on PCI, check resources.

    planned = topology.prepare("topologies/smoke.toml")
    planned.topo, planned.layout, planned.resources

Any problem raises TopologyError (exit status 2) before anything is
created or launched.
"""

import os
import tempfile
from dataclasses import dataclass

from .. import paths
from ..errors import TopologyError
from ..qemu import argv as qargv
from .layout import Layout, plan_layout
from .load import load
from .model import Topology
from .resources import Resources, plan_resources

# Beyond this the QEMU command line alone passes the kernel's ARG_MAX.
MAX_DISKS = 16384
# Room left for the environment and the kernel's own accounting.
ARG_MARGIN = 64 * 1024


@dataclass
class Planned:
    topo: Topology
    layout: Layout
    resources: Resources


def prepare(path, accel="tcg"):
    topo = load(path)
    total = topo.expected["virtio"] + topo.expected["scsi"]
    if total > MAX_DISKS:
        group = max(topo.pci_groups, key=lambda g: g.disks)
        what = "count" if group.kind == "virtio_blk" else "luns"
        raise TopologyError(topo.path, f"{group.field}.{what}", f"{total} "
                            f"QEMU disks; at most {MAX_DISKS} fit on one QEMU "
                            "command line")
    layout = plan_layout(topo)
    resources = plan_resources(topo, layout, accel)
    planned = Planned(topo, layout, resources)
    _check_argv(planned)
    return planned


def sample_files(variant="patched"):
    """Paths as long as a real run's, for sizing the command line."""
    tmp = os.path.join(tempfile.gettempdir(), f"blkscale-{variant}-xxxxxxxx")
    return qargv.RunFiles(
        kernel=str(paths.kernel_dir(variant) / "bzImage"),
        initrd=f"{tmp}/initrd.cpio", console=f"{tmp}/console.log",
        qmp=f"{tmp}/qmp.sock", results=f"{tmp}/results.stream",
        disks=f"{tmp}/disks")


def arg_max():
    env = sum(len(k) + len(v) + 2 + 8 for k, v in os.environ.items())
    return os.sysconf("SC_ARG_MAX") - env - ARG_MARGIN


def _check_argv(planned):
    argv = qargv.build_argv(planned, sample_files(), "patched", "tcg",
                            "qemu-system-x86_64")
    size = qargv.argv_bytes(argv)
    planned.resources.argv_bytes = size
    limit = arg_max()
    planned.resources.argv_limit = limit
    if size > limit:
        topo = planned.topo
        group = max(topo.pci_groups, key=lambda g: g.disks)
        what = "count" if group.kind == "virtio_blk" else "luns"
        raise TopologyError(topo.path, f"{group.field}.{what}", "the QEMU "
                            f"command line would be {size // 1024} KiB; "
                            f"ARG_MAX leaves {limit // 1024} KiB")
