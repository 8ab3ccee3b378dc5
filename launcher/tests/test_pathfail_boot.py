"""A path dies under I/O, on a real boot of Debian's own kernel (the
debian variant): topologies/multipath-pathfail.toml, 8 LUNs on two
virtio-scsi controllers.  While fio writes and verifies through the 8
maps, the launcher removes every LUN's second path over QMP and adds it
back 10 s later: fio must verify every map, multipath must drop the
paths and take them back, and the run records both times.  The same run
with both paths of every LUN removed for longer than multipath queues
I/O must fail, saying fio failed with the paths gone.

Needs `make kernel initramfs VARIANTS=debian` and Debian's udev,
systemd, lvm2, dmsetup and multipath-tools packages on the host (make
deps); skips without."""

import json
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from launchertest import REPO, boot_results, need_built, run_boot

LUNS, PATHS = 8, 2
TOPOLOGY = REPO / "topologies" / "multipath-pathfail.toml"


@pytest.fixture
def short_tmp():
    """A TMPDIR short enough for the QMP socket of a variant named after
    a release."""
    tmp = Path(tempfile.mkdtemp(prefix="bk", dir="/tmp"))
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


def boot(topology, tmp_path, short_tmp):
    need_built("debian", "config")
    if not shutil.which("multipathd", path="/sbin:/usr/sbin"):
        pytest.skip("no multipath-tools on the host (make deps)")
    results = tmp_path / "results"
    out = run_boot("run", topology, "--variant", "debian", "--accel",
                   "tcg", "--run-id", "pf", "--results-dir", results,
                   "--quiet", results=results, run_id="pf",
                   env={"TMPDIR": str(short_tmp)}, timeout=1200)
    return out, results


def test_a_path_removed_and_restored_under_fio(tmp_path, short_tmp):
    out, results = boot(TOPOLOGY, tmp_path, short_tmp)
    doc = boot_results(out, results, "pf", "debian", short_tmp)
    steps = {s["name"]: s["verdict"] for s in doc["steps"]}
    assert steps["multipath"] == steps["pathfail"] == "ok"
    pf = doc["pathfail"]
    assert pf["paths_removed"] == [1]
    assert (pf["paths_all"], pf["paths_kept"]) == (LUNS * PATHS, LUNS)
    # both changes seen, each within the plan's settle_s
    assert 0 < pf["failover_s"] <= 60
    assert 0 < pf["reinstate_s"] <= 60
    assert pf["fio_running_at_reinstate"] is True and pf["fio_rc"] == 0
    # multipathd dropped each LUN's removed path and took a new one
    assert pf["multipathd_log"]["remove_path"] == LUNS
    assert pf["multipathd_log"]["add_path"] == LUNS
    # every map written and read back through the failure
    fio = pf["fio_derived"]
    assert fio["verify"] is True
    assert fio["disks_verified"] == fio["disks_expected"] == LUNS
    assert all(j["disk"].startswith("dm-") for j in fio["jobs"])
    assert all(j["write"]["io_bytes"] > 0 for j in fio["jobs"])
    # each wait's timeline: a row every 10 s and at its end, the counts
    # only growing; udev handled the returning paths' uevents
    fields = pf["timeline_fields"]
    rows = pf["timeline"]
    assert len(fields) == 9 and all(len(r) == len(fields) for r in rows)
    assert [r[0] for r in rows][0] == "paths-down"
    assert [r[0] for r in rows][-1] == "paths-up"
    last = dict(zip(fields, rows[-1]))
    assert (last["paths"], last["ready"]) == (LUNS * PATHS, LUNS * PATHS)
    for name in ("kernel_uevents", "udev_events", "mpd_removed", "mpd_added"):
        column = [r[fields.index(name)] for r in rows]
        assert column == sorted(column), name
    assert last["udev_events"] >= LUNS and last["mpd_added"] == LUNS
    assert isinstance(pf["multipathd_tail"], list)
    assert 0 < len(pf["multipathd_tail"]) <= 20
    # the host's side: one removal and one return of 8 devices each
    events = doc["host"]["path_events"]
    assert [e["request"] for e in events] == ["paths-down", "paths-up"]
    assert [e["devices"] for e in events] == [LUNS, LUNS]
    assert [e["error"] for e in events] == [None, None]
    assert events[0]["guest_uptime_s"] < events[1]["guest_uptime_s"]
    assert "paths 1 removed for 10 s" in out.stdout


def test_every_path_removed_fails_the_run(tmp_path, short_tmp):
    """No path left for longer than multipath queues I/O (no_path_retry
    12 x polling_interval 5 s): fio gets the errors and the run fails."""
    text = TOPOLOGY.read_text()
    text = re.sub(r"(?m)^paths = \[1\]$", "paths = [0, 1]", text)
    text = re.sub(r"(?m)^down_s = 10$", "down_s = 80", text)
    text = re.sub(r"(?m)^runtime_s = 40$", "runtime_s = 120", text)
    topology = tmp_path / "multipath-pathfail-all.toml"
    topology.write_text(text)
    out, results = boot(topology, tmp_path, short_tmp)
    assert out.returncode == 1, out.stdout + out.stderr
    doc = json.loads((results / "pf" / "debian" / "results.json")
                     .read_text())
    step = next(s for s in doc["steps"] if s["name"] == "pathfail")
    assert step["verdict"] == "failed"
    assert "fio through the maps failed with paths 0 1 removed" in \
        step["message"], step
    pf = doc["pathfail"]
    assert pf["paths_kept"] == 0 and pf["fio_rc"] != 0
    assert [e["devices"] for e in doc["host"]["path_events"]] == \
        [LUNS * PATHS, LUNS * PATHS]
