"""Whether a sitting continues the run an interrupted part left, instead
of starting the part again.

A part that runs `blkscale bench` (the kernels side by side, the boot
curve, the weekly multipath sweep) can take longer than a sitting.  Its
next sitting continues its last run (`bench --continue`) when that run
was stopped by a signal and nothing it measures has changed: the sweep,
QEMU, and the images of its variants, neither rebuilt since nor about
to be rebuilt by the part's own build step (`make -q`).  Otherwise the
part starts again as a new attempt, and the sitting says why.
"""

import os
import subprocess

from blkscale.paths import REPO
from blkscale.results.manifest import read_in

from ..errors import BenchError
from ..running import continuation, hostinfo
from ..running.sweep import check_qemu
from . import parts, record


def _rebuilt(variants):
    """Whether make would rebuild a kernel or initramfs of variants."""
    argv = ["make", "-q", "--no-print-directory", "-C", str(REPO), "kernel",
            "initramfs", "VARIANTS=" + " ".join(variants)]
    return subprocess.run(argv, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, check=False
                          ).returncode != 0


def why_not(night, name, options, results):
    """(run id, None) when this sitting can continue the part's last
    run, else (None, why not) (why is None when there is nothing to
    continue: the part never started, finished, or runs no bench)."""
    part = night.part(name)
    if part["status"] != record.INTERRUPTED or not part["runs"] or \
            parts.bench_sweep(name, options) is None or \
            os.environ.get(parts.HOOK):
        return None, None
    run_id = part["runs"][-1]
    run_dir = os.path.join(results, run_id)
    doc = read_in(run_dir)
    if doc is None:
        return None, f"{run_id} made no run"
    try:
        spec = parts.sweep_spec(name, options)
        qemu = hostinfo.qemu_facts(check_qemu(spec))
    except BenchError as e:
        return None, str(e)
    why = continuation.why_not(doc.to_json(), spec, qemu,
                                continuation.in_use(run_dir))
    if why is None and _rebuilt(spec.variants):
        why = "its build step would rebuild a kernel or initramfs it boots"
    return (None, f"{run_id}: {why}") if why else (run_id, None)
