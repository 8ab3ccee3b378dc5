"""Real boots: smoke and ci-small on both kernel variants under TCG.

They need build/kernel/out/<variant>/bzImage and
build/initramfs/<variant>.cpio (make kernel initramfs) and skip without.
"""

import re

import pytest

from launchertest import boot_results, need_built, run_cli

VARIANTS = ["stock", "patched"]


def boot(topo, variant, tmp_path):
    need_built(variant)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    results = tmp_path / "results"
    out = run_cli("run", f"topologies/{topo}.toml", "--variant", variant,
                  "--accel", "tcg", "--run-id", "boot", "--results-dir",
                  results, "--quiet", env={"TMPDIR": str(tmp)}, timeout=1800)
    doc = boot_results(out, results, "boot", variant, tmp)
    assert doc["disks"]["found"]["total"] == doc["topology"]["expected"][
        "total"]
    assert doc["boot"]["kernel_to_init_s"] > 0
    assert doc["boot"]["census_complete_s"] >= doc["boot"][
        "kernel_to_init_s"]
    assert doc["memory"]["guest_mem_total_kib"] > 0
    assert doc["memory"]["qemu_peak_rss_kib"] > 0
    assert (results / "boot" / variant / "console.log").stat().st_size > 0
    assert doc["warnings"] == []
    return doc


@pytest.mark.parametrize("variant", VARIANTS)
def test_smoke(variant, tmp_path):
    doc = boot("smoke", variant, tmp_path)
    assert doc["disks"]["found"] == {"vd": 4, "sd": 4, "nullb": 0,
                                     "total": 8}
    # Times are benchmark figures; here only their order is behaviour.
    times = doc["boot"]
    assert 0 < times["kernel_to_init_s"] <= times["census_complete_s"] <= \
        times["guest_done_s"]
    assert times["wall_to_init_s"] <= times["wall_to_census_s"] <= \
        times["wall_s"]
    # The kernel's whole log came home through /dev/kmsg, from its first
    # line, and shows no limit.
    vdir = tmp_path / "results" / "boot" / variant
    console = (vdir / "console.log").read_text()
    assert re.search(r"blkscale: kmsgdump: [1-9]\d* records, 0 malformed",
                     console), console[-2000:]
    log = (vdir / "dmesg.log").read_text()
    assert log.startswith("[    0.000000] Linux version ")
    assert doc["limits"] == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_ci_small(variant, tmp_path):
    doc = boot("ci-small", variant, tmp_path)
    assert doc["disks"]["found"]["total"] == 104
    assert [s["name"] for s in doc["steps"]] == [
        "census", "majors", "procdevices", "fio", "lvm", "devtaudit",
        "selftest"]
    assert (doc["fio"]["disks"], doc["fio"]["ok"]) == (4, 4)
    assert doc["fio"]["verify"] is True
    # --rcu-barrier: a barrier before each warm round; 6.1 has no
    # kvfree_rcu_barrier()
    majors = doc["majors"]
    assert majors["config"]["rcu_barrier"] is True
    assert majors["block"]["rcu_barrier"] == {
        "done": majors["config"]["rounds"] - 1, "rcu": True,
        "kvfree_rcu": False}
    # --churn: the first round's majors registered and unregistered again,
    # twice, after the measured rounds
    churn = majors["block"]["churn"]
    assert majors["config"]["churn"] == 2
    assert (churn["requested"], churn["rounds"], churn["majors"]) == (
        2, 2, majors["block"]["dynamic_capacity"])
    assert churn["ns"] > 0
    # every selftest case ran and passed: a skip hides a missing check
    selftest = doc["selftest"]
    assert selftest["failed"] == 0 and selftest["skipped"] == 0, [
        t for t in selftest["tests"] if t["status"] != "pass"]
