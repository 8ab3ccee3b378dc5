"""Extra guest-image layers a plan needs, appended after the base image.

The blktests step runs a blktests checkout that BLKTESTS_DIR names: its
layer (guest-tools/initramfs/blktests/mklayer.sh) is built on demand and
cached by content under build/blktests/.  Without BLKTESTS_DIR the guest's
step skips and says why.  A modular kernel (a distro's) adds a second
layer, the modules blktests loads (blktests/modlayer.sh), since its base
image holds only those a scale run needs.

guest.udev adds the udev layer (guest-tools/initramfs/udev/mklayer.sh):
Debian's systemd-udevd, its rules and helpers from the host's packages,
built on demand and cached by content under build/udev/.

A LUN on several paths (virtio_scsi[].paths) adds the multipath layer
after it (guest-tools/initramfs/multipath/mklayer.sh): Debian's
multipathd and its udev rules from the host's multipath-tools, the
project's multipath.conf, cached under build/multipath/.
"""

import os
import subprocess

from .. import paths
from ..errors import UsageError

LAYER_SCRIPTS = paths.REPO / "guest-tools" / "initramfs" / "blktests"
MKLAYER = LAYER_SCRIPTS / "mklayer.sh"
MODLAYER = LAYER_SCRIPTS / "modlayer.sh"
UDEV_MKLAYER = paths.REPO / "guest-tools" / "initramfs" / "udev" / "mklayer.sh"
MULTIPATH_MKLAYER = (paths.REPO / "guest-tools" / "initramfs" / "multipath"
                     / "mklayer.sh")


def blktests_source():
    """The blktests checkout to use, or None."""
    return os.environ.get("BLKTESTS_DIR") or None


def for_plan(topo):
    """Paths of the layers this plan needs, in order (built if missing)."""
    found = []
    if _runs_blktests(topo):
        checkout = blktests_source()
        found.append(_layer([str(MKLAYER), checkout],
                            f"BLKTESTS_DIR={checkout}"))
    if topo.guest.udev:
        found.append(_layer([str(UDEV_MKLAYER)], "guest.udev", "udev"))
    if topo.multipath_groups:
        group = topo.multipath_groups[0]
        found.append(_layer([str(MULTIPATH_MKLAYER)], f"{group.field}.paths",
                            "multipath"))
    return found


def modular(variant):
    """Whether the variant's kernel has its drivers as modules."""
    tree = paths.kernel_dir(variant) / "modules" / "lib" / "modules"
    return any(tree.glob("*/kernel/drivers/virtio/virtio_pci.ko*"))


def for_variant(topo, variant):
    """Paths of the layers one variant's image adds (built if missing):
    blktests' modules, for a modular kernel whose plan runs blktests."""
    if not _runs_blktests(topo) or not modular(variant):
        return []
    return [_layer([str(MODLAYER), variant], f"--variant {variant}")]


def _runs_blktests(topo):
    return "blktests" in topo.plan.steps and blktests_source() is not None


def _layer(argv, what, subdir="blktests"):
    """Run a layer script with the output directory (build/SUBDIR) last;
    the path of the layer it made."""
    build = paths.build_dir()
    proc = subprocess.run([*argv, str(build / subdir)],
                          capture_output=True, text=True, check=False,
                          env=dict(os.environ, BUILD=str(build)))
    if proc.returncode != 0:
        problem = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        raise UsageError(f"{what}: {problem}")
    return proc.stdout.strip().splitlines()[-1]
