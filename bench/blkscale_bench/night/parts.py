"""The parts of a night, in the order they run, and their commands.

A part is one or more steps run one after another; it ends with the
first step that fails.  A step that runs a blkscale sweep exits with its
verdict (0 PASS, 1 REGRESSION, 3 INCONCLUSIVE, 130 interrupted); any
other step that fails (a build, pytest) fails the part.

BLKSCALE_NIGHTLY_PART names a stand-in for every part's commands (the
tests use one): it runs as `COMMAND PART RUN_ID` (RUN_ID `-` for a part
that makes no run) and exits as a sweep does.
"""

import os
import shlex
import sys
from dataclasses import dataclass, field

from blkscale.paths import REPO

from blkscale.figures import metrics

from .. import sweepfile
from ..running.launch import blkscale_command

HOOK = "BLKSCALE_NIGHTLY_PART"
NAMES = ("gated", "every-disk", "bootcurve", "sim", "kernels",
         "multipath", "guest-tests")
# The parts of each kind of night.  The multipath part is a week's run of
# its own: 4000 LUNs on two paths with a path removed under fio take three
# hours or more per kernel (evidence/20261206-multipath-1000), which a
# night's six hours of machine time cannot hold beside the rest.
KINDS = {"nightly": tuple(n for n in NAMES if n != "multipath"),
         "weekly": ("multipath",)}
# Debug-kernel fuzzing and glue-directory stress, blktests on both kernels
# of each base and on Debian's own, the series' own checks: too slow
# under TCG for make test.
GUEST_TESTS = ("guest-tools/tests/test_fuzz_debug.py",
               "guest-tools/tests/test_gluestress_debug.py",
               "guest-tools/tests/test_blktests_nightly.py",
               "guest-tools/tests/test_blktests_debian.py",
               "guest-tools/tests/test_blktests_flavour.py",
               "kernel/tests/test_check_series.py")
GUEST_TESTS_XML = "guest-tests.xml"
GUEST_TESTS_BUILD = "guest-tests-kernels"


@dataclass
class Step:
    argv: list
    verdict: bool = True    # its exit status is a sweep's verdict
    env: dict = field(default_factory=dict)


@dataclass
class Options:
    """What `make nightly` passes on: the sweep files, and the nightly
    sweep's overrides (BENCH_TOPOLOGIES and the like)."""
    sweep: object                   # sweepfile.Sweep, overrides applied
    sweep_args: list                # --variant, --repeat, ... as given
    gated_sweep: object             # sweepfile.Sweep of the gated part
    curve_sweep: str
    curve_qemu: str
    sim_sweep: str
    kernels_sweep: str
    multipath_sweep: str = None
    results_dir: str = None         # None: the sweeps' default


def _make(*targets):
    return Step(["make", "--no-print-directory", "-C", str(REPO),
                 *targets], verdict=False)


def _sweep_file(path):
    if not os.path.isabs(path) and not os.path.exists(path):
        path = str(REPO / path)
    return sweepfile.load(path, metrics.all_names)


def bench_sweep(name, options):
    """A part that runs `blkscale bench`: (its sweep file as given, its
    --qemu or None, the make targets built first); None for the other
    parts.  Only these parts can continue an interrupted run."""
    if name == "bootcurve":
        return (options.curve_sweep, options.curve_qemu,
                ["qemu"] if options.curve_qemu == "patched" else [])
    if name == "kernels":
        # Built here, so that a variant that cannot be built fails this
        # part and not the rest.
        return options.kernels_sweep, None, ["kernel-all", "initramfs-all"]
    if name == "multipath":
        # udevd and multipathd need a kernel with CONFIG_NET and
        # CONFIG_UNIX: the sweep's Debian-config pair, built here.
        spec = _sweep_file(options.multipath_sweep)
        return options.multipath_sweep, None, [
            "kernel", "initramfs", "VARIANTS=" + " ".join(spec.variants)]
    return None


def sweep_spec(name, options):
    """The sweep of a bench part, its --qemu applied."""
    path, qemu, _ = bench_sweep(name, options)
    spec = _sweep_file(path)
    if qemu is not None:
        spec.qemu = sweepfile.check_qemu(qemu, "command line", "--qemu",
                                         os.getcwd())
    return spec


def steps(name, options, run_id, night_dir, continuing=False):
    """The steps of one part; run_id names the run it makes (continuing:
    the interrupted run it finishes)."""
    hook = os.environ.get(HOOK)
    if hook:
        return [Step([hook, name, run_id or "-"])]
    blk = blkscale_command()
    where = ["--run-id", run_id]
    if options.results_dir:
        where += ["--results-dir", options.results_dir]
    if name == "gated":
        # Its kernels are built here: the baseline's series changes with
        # the baseline, not with what make nightly was asked to build.
        return [_make("kernel", "initramfs", "VARIANTS=" + " ".join(
                    options.gated_sweep.variants)),
                Step([*blk, "nightly", "--sweep", options.gated_sweep.path,
                      *where])]
    if name == "every-disk":
        return [Step([*blk, "nightly", "--sweep", options.sweep.path,
                      *options.sweep_args, *where])]
    if name == "sim":
        return [Step([*blk, "nightly", "--sweep", options.sim_sweep,
                      *where])]
    found = bench_sweep(name, options)
    if found:
        path, qemu, targets = found
        return ([_make(*targets)] if targets else []) + [Step(
            [*blk, "bench", "--sweep", path,
             *(["--qemu", qemu] if qemu else []), *where,
             *(["--continue"] if continuing else [])])]
    if name == "guest-tests":
        xml = os.path.join(night_dir, GUEST_TESTS_XML)
        # The debug kernel and the blktests flavours, built here so that
        # their build time is the part's.
        return [_make(GUEST_TESTS_BUILD),
                Step([sys.executable, "-m", "pytest", "-q", "-ra", "-p",
                      "no:cacheprovider", f"--junitxml={xml}",
                      *GUEST_TESTS], verdict=False,
                     env={"BLKSCALE_NIGHTLY": "1"})]
    raise ValueError(name)


def makes_run(name):
    """Whether the part makes a run under results/ (guest-tests: JUnit
    in the night's directory)."""
    return name != "guest-tests"


def command_text(part_steps):
    return " && ".join(
        " ".join([*(f"{k}={v}" for k, v in s.env.items()),
                  shlex.join(s.argv)]) for s in part_steps)
