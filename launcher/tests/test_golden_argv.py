"""The QEMU command line of every shipped topology.

The command line is what `./blkscale run TOPO --dry-run` prints, one
argument per line, with the build directory shown as @BUILD@ (the run's
temporary directory is already @RUNDIR@ in a dry run).  The small
topologies match golden files (regenerate after an intended change with
BLKSCALE_REGEN_GOLDEN=1, never under CI); every topology, large ones
included, is checked against its plan: the devices of each kind, unique
addresses, node names and serials, no -drive, a size under ARG_MAX.
"""

import json
import os
import shlex
import subprocess
import sys
from collections import Counter

import pytest

from launchertest import (GOLDEN, GOLDEN_TOPOLOGIES, HERE, REPO,
                          regenerating_goldens, run_cli, shipped_topologies)

from blkscale.qemu.argv import argv_bytes


def dry_run_argv(topo, build):
    out = run_cli("run", f"topologies/{topo}.toml", "--dry-run",
                  "--variant", "stock", "--accel", "tcg",
                  env={"BUILD": str(build), "BLKSCALE_QEMU":
                       "qemu-system-x86_64"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("# stock\n")
    # Backslash-newline is a line continuation for the shell; the disks
    # that go over QMP follow as "# qmp" lines.
    text = out.stdout.split("\n", 1)[1]
    command = text.split("\n# qmp ", 1)[0].replace("\\\n", "")
    argv = shlex.split(command)
    return [a.replace(str(build), "@BUILD@") for a in argv]


def dry_run_qmp(topo, build):
    """The QMP commands of a dry run, as the options they replace."""
    out = run_cli("run", f"topologies/{topo}.toml", "--dry-run",
                  "--variant", "stock", "--accel", "tcg",
                  env={"BUILD": str(build), "BLKSCALE_QEMU":
                       "qemu-system-x86_64"})
    pairs = []
    for line in out.stdout.splitlines():
        if not line.startswith("# qmp "):
            continue
        cmd = json.loads(line[len("# qmp "):])
        args = dict(cmd["arguments"])
        if cmd["execute"] == "blockdev-add":
            pairs.append(("-blockdev", ",".join(
                f"{k}={v}" for k, v in args.items())))
        else:
            driver = args.pop("driver")
            pairs.append(("-device", ",".join(
                [driver] + [f"{k}={v}" for k, v in args.items()])))
    return pairs


@pytest.mark.parametrize("topo", GOLDEN_TOPOLOGIES)
def test_golden_argv(topo, tmp_path):
    argv = dry_run_argv(topo, tmp_path / "build")
    golden = GOLDEN / f"{topo}.argv"
    text = "\n".join(argv) + "\n"
    if regenerating_goldens():
        golden.write_text(text)
    assert golden.exists(), "no golden file; run with BLKSCALE_REGEN_GOLDEN=1"
    assert text == golden.read_text(), (
        f"{topo}: QEMU command line changed; if intended, regenerate with "
        "BLKSCALE_REGEN_GOLDEN=1")


def test_golden_files_are_the_small_topologies():
    assert sorted(p.stem for p in GOLDEN.glob("*.argv")) == GOLDEN_TOPOLOGIES
    assert set(GOLDEN_TOPOLOGIES) <= set(shipped_topologies())


def test_regeneration_is_refused_under_ci(tmp_path):
    """CI=true with BLKSCALE_REGEN_GOLDEN=1 fails and rewrites nothing."""
    golden = GOLDEN / "smoke.argv"
    before = golden.read_bytes()
    env = dict(os.environ, CI="true", BLKSCALE_REGEN_GOLDEN="1")
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         f"{HERE / 'test_golden_argv.py'}::test_golden_argv[smoke]"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode != 0, out.stdout
    assert "refused under CI" in out.stdout
    assert golden.read_bytes() == before


def _kv(spec):
    """driver,key=value,... -> (driver, {key: value}); ",," is a comma."""
    head, *rest = spec.replace(",,", "\0").split(",")
    return head, dict(item.replace("\0", ",").split("=", 1) for item in rest)


def _plan(topo):
    out = run_cli("plan", "--json", f"topologies/{topo}.toml")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _unique(values):
    return len(values) == len(set(values))


@pytest.mark.parametrize("topo", shipped_topologies())
def test_argv_matches_the_plan(topo, tmp_path):
    plan = _plan(topo)
    argv = dry_run_argv(topo, tmp_path / "build")
    pairs = list(zip(argv, argv[1:])) + dry_run_qmp(topo, tmp_path / "build")
    devices = [_kv(v) for o, v in pairs if o == "-device"]
    kinds = Counter(driver for driver, _ in devices)
    expected = plan["expected"]
    def controllers(kind):
        # a group with several paths has `controllers` for each path
        return sum(g["devices"] for g in plan["groups"]
                   if g["kind"] == kind)
    assert kinds["virtio-blk-pci"] == expected["virtio"]
    assert kinds["scsi-hd"] == expected["scsi"]
    assert kinds["virtio-scsi-pci"] == controllers("virtio_scsi")
    assert kinds["mptsas1068"] == controllers("sas")
    assert kinds["pci-bridge"] == plan["pci"]["bridges"]
    assert "-drive" not in argv
    # Every PCI device at its own bus and slot, every LUN its own address.
    pci = [(p["bus"], int(p["addr"], 16)) for _, p in devices if "addr" in p]
    assert _unique(pci)
    assert len(pci) == 1 + plan["pci"]["devices"] + plan["pci"]["bridges"]
    luns = [(p["bus"], p["scsi-id"], p["lun"]) for d, p in devices
            if d == "scsi-hd"]
    assert _unique(luns)
    # One node and one serial per disk, used by as many devices as the
    # disk has paths (virtio_scsi[].paths), each with the same serial
    # and WWN and sharing writes; every device's drive exists.
    paths = {g["id"]: g.get("paths", 1) for g in plan["groups"]}
    nodes = [_kv(v)[1]["node-name"] for o, v in pairs if o == "-blockdev"]
    drives = Counter(p["drive"] for _, p in devices if "drive" in p)
    serials = Counter(p["serial"] for _, p in devices if "serial" in p)
    assert _unique(nodes)
    for serial, count in serials.items():
        assert count == paths[serial.rsplit("-", 1)[0]], serial
    assert sorted(drives.values()) == sorted(serials.values())
    assert sum(serials.values()) == expected["virtio"] + expected["scsi"]
    names = {}
    for _, p in devices:
        if "drive" in p:
            names.setdefault(p["drive"], set()).add(
                (p["serial"], p.get("wwn"), p.get("share-rw")))
    assert all(len(v) == 1 for v in names.values())
    for g in plan["groups"]:
        if g.get("paths", 1) > 1:
            for index in range(g["disks"]):
                ((serial, wwn, share),) = names[f"d-{g['id']}-{index}"]
                assert (serial, share) == (f"{g['id']}-{index}", "on")
                assert wwn
    # Every SAS disk and every LUN with several paths has a WWN of its
    # own: mptsas1068 reports it as the end device's SAS address, and
    # the guest drops disks that share one; multipath groups paths by it.
    wwns = [next(iter(v))[1] for v in names.values() if next(iter(v))[1]]
    assert _unique(wwns)
    assert len(wwns) == sum(g["disks"] for g in plan["groups"]
                            if g["kind"] == "sas" or g.get("paths", 1) > 1)
    drives = list(drives)
    assert set(drives) <= set(nodes)
    assert argv_bytes(argv) <= plan["host"]["argv_limit"]


def test_invariants_catch_a_duplicate_address():
    """The address check is real: a repeated slot is seen."""
    argv = ["-device", "virtio-blk-pci,bus=pci.0,addr=0x3,drive=a,serial=a",
            "-device", "virtio-blk-pci,bus=pci.0,addr=0x3,drive=b,serial=b"]
    devices = [_kv(v) for o, v in zip(argv, argv[1:]) if o == "-device"]
    assert not _unique([(p["bus"], p["addr"]) for _, p in devices])
