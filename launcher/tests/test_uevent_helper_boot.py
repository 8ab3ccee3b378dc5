"""guest.uevent_helper on a real boot: mdev becomes the kernel's uevent
helper before scsi_debug loads, and "none" leaves the kernel without one."""

import json

import pytest

from blkscale import paths
from launchertest import all_files, need_built, run_cli

TOPOLOGY = """\
[guest]
variants = ["patched"]
uevent_helper = "{helper}"
[scsi_debug]
add_host = 1
max_luns = 16
[plan]
steps = ["census"]
settle_s = 120
"""


@pytest.mark.parametrize("helper, expected", [("mdev", "/bin/mdev"),
                                              ("none", "")])
def test_uevent_helper(helper, expected, tmp_path):
    variant = "patched"
    need_built(variant, "config")
    config = paths.kernel_dir(variant) / "config"
    if "CONFIG_UEVENT_HELPER=y" not in config.read_text().splitlines():
        pytest.skip("kernel built before CONFIG_UEVENT_HELPER (make kernel)")
    topo = tmp_path / f"helper-{helper}.toml"
    topo.write_text(TOPOLOGY.format(helper=helper))
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    out = run_cli("run", topo, "--accel", "tcg", "--run-id", "h",
                  "--results-dir", tmp_path / "results", "--quiet",
                  env={"TMPDIR": str(tmp)}, timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr
    assert all_files(tmp) == []
    doc = json.loads((tmp_path / "results" / "h" / variant /
                      "results.json").read_text())
    assert doc["guest"]["uevent_helper"] == expected
    assert doc["disks"]["found"]["total"] == 16
