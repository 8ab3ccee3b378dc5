"""Topology files: load, validate, lay out on PCI, check resources.

    planned = topology.prepare("topologies/smoke.toml")
    planned.topo, planned.layout, planned.resources

Any problem raises TopologyError (exit status 2) before anything is
created or launched.  This package knows no backend: the command line
each backend would build is measured next to it (qemu/argv.py,
libvirt/domain.py).
"""

from dataclasses import dataclass

from ..errors import TopologyError
from .layout import Layout, plan_layout
from .load import load
from .model import Topology
from .resources import Resources, check_fds, plan_resources

# The most QEMU disks blkscale claims for one guest (topologies/
# dev_t-65536.toml); the command line beyond ARG_MAX is no limit any more
# (qemu/diskstart.py), sd's 20-bit minors would allow 1,048,576.
MAX_DISKS = 65536


@dataclass(frozen=True)
class Planned:
    topo: Topology
    layout: Layout
    resources: Resources

    def fds(self, accel):
        """The file descriptors QEMU needs under the accelerator a run
        chose, or TopologyError past the hard limit (KVM adds eventfds)."""
        check_fds(self.topo, self.resources, accel)
        return self.resources.fds_for(accel)


def prepare(path, accel="tcg"):
    """The topology planned in one pass, refused if it cannot run under
    accel; the plan itself holds what every accelerator needs."""
    topo = load(path)
    total = topo.expected["virtio"] + topo.expected["scsi"]
    if total > MAX_DISKS:
        raise TopologyError(topo.path, topo.largest_disk_field(), f"{total} "
                            f"QEMU disks; blkscale takes at most {MAX_DISKS} "
                            "in one guest")
    layout = plan_layout(topo)
    resources = plan_resources(topo, layout, accel)
    return Planned(topo, layout, resources)
