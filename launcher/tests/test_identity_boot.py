"""Real boots: every file-backed disk identified, written and verified.

Three virtio-blk disks on sparse files (two groups) and four SCSI disks
on slices of one file: the census checks each disk's serial, size and the signature the
launcher wrote into sector 0; fio writes and verifies every disk, found by
serial; lvm builds a VG on the SCSI disks.  Then the same topology with
one disk signed as another through the test-only switch: the census must
fail, naming exactly that disk, and nothing else; and a disk whose
signature carries another run's nonce (the switch on a group of one).
"""

import json

import pytest

from launchertest import boot_results, need_built, run_cli

VARIANTS = ["stock", "patched"]
WRONG = "scsi-2"
TOPO = """
description = "file-backed disks of both kinds, each identified and verified"

[guest]
vcpus = 2
memory_mib = 512

[timeouts]
boot_s = 300
run_s = 900
hang_s = 300

[[virtio_blk]]
id = "vblk"
count = 2
size_mib = 32
backing = "sparse"

[[virtio_blk]]
id = "one"
count = 1
size_mib = 16
backing = "sparse"

[[virtio_scsi]]
id = "scsi"
targets = 2
luns = 2
size_mib = 32
backing = "slice"

[plan]
steps = ["census", "fio", "lvm"]
settle_s = 60

[plan.args]
lvm = "stripes=2 size_mb=16"

[plan.fio]
groups = ["vblk", "scsi"]
disks = 6
batch = 4
rw = "randwrite"
bs = "64k"
size_mib = 1
spread = true
runtime_s = 300
verify = true

[plan.lvm]
groups = ["scsi"]
disks = 4
"""


def run(variant, tmp_path, env):
    need_built(variant)
    topo = tmp_path / "identity.toml"
    topo.write_text(TOPO)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    results = tmp_path / "results"
    out = run_cli("run", topo, "--variant", variant, "--accel", "tcg",
                  "--run-id", "id", "--results-dir", results, "--quiet",
                  env=dict(env, TMPDIR=str(tmp)), timeout=1800)
    return out, results, tmp


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_disk_is_the_disk_it_should_be(variant, tmp_path):
    out, results, tmp = run(variant, tmp_path,
                            {"BLKSCALE_TEST_WRONG_SIGNATURE": ""})
    doc = boot_results(out, results, "id", variant, tmp)
    ident = doc["census"]["identity"]
    assert (ident["expected"], ident["checked"], ident["ok"]) == (7, 7, 7)
    assert (ident["signatures_checked"], ident["signatures_ok"]) == (7, 7)
    assert ident["by_kind"] == {"virtio": {"checked": 3, "ok": 3},
                                "scsi": {"checked": 4, "ok": 4}}
    assert ident["nonce_checked"] is True and ident["bad"] == []
    assert doc["census"]["devt_scheme"]["failed"] == 0
    fio = doc["fio"]
    assert (fio["disks_expected"], fio["disks_verified"],
            fio["disks_failed"]) == (6, 6, 0)
    assert sorted(j["serial"] for j in fio["jobs"]) == sorted(
        [f"vblk-{i}" for i in range(2)] + [f"scsi-{i}" for i in range(4)])
    assert {j["disk"][:2] for j in fio["jobs"]} == {"vd", "sd"}
    lvm = doc["lvm"]
    assert lvm["ok"] and lvm["pvs"] == 4 and lvm["verified"]
    assert lvm["pvcreate_s"] >= 0 and lvm["pvcreate_ms_per_pv"] >= 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_disk_signed_as_another_fails_the_census(variant, tmp_path):
    out, results, _ = run(variant, tmp_path,
                          {"BLKSCALE_TEST_WRONG_SIGNATURE": WRONG})
    assert out.returncode == 1, out.stdout + out.stderr
    doc = json.loads((results / "id" / variant / "results.json").read_text())
    verdicts = {s["name"]: s["verdict"] for s in doc["steps"]}
    assert verdicts == {"census": "failed", "fio": "ok", "lvm": "ok"}
    census = next(s for s in doc["steps"] if s["name"] == "census")
    ident = doc["census"]["identity"]
    assert (ident["ok"], ident["mismatched"], ident["signatures_ok"]) == \
        (6, 1, 6)
    [bad] = ident["bad"]
    assert bad["serial"] == WRONG and bad["check"] == "signature"
    assert bad["problem"] == f"sector 0 is disk scsi-3, sysfs says {WRONG}"
    assert census["message"].startswith(
        f"exit 1: diskcensus: {bad['disk']} ({WRONG}): signature: ")
    assert [f["serial"] for f in doc["census"]["failures"]] == [WRONG]


def test_a_signature_of_another_run_fails_the_census(tmp_path):
    # the kernel has no part in this check: one variant is enough
    out, results, _ = run("stock", tmp_path,
                          {"BLKSCALE_TEST_WRONG_SIGNATURE": "one-0"})
    assert out.returncode == 1, out.stdout + out.stderr
    doc = json.loads((results / "id" / "stock" / "results.json").read_text())
    [bad] = doc["census"]["identity"]["bad"]
    assert (bad["serial"], bad["check"]) == ("one-0", "signature")
    assert bad["problem"].startswith("sector 0 is from another run (nonce ")
