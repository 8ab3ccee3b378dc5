"""The topology of a second boot: topologies/blktests.toml running only
the tests that need reruns on one kernel, each run again whatever its
first status; valid as the launcher reads it, and placed where the
verdict finds its results.  No guest boots here."""

import pytest

import blktestsrun
from blkscale.topology.load import load
from blkscale_reports import blktestsruns

TOPOLOGY = blktestsrun.REPO / "topologies" / "blktests.toml"


def test_second_boot_runs_only_the_tests_again(tmp_path):
    path = blktestsrun.topology_with(TOPOLOGY, ["block/024", "scsi/007"],
                                     tmp_path / "t.toml")
    bt = load(path).plan.blktests
    assert bt.tests == ["block/024", "scsi/007"]
    assert bt.rerun_tests == ["block/024", "scsi/007"]
    assert bt.reruns == 5
    assert bt.disks == ["vblk-0", "scsi-0"]


def test_second_boot_with_its_own_number_of_reruns(tmp_path):
    path = blktestsrun.topology_with(TOPOLOGY, ["block/003"],
                                     tmp_path / "t.toml", reruns=2)
    assert load(path).plan.blktests.reruns == 2
    again = blktestsrun.topology_with(path, ["block/003"],
                                      tmp_path / "u.toml", reruns=3)
    assert load(again).plan.blktests.reruns == 3


def test_a_topology_without_a_tests_line_is_refused(tmp_path):
    bare = tmp_path / "bare.toml"
    bare.write_text("[plan]\nsteps = [\"blktests\"]\n")
    with pytest.raises(ValueError, match="plan.blktests.tests"):
        blktestsrun.topology_with(bare, ["block/003"], tmp_path / "t.toml")


def test_second_boot_results_land_where_the_verdict_reads_them(tmp_path):
    boot = blktestsruns.second_boot(tmp_path, "stock-blktests")
    assert boot.parent == tmp_path
    assert boot.name == "second-boot-stock-blktests"


def test_the_guest_is_told_the_reruns_and_the_tests(tmp_path):
    from blkscale.guestlink.planfiles import plan_env
    path = blktestsrun.topology_with(TOPOLOGY, ["block/024", "scsi/007"],
                                     tmp_path / "t.toml", reruns=3)
    env = plan_env(load(path), "r1", "stock-blktests")
    assert "BLKSCALE_BLKTESTS_RERUNS=3\n" in env
    assert "BLKSCALE_BLKTESTS_RERUN_TESTS='block/024 scsi/007'\n" in env
    plain = plan_env(load(TOPOLOGY), "r1", "stock-blktests")
    assert "BLKSCALE_BLKTESTS_RERUNS=5\n" in plain
    assert "BLKSCALE_BLKTESTS_RERUN_TESTS=''\n" in plain
