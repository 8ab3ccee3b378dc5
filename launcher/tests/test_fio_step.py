"""The guest's fio step on the host: disks found by serial through the
census's map, batches of jobs, fio's terse lines turned into the fio
document derive_fio() judges.  The step's fixed paths are pointed at a
temporary directory, and the "devices" are files (/dev/../tmp/...)."""

import json
import shutil
import subprocess

import pytest

from launchertest import REPO

from blkscale.results.document import derive_fio

STEP = REPO / "guest-tools" / "initramfs" / "steps" / "fio"
GLOBAL = """; Generated
[global]
ioengine=psync
thread
disk_util=0
rw=randwrite
bs=128k
size=100%
io_size=512k
runtime=60
verify=crc32c
do_verify=1
verify_fatal=1
"""

pytestmark = pytest.mark.skipif(shutil.which("fio") is None,
                                reason="no fio on this host")


def run_step(tmp_path, serials, disks=4, batch=3, extra=""):
    for i in range(disks):
        with open(tmp_path / f"d{i}.img", "wb") as f:
            f.truncate(8 << 20)
    (tmp_path / "serials").write_text("".join(
        f"s-{i} ..{tmp_path}/d{i}.img\n" for i in range(disks)))
    (tmp_path / "fio-disks").write_text("".join(f"{s}\n" for s in serials))
    (tmp_path / "fio.job").write_text(GLOBAL + extra)
    text = STEP.read_text()
    for old, new in (("/etc/blkscale/fio.job", tmp_path / "fio.job"),
                     ("/etc/blkscale/fio-disks", tmp_path / "fio-disks"),
                     ("/tmp/blkscale/serials", tmp_path / "serials"),
                     ("out=/tmp/fio", f"out={tmp_path}/out")):
        assert old in text
        text = text.replace(old, str(new))
    script = tmp_path / "step"
    script.write_text(text)
    # cwd: fio leaves its verify state files where it runs when a verify
    # fails.
    out = subprocess.run(["sh", str(script)], capture_output=True, text=True,
                         cwd=tmp_path, env={"PATH": "/usr/bin:/bin",
                              "BLKSCALE_CONSOLE": str(tmp_path / "console"),
                              "BLKSCALE_FIO_BATCH": str(batch)})
    return out, json.loads(out.stdout)


def disk_map(n):
    return {f"s-{i}": ("s", i, None) for i in range(n)}


def test_every_disk_written_and_verified_in_batches(tmp_path):
    out, raw = run_step(tmp_path, [f"s-{i}" for i in range(4)])
    assert out.returncode == 0, out.stderr
    assert len(raw["batches"]) == 2         # 3 + 1 jobs
    assert (tmp_path / "console").read_text().startswith(
        "blkscale: fio: batch 2 of 2 at ")
    fio = derive_fio(raw, disk_map(4), True)
    assert (fio["disks_verified"], fio["disks_failed"]) == (4, 0)
    job = fio["jobs"][3]
    assert job["serial"] == "s-3" and job["disk"].endswith("/d3.img")
    assert job["write"]["io_bytes"] == 512 * 1024
    assert job["read"]["io_bytes"] == 512 * 1024


def test_a_serial_no_disk_has_fails_the_step(tmp_path):
    out, raw = run_step(tmp_path, ["s-0", "s-9"])
    assert out.returncode == 1
    assert out.stderr.splitlines()[-1] == \
        "fio: 1 disks not found by serial (first: s-9)"
    assert raw["unresolved"] == ["s-9"]
    fio = derive_fio(raw, dict(disk_map(1), **{"s-9": ("s", 9, None)}), True)
    assert fio["disks_failed"] == 1 and fio["not_run"] == ["s-9"]


def test_data_that_does_not_verify_fails_that_disk(tmp_path):
    # verify_only reads back what was never written: fio's verify fails
    out, raw = run_step(tmp_path, ["s-0"], disks=1, extra="verify_only=1\n")
    assert out.returncode == 1
    assert "verify" in out.stderr.splitlines()[-1]
    fio = derive_fio(raw, disk_map(1), True)
    assert fio["disks_verified"] == 0 and fio["disks_failed"] == 1
    assert fio["jobs"][0]["error"] != 0
