"""`blkscale report RUN_DIR --disks N`: on the committed boot curve to
20,000 disks, each kernel's predicted boot and memory at N with the
same figures and intervals as the page's capacity plan, and a warning
when N is beyond the disk counts measured; on a run of one disk count,
no number but why."""

import re
import shutil

from blkscale.paths import REPO
from conftest import KERNELS_SWEEP, read_tables, run_report

BOOTCURVE = REPO / "evidence" / "20261204-bootcurve-nightly"


def _variants(stdout):
    """{variant: [lines]} of the answer."""
    out, current = {}, None
    for line in stdout.splitlines():
        if not line.startswith(" "):
            current = line.split(" ")[0]
            out[current] = [line]
        else:
            out[current].append(line.strip())
    return out


def test_prediction_per_kernel_as_the_plan_says(tmp_path):
    run_dir = tmp_path / "curve"
    shutil.copytree(BOOTCURVE, run_dir)
    out = run_report(run_dir, "--disks", "20000")
    assert out.returncode == 0, out.stderr
    answer = _variants(out.stdout)
    assert set(answer) == {"stock", "patched"}
    # The page's capacity plan at 20,000 disks: the same model and
    # interval (analysis.py), rounded alike.
    page = run_report(run_dir)
    assert page.returncode == 0, page.stderr
    plan = {(r[0], r[1]): r for r in read_tables(
        (run_dir / "report" / "index.html").read_text())["capacity_plan"]}
    for v, lines in answer.items():
        assert "within the measured range (5,000 to 20,000)" in lines[0]
        boot = next(x for x in lines if x.startswith("kernel start to census"))
        row = plan[("20000", v)]
        value, low, high = re.match(
            r".*: ([\d.,]+) s \(95% prediction interval (-?[\d.,]+) to "
            r"(-?[\d.,]+);", boot).groups()
        assert value == row[5]
        assert f"{low} to {high}" == row[7]
        assert any(x.startswith("measured at 20,000 disks") for x in lines)
        for what in ("guest slab", "guest RAM in use", "host QEMU peak RSS"):
            assert any(x.startswith(what + ": ") and "prediction interval"
                       in x for x in lines), (v, what)


def test_beyond_the_measured_range_says_so(tmp_path):
    run_dir = tmp_path / "curve"
    shutil.copytree(BOOTCURVE, run_dir)
    out = run_report(run_dir, "--disks", "65536")
    assert out.returncode == 0, out.stderr
    for lines in _variants(out.stdout).values():
        assert "65,536 disks is OUTSIDE the measured range (5,000 to " \
            "20,000; 3.3x the largest)" in lines[0]


def test_one_disk_count_needs_a_curve(tmp_path):
    run_dir = tmp_path / "kernels"
    shutil.copytree(KERNELS_SWEEP, run_dir)
    out = run_report(run_dir, "--disks", "20000")
    assert out.returncode == 1
    assert out.stdout.strip() == (
        "no prediction for 20,000 disks: a prediction needs a curve, and "
        "this run has none: 1 disk count(s) measured (4000); a fit needs "
        "at least 3 (bench/sweeps/scale.toml measures 3 or more)")
    assert not (run_dir / "report").exists()


def test_disks_must_be_positive(tmp_path):
    out = run_report(BOOTCURVE, "--disks", "0")
    assert out.returncode == 2
    assert "--disks: must be a positive number of disks" in out.stderr
