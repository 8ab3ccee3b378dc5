"""The environment a checkout's ./blkscale started this command with.

./blkscale puts the checkout's package folders first on PYTHONPATH for
this interpreter alone: QEMU and every other child get the environment
the user gave, whose size counts against the guest command line's
ARG_MAX (plan and run measure it).
"""

import os
from pathlib import Path

import blkscale
import blkscale_bench
import blkscale_cli
import blkscale_reports


def package_folders():
    """cli/, launcher/, bench/ and reports/ of a checkout (site-packages,
    four times, for an install)."""
    return [str(Path(p.__file__).resolve().parents[1])
            for p in (blkscale_cli, blkscale, blkscale_bench,
                      blkscale_reports)]


def give_back_environment(environ=os.environ):
    """PYTHONPATH as it was before ./blkscale added the folders."""
    ours = ":".join(package_folders())
    value = environ.get("PYTHONPATH")
    if value == ours:
        del environ["PYTHONPATH"]
    elif value and value.startswith(ours + ":"):
        environ["PYTHONPATH"] = value[len(ours) + 1:]
