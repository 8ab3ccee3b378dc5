"""The QEMU command line of every shipped topology matches its golden file.

The command line is what `./blkscale run TOPO --dry-run` prints, one
argument per line, with the build directory shown as @BUILD@ (the run's
temporary directory is already @RUNDIR@ in a dry run).  Regenerate after
an intended change with BLKSCALE_REGEN_GOLDEN=1.
"""

import os
import shlex

import pytest

from launchertest import HERE, run_cli, shipped_topologies

GOLDEN = HERE / "golden"


def dry_run_argv(topo, build):
    out = run_cli("run", f"topologies/{topo}.toml", "--dry-run",
                  "--variant", "stock", "--accel", "tcg",
                  env={"BUILD": str(build), "BLKSCALE_QEMU":
                       "qemu-system-x86_64"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("# stock\n")
    # Backslash-newline is a line continuation for the shell.
    command = out.stdout.split("\n", 1)[1].replace("\\\n", "")
    argv = shlex.split(command)
    return [a.replace(str(build), "@BUILD@") for a in argv]


@pytest.mark.parametrize("topo", shipped_topologies())
def test_golden_argv(topo, tmp_path):
    argv = dry_run_argv(topo, tmp_path / "build")
    golden = GOLDEN / f"{topo}.argv"
    text = "\n".join(argv) + "\n"
    if os.environ.get("BLKSCALE_REGEN_GOLDEN") == "1":
        golden.write_text(text)
    assert golden.exists(), "no golden file; run with BLKSCALE_REGEN_GOLDEN=1"
    assert text == golden.read_text(), (
        f"{topo}: QEMU command line changed; if intended, regenerate with "
        "BLKSCALE_REGEN_GOLDEN=1")


def test_every_topology_has_a_golden_file():
    goldens = sorted(p.stem for p in GOLDEN.glob("*.argv"))
    assert goldens == shipped_topologies()


def test_no_drive_option_anywhere():
    """-drive is O(n^2) in QEMU 7.2; disks must use -blockdev + -device."""
    for golden in GOLDEN.glob("*.argv"):
        assert "-drive" not in golden.read_text().split("\n"), golden.name
