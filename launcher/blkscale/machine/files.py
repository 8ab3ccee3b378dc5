"""The paths a run's machine refers to."""

import os
import tempfile
from dataclasses import dataclass

from .. import paths


@dataclass
class RunFiles:
    """Paths the machine refers to (placeholders in a dry run)."""
    kernel: str
    initrd: str
    console: str
    qmp: str
    results: str
    disks: str              # directory for sparse and slice image files
    # Before each image's name: several runs' images share one directory
    # when they are volumes of one storage pool (libvirt/staging.py).
    disk_prefix: str = ""
    # The 8250's output when the kernel's console is the virtio console.
    serial: str = ""

    @classmethod
    def under(cls, kernel, directory):
        """The files of a run whose temporary directory is `directory`."""
        return cls(kernel=str(kernel), initrd=f"{directory}/initrd.cpio",
                   console=f"{directory}/console.log",
                   qmp=f"{directory}/qmp.sock",
                   results=f"{directory}/results.stream",
                   disks=f"{directory}/disks",
                   serial=f"{directory}/serial.log")


def sample_files(variant="patched"):
    """Paths as long as a real run's, for sizing the command line."""
    tmp = os.path.join(tempfile.gettempdir(), f"blkscale-{variant}-xxxxxxxx")
    return RunFiles.under(paths.kernel_dir(variant) / "bzImage", tmp)
