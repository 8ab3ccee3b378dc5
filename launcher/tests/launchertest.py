"""Helpers of the launcher tests: paths, the CLI, the fake QEMU's log.

A module of its own (not conftest.py): every component's tests have a
conftest.py, and `from conftest import ...` would find whichever was
imported first when pytest collects them together.
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import warnings
from pathlib import Path

import pytest

from blkscale.paths import REPO

HERE = Path(__file__).resolve().parent
BLKSCALE = REPO / "blkscale"
FAKE_QEMU = HERE / "fake_qemu.py"
TOPOLOGIES = REPO / "topologies"


GOLDEN = HERE / "golden"
# Topologies small enough that a golden file of their whole command line
# and XML can be read in a review; the large ones are checked for
# invariants instead (test_golden_argv.py, test_libvirt_xml.py).
GOLDEN_TOPOLOGIES = ["ci-small", "debug-fuzz", "many-controllers",
                     "multipath-smoke", "sas-smoke", "smoke"]


def shipped_topologies():
    return sorted(p.stem for p in TOPOLOGIES.glob("*.toml"))


# Shipped topologies whose XML the schema validator and the placement
# checks take minutes over (tens of thousands of disks).
HUGE = ["dev_t-65536", "san-20000"]


# Shipped topologies only the QEMU backend runs (their plan acts over
# QEMU's QMP monitor while the guest runs): `blkscale xml` refuses them,
# which test_libvirt_xml.py checks.
QEMU_ONLY = ["multipath-pathfail", "oracle-4000-multipath"]


def libvirt_topologies():
    return [t for t in shipped_topologies()
            if t not in HUGE and t not in QEMU_ONLY]


def regenerating_goldens():
    """Whether BLKSCALE_REGEN_GOLDEN=1 asks to rewrite the golden files.

    Never under CI: a golden file rewritten by the code under test there
    would pass whatever the code does.
    """
    if os.environ.get("BLKSCALE_REGEN_GOLDEN") != "1":
        return False
    if os.environ.get("CI") == "true":
        raise AssertionError("BLKSCALE_REGEN_GOLDEN=1 refused under CI "
                             "(CI=true): regenerate golden files locally "
                             "and review them")
    return True


def need_built(variant, *extra):
    """Skip unless the variant's kernel and guest image are built, and the
    files named in extra ("System.map", "config") beside the kernel.

    With BLKSCALE_REQUIRE_ALL=1 the skip is a failure (conftest.py).
    """
    from blkscale import paths
    kdir = paths.kernel_dir(variant)
    needed = [kdir / "bzImage", paths.initramfs(variant)]
    needed += [kdir / name for name in extra]
    missing = [str(p) for p in needed if not p.is_file()]
    if missing:
        pytest.skip(f"not built: {', '.join(missing)} (make kernel "
                    "initramfs)")


def smoke_with_fault(tmp_path, mode, hang_s=60):
    """topologies/smoke.toml with the test-only step `fault` in `mode`
    after the census (guest-tools/initramfs/steps/fault)."""
    text = (TOPOLOGIES / "smoke.toml").read_text()
    text = text.replace('steps = ["census"]', 'steps = ["census", "fault"]')
    text = re.sub(r"(?m)^hang_s = \d+$", f"hang_s = {hang_s}", text)
    assert '"fault"' in text and f"hang_s = {hang_s}" in text
    path = tmp_path / f"fault-{mode}.toml"
    path.write_text(text + f'\n[plan.args]\nfault = "{mode}"\n')
    return path


def run_cli(*args, env=None, cwd=REPO, timeout=600, **kwargs):
    """./blkscale ARGS as a user runs it; returns CompletedProcess."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([str(BLKSCALE), *map(str, args)], cwd=cwd,
                          env=full_env, capture_output=True, text=True,
                          timeout=timeout, **kwargs)


# A failed boot's console and records, kept where pytest's temporary
# directories (reclaimed three runs later) do not reach: a hang's
# post-mortem, the guest's own backtrace at the launcher's NMI, survives
# the test run that met it.
KEPT_FAILURES = Path(tempfile.gettempdir()) / "blkscale-test-failures"


def keep_failed_boot(results, run_id, move=False):
    """Copy (or move) results/run_id aside under KEPT_FAILURES; where."""
    dest = KEPT_FAILURES / (f"{time.strftime('%Y%m%dT%H%M%S')}-{run_id}-"
                            f"{os.getpid()}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    if move:
        shutil.move(str(results / run_id), str(dest))
    else:
        shutil.copytree(results / run_id, dest)
    return dest


def hung(results, run_id):
    """Whether the run ended as a hang (exit 4, a variant's outcome)."""
    path = Path(results) / run_id / "summary.json"
    if not path.exists():
        return False
    summary = json.loads(path.read_text())
    return summary.get("exit_status") == 4 and any(
        v.get("outcome") == "hang" for v in summary["variants"].values())


def run_boot(*args, results, run_id, env=None, timeout=600):
    """run_cli for a real boot of Debian's kernel whose subject is not the
    simulator: a run that ends as a hang is kept (keep_failed_boot), said
    in a warning, and made once more.  Two-vCPU TCG boots of Debian's
    kernel have hung with both vCPUs busy and no console output, rarely
    and on a loaded host, for a cause not yet known; the second hang, and
    any other failure, is the test's."""
    out = run_cli(*args, env=env, timeout=timeout)
    if out.returncode == 4 and hung(results, run_id):
        kept = keep_failed_boot(Path(results), run_id, move=True)
        warnings.warn(f"blkscale run {run_id} hung, made again; its "
                      f"console and records are kept in {kept}: "
                      f"{out.stdout.strip().splitlines()[-3:]}")
        out = run_cli(*args, env=env, timeout=timeout)
    return out


def fake_runs(env):
    """(pid, accel) of every fake QEMU started with this environment."""
    log = Path(env["FAKE_QEMU_LOG"])
    if not log.exists():
        return []
    return [tuple(line.split()) for line in log.read_text().splitlines()]


def pid_alive(pid):
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    # A zombie is dead for our purposes.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def all_files(root):
    return sorted(str(p.relative_to(root)) for p in Path(root).rglob("*"))


def boot_results(out, results, run_id, variant, tmp):
    """results.json of a real boot that must have succeeded, checked for
    what every successful run owes: no temporary files left, every step
    ok, and the kernel the guest ran is the variant's."""
    from blkscale import paths

    assert all_files(tmp) == [], "temporary files left behind"
    doc_path = results / run_id / variant / "results.json"
    if not doc_path.exists() and (results / run_id).is_dir():
        kept = keep_failed_boot(results, run_id)
        raise AssertionError(f"kept in {kept}\n{out.stdout}{out.stderr}")
    doc = json.loads(doc_path.read_text())
    failed = [f"{s['name']}: {s['message']}" for s in doc["steps"]
              if s["verdict"] != "ok"]
    assert out.returncode == 0, f"failed steps: {failed}\n{out.stdout}"
    release = (paths.kernel_dir(variant) / "release").read_text().strip()
    kernel = doc["kernel"]
    assert (kernel["variant"], kernel["release"], kernel["guest_release"]) \
        == (variant, release, release)
    # The build says what the kernel was made of (kernel/variants.toml).
    assert kernel["base_package"] and kernel["base_version"], kernel
    assert len(kernel["config_sha256"]) == 64
    assert isinstance(kernel["patches"], list)
    return doc
