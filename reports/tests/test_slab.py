"""blkscale slab: each slab cache's growth per added disk between two
runs of one kernel, and one-line refusals of what cannot be compared."""

import json
import subprocess

from conftest import REPO


def doc(disks, caches, release="6.1.192-stock-dcfg", slab_kib=None):
    return {"kernel": {"guest_release": release},
            "disks": {"found": {"total": disks}},
            "guest": {"meminfo_kib": {"Slab": slab_kib},
                      "slab_caches": caches}}


# [objects, object size, slabs, pages per slab]
SMALL = doc(250, {"kmalloc-96": [4000, 96, 100, 1],
                  "sd_ext_cdb": [0, 32, 0, 1],
                  "kernfs_node_cache": [30000, 128, 1000, 1]},
            slab_kib=20000)
LARGE = doc(4250, {"kmalloc-96": [8000, 96, 200, 1],
                   "kernfs_node_cache": [150000, 128, 5000, 8]},
            slab_kib=180000)


def slab(tmp_path, small, large, *args):
    a, b = tmp_path / "small.json", tmp_path / "large.json"
    a.write_text(json.dumps(small))
    b.write_text(json.dumps(large))
    return subprocess.run([str(REPO / "blkscale"), "slab", str(a), str(b),
                           *args], capture_output=True, text=True,
                          timeout=60, cwd=REPO)


def test_growth_per_added_disk_the_most_first(tmp_path):
    out = slab(tmp_path, SMALL, LARGE, "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["disks_added"] == 4000
    assert got["meminfo_slab_kib_per_disk"] == 40.0
    rows = {c["cache"]: c for c in got["caches"]}
    # 5000 slabs of 8 pages against 1000 of 1: 39,000 pages over 4000 disks
    assert rows["kernfs_node_cache"]["bytes_per_disk"] == 39000 * 4096 / 4000
    assert rows["kernfs_node_cache"]["objects_per_disk"] == 30.0
    assert rows["kmalloc-96"]["bytes_per_disk"] == 100 * 4096 / 4000
    # a cache only one run has counts as empty in the other
    assert rows["sd_ext_cdb"]["bytes_per_disk"] == 0
    assert [c["cache"] for c in got["caches"]][0] == "kernfs_node_cache"


def test_text_table(tmp_path):
    out = slab(tmp_path, SMALL, LARGE, "--top", "1")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("6.1.192-stock-dcfg: 4000 disks added; slab ")
    assert lines[0].endswith("40.0 KiB by /proc/meminfo")
    assert lines[2].split()[0] == "kernfs_node_cache"
    assert lines[3].startswith("(the other caches)")


def test_two_kernels_are_refused(tmp_path):
    other = dict(LARGE, kernel={"guest_release": "6.1.192-patched-dcfg"})
    out = slab(tmp_path, SMALL, other)
    assert out.returncode == 2
    assert out.stderr.strip() == (
        f"{tmp_path}/large.json: kernel.guest_release: 6.1.192-patched-dcfg"
        f", not 6.1.192-stock-dcfg as in {tmp_path}/small.json: one "
        "kernel's two runs are compared")


def test_no_more_disks_is_refused(tmp_path):
    out = slab(tmp_path, LARGE, SMALL)
    assert out.returncode == 2
    assert out.stderr.strip() == (
        f"{tmp_path}/large.json: disks.found.total: no more disks than "
        f"{tmp_path}/small.json")


def test_a_kernel_without_slabinfo_is_refused(tmp_path):
    tiny = doc(4250, None, release="6.1.192-stock-dcfg")
    out = slab(tmp_path, SMALL, tiny)
    assert out.returncode == 2
    assert out.stderr.strip() == (
        f"{tmp_path}/large.json: guest.slab_caches: none recorded (the "
        "kernel has no /proc/slabinfo: SLUB_DEBUG off)")
    assert out.stdout == ""


def test_a_malformed_row_is_refused(tmp_path):
    bad = doc(4250, {"kmalloc-96": [1, 2, 3]})
    out = slab(tmp_path, SMALL, bad)
    assert out.returncode == 2
    assert "guest.slab_caches.kmalloc-96: not [objects" in out.stderr
