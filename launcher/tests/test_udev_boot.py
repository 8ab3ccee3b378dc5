"""guest.udev on a real boot of Debian's own kernel (the debian variant):
systemd-udevd started by /init before the drivers load, every disk with
its /dev/disk/by-id link, udev's figures in results.json and the summary;
and the census failing a disk without a by-id link (null_blk disks, which
Debian's rules give none), unless the topology excuses their kind.

Needs `make kernel initramfs VARIANTS=debian` and Debian's udev, systemd,
lvm2 and dmsetup packages on the host (make deps); skips without."""

import json

import pytest

from launchertest import boot_results, need_built, run_boot

SCSI, BLK, NULLB = 32, 4, 2

TOPOLOGY = """\
[guest]
vcpus = 2
memory_mib = 1024
udev = true
udev_settle_s = 300
{extra}
[timeouts]
boot_s = 300
run_s = 900
hang_s = 300

[[virtio_scsi]]
id = "scsi"
controllers = 1
targets = 2
luns = {luns}
size_mib = 32
backing = "null"

[[virtio_blk]]
id = "vblk"
count = {blk}
size_mib = 32
backing = "null"
{nullb}
[plan]
steps = ["census"]
settle_s = 300
"""

NULL_BLK = f"""
[null_blk]
nr_devices = {NULLB}
gb = 1
"""


def boot(tmp_path, short_tmp, extra="", nullb=""):
    need_built("debian", "config")
    topo = tmp_path / "udev.toml"
    topo.write_text(TOPOLOGY.format(extra=extra, luns=SCSI // 2, blk=BLK,
                                    nullb=nullb))
    results = tmp_path / "results"
    out = run_boot("run", topo, "--variant", "debian", "--accel", "tcg",
                   "--run-id", "u", "--results-dir", results, "--quiet",
                   results=results, run_id="u",
                   env={"TMPDIR": str(short_tmp)}, timeout=1200)
    return out, results


@pytest.fixture
def short_tmp(tmp_path_factory):
    """A TMPDIR short enough for the QMP socket of a variant named after
    a release."""
    import shutil
    import tempfile
    from pathlib import Path
    tmp = Path(tempfile.mkdtemp(prefix="bk", dir="/tmp"))
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


def test_every_disk_gets_its_by_id_link(tmp_path, short_tmp):
    out, results = boot(tmp_path, short_tmp)
    doc = boot_results(out, results, "u", "debian", short_tmp)
    total = SCSI + BLK
    assert doc["disks"]["found"]["total"] == total
    links = doc["census"]["links"]
    assert links["disks_with_by_id"] == total
    assert links["disks_without_by_id"] == 0
    assert links["disks_with_by_path"] == total
    udev = doc["udev"]
    assert udev["package"].startswith("udev ")
    assert udev["udevadm_version"].isdigit()
    assert udev["coldplug"] == "live"       # udevd was up before the drivers
    assert udev["settle_exit"] == 0 and udev["udevd_alive"] is True
    assert udev["monitor"]["disk_adds_kernel"] == total
    assert udev["monitor"]["disk_adds_udev"] == total
    assert udev["monitor"]["udev_events"] >= udev["monitor"]["kernel_events"] - 5
    assert udev["disk_latency_ms"]["n"] == total
    assert udev["cpu"]["udevd_and_workers_ticks"] > 0
    assert udev["log"]["worker_killed"] == 0
    assert udev["settled_s"] >= udev["monitor"]["last_disk_udev_s"]
    assert f"{udev['package']} (live): " in out.stdout
    assert f"by-id {total} disks, 0 without" in out.stdout
    step = next(s for s in doc["steps"] if s["name"] == "udev")
    assert step["verdict"] == "ok"


def test_a_disk_without_by_id_fails_the_census(tmp_path, short_tmp):
    out, results = boot(tmp_path, short_tmp, nullb=NULL_BLK)
    assert out.returncode == 1, out.stdout + out.stderr
    doc = json.loads((results / "u" / "debian" / "results.json").read_text())
    census = next(s for s in doc["steps"] if s["name"] == "census")
    assert census["verdict"] == "failed"
    assert "nullb" in census["message"] and "by-id" in census["message"]
    failures = [f for f in doc["census"]["failures"] if f["check"] == "by-id"]
    assert sorted(f["disk"] for f in failures) == ["nullb0", "nullb1"]
    assert doc["census"]["links"]["disks_without_by_id"] == NULLB
    assert doc["census"]["links"]["disks_with_by_id"] == SCSI + BLK


def test_the_topology_can_excuse_a_kind(tmp_path, short_tmp):
    out, results = boot(tmp_path, short_tmp, nullb=NULL_BLK,
                        extra='udev_no_by_id = ["null_blk"]')
    doc = boot_results(out, results, "u", "debian", short_tmp)
    links = doc["census"]["links"]
    assert links["excused_kinds"] == ["null_blk"]
    assert links["disks_excused"] == NULLB
    assert links["disks_without_by_id"] == 0
