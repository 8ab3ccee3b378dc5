"""virtio_scsi[].paths on a real boot of Debian's own kernel (the debian
variant): topologies/multipath-smoke.toml, 8 LUNs each on two
virtio-scsi controllers.  /init starts multipathd from the multipath
layer once udev has settled; the census must find every LUN's serial
once per path, the multipath step one dm-multipath map per LUN with both
paths active and none left out, and fio and lvm must run on the maps.
And a run whose paths do not report the same serial
(BLKSCALE_MULTIPATH_FAULT=serial: every second path's serial gets a
suffix) must fail its census.

Needs `make kernel initramfs VARIANTS=debian` and Debian's udev,
systemd, lvm2, dmsetup and multipath-tools packages on the host (make
deps); skips without."""

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from launchertest import boot_results, need_built, run_boot

LUNS, PATHS = 8, 2


@pytest.fixture
def short_tmp():
    """A TMPDIR short enough for the QMP socket of a variant named after
    a release."""
    tmp = Path(tempfile.mkdtemp(prefix="bk", dir="/tmp"))
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


def boot(tmp_path, short_tmp, env=None):
    need_built("debian", "config")
    if not shutil.which("multipathd", path="/sbin:/usr/sbin"):
        pytest.skip("no multipath-tools on the host (make deps)")
    results = tmp_path / "results"
    out = run_boot("run", "topologies/multipath-smoke.toml", "--variant",
                   "debian", "--accel", "tcg", "--run-id", "mp",
                   "--results-dir", results, "--quiet", results=results,
                   run_id="mp", env=dict(env or {}, TMPDIR=str(short_tmp)),
                   timeout=1200)
    return out, results


def test_one_map_per_lun_with_every_path(tmp_path, short_tmp):
    out, results = boot(tmp_path, short_tmp)
    doc = boot_results(out, results, "mp", "debian", short_tmp)
    assert doc["disks"]["found"]["sd"] == LUNS * PATHS
    ident = doc["census"]["identity"]
    assert (ident["expected"], ident["checked"], ident["ok"]) == (
        LUNS * PATHS, LUNS * PATHS, LUNS * PATHS)
    assert (ident["signatures_checked"], ident["signatures_ok"]) == (
        LUNS * PATHS, LUNS * PATHS)
    mp = doc["multipath"]
    assert mp["ok"] is True and mp["bad"] == []
    assert (mp["maps"], mp["maps_expected"]) == (LUNS, LUNS)
    assert mp["paths_expected"] == mp["paths_active"] == LUNS * PATHS
    assert mp["unclaimed"] == 0
    assert mp["build_s"] > 0
    assert mp["multipathd"]["rss_kib"] > 0
    assert mp["multipathd"]["cpu_s"] >= 0
    steps = {s["name"]: s["verdict"] for s in doc["steps"]}
    assert steps["multipathd"] == steps["multipath"] == "ok"
    # fio wrote and verified through the maps, lvm's PVs were maps
    assert steps["fio"] == steps["lvm"] == "ok"
    fio = doc["fio"]
    assert fio["verify"] is True
    assert fio["disks_verified"] == LUNS
    assert all(j["disk"].startswith("dm-") for j in fio["jobs"]), fio
    assert doc["lvm"]["ok"] is True and doc["lvm"]["pvs"] == LUNS


def test_paths_with_different_serials_fail_the_census(tmp_path, short_tmp):
    out, results = boot(tmp_path, short_tmp,
                        env={"BLKSCALE_MULTIPATH_FAULT": "serial"})
    assert out.returncode == 1, out.stdout + out.stderr
    doc = json.loads((results / "mp" / "debian" / "results.json").read_text())
    census = next(s for s in doc["steps"] if s["name"] == "census")
    assert census["verdict"] == "failed"
    ident = doc["census"]["identity"]
    assert ident["unexpected"] == LUNS
    assert ident["missing"] == LUNS
    messages = [b["problem"] for b in ident["bad"]]
    assert "mp-0 has 1 of its 2 paths" in messages
    assert "mp-0p1 is not a disk of the plan" in messages
