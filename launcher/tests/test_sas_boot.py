"""Real boots: disks behind emulated SAS HBAs, found through the SAS
transport class.

topologies/sas-smoke.toml: two mptsas1068 HBAs with 8 end devices each
and one with 2 end devices of 2 LUNs, 20 disks on slices.  On both
kernels the census must identify every disk by serial, size and
signature, and find each below a SAS end device (its `transport` check).
Skipped, with the reason, on a kernel built without
mptsas (CONFIG_FUSION_SAS).
"""

import pytest

from launchertest import boot_results, need_built, run_cli

from blkscale import paths

VARIANTS = ["stock", "patched"]
DISKS = 2 * 8 + 2 * 2


def need_mptsas(variant):
    need_built(variant, "config")
    config = (paths.kernel_dir(variant) / "config").read_text()
    if "CONFIG_FUSION_SAS=y" not in config.splitlines():
        pytest.skip(f"the {variant} kernel has no CONFIG_FUSION_SAS=y "
                    "(make kernel: kernel/configs/blkscale.config)")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_sas_disk_through_the_transport_class(variant, tmp_path):
    need_mptsas(variant)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    results = tmp_path / "results"
    out = run_cli("run", "topologies/sas-smoke.toml", "--variant", variant,
                  "--accel", "tcg", "--run-id", "sas", "--results-dir",
                  results, "--quiet", env={"TMPDIR": str(tmp)},
                  timeout=1800)
    doc = boot_results(out, results, "sas", variant, tmp)
    assert doc["topology"]["expected_sas"] == DISKS
    assert doc["disks"]["found"]["sd"] == DISKS
    ident = doc["census"]["identity"]
    assert (ident["expected"], ident["checked"], ident["ok"]) == (
        DISKS, DISKS, DISKS)
    assert ident["by_kind"]["scsi"] == {"checked": DISKS, "ok": DISKS}
    assert (ident["signatures_checked"], ident["signatures_ok"]) == (
        DISKS, DISKS)
    assert ident["sas_transport"] == DISKS
    assert ident["bad"] == []
