"""Host disk space for the file-backed disks of one run.

Sparse and slice images take no room when created, but what the guest
writes lands in them: the signature block of every disk, fio's writes on
each fio disk, lvm2's label and metadata on each physical volume and the
logical volume it writes and verifies.  The images live in the run's
temporary directory (TMPDIR) and are deleted after each variant, so one
variant's worth must fit.
"""

import os
import re
import shutil
import tempfile

from ..errors import TopologyError
from .signatures import SECTOR

MIB = 1024 * 1024
# A file system allocates at least a block for the signature sector.
BLOCK = 4096
# lvm2 reserves a 1 MiB metadata area at the start of each PV and writes
# the VG's metadata (its text grows with the PVs) into it: at most that.
LVM_PV_BYTES = MIB
# The lvm step's LV when plan.args.lvm names no size_mb= (steps/lvm).
LVM_DEFAULT_LV_MB = 64


def lvm_lv_bytes(topo):
    args = topo.plan.args.get("lvm") or ""
    match = re.search(r"(?:^|\s)size_mb=(\d+)(?:\s|$)", args)
    return int(match.group(1) if match else LVM_DEFAULT_LV_MB) * MIB


def bytes_needed(topo):
    """What the file-backed disks of one variant's run may take on disk."""
    need = 0
    for g in topo.pci_groups:
        if g.file_backed:
            need += g.disks * max(BLOCK, SECTOR)
    fio = topo.plan.fio
    for group, _ in topo.fio_disks:
        if group.file_backed:
            need += min(fio.size_mib, group.size_mib) * MIB
    if topo.lvm_disks:
        need += len(topo.lvm_disks) * LVM_PV_BYTES + lvm_lv_bytes(topo)
    return need


def free_bytes(directory):
    return shutil.disk_usage(directory).free


def check_disk_room(topo, directory=None):
    """TopologyError when the file-backed disks would not fit in TMPDIR."""
    directory = directory or tempfile.gettempdir()
    need = bytes_needed(topo)
    if not need:
        return
    free = free_bytes(directory)
    if need <= free:
        return
    group = max((g for g in topo.pci_groups if g.file_backed),
                key=lambda g: g.disks)
    raise TopologyError(topo.path, f"{group.field}.backing",
                        f"the file-backed disks would write about "
                        f"{need // MIB} MiB into {os.path.abspath(directory)}"
                        f" (TMPDIR), which has {free // MIB} MiB free")
