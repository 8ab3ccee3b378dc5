"""Extra guest-image layers a plan needs, appended after the base image.

The blktests step runs a blktests checkout that BLKTESTS_DIR names: its
layer (guest-tools/initramfs/blktests/mklayer.sh) is built on demand and
cached by content under build/blktests/.  Without BLKTESTS_DIR the guest's
step skips and says why.
"""

import os
import subprocess

from .. import paths
from ..errors import UsageError

MKLAYER = paths.REPO / "guest-tools" / "initramfs" / "blktests" / "mklayer.sh"


def blktests_source():
    """The blktests checkout to use, or None."""
    return os.environ.get("BLKTESTS_DIR") or None


def for_plan(topo):
    """Paths of the layers this plan needs, in order (built if missing)."""
    checkout = blktests_source()
    if "blktests" not in topo.plan.steps or checkout is None:
        return []
    proc = subprocess.run([str(MKLAYER), checkout,
                           str(paths.build_dir() / "blktests")],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        problem = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        raise UsageError(f"BLKTESTS_DIR={checkout}: {problem}")
    return [proc.stdout.strip().splitlines()[-1]]
