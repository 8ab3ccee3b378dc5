"""blkscale plan and validate as a user runs them."""

import json

from launchertest import run_cli, shipped_topologies


def test_plan_text_shows_layout_and_resources():
    out = run_cli("plan", "topologies/ci-small.toml")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for needle in ["disks: 104 expected (virtio 32, scsi 64, sim 8)",
                   "PCI (i440fx): 2 buses, 1 pci-bridges",
                   "bus   1 br1 (leaf, on pci.0 slot 31)", "MSI-X:",
                   "legacy I/O space:", "file descriptors", "guest memory:",
                   "block majors:", "guest names vda..vdh",
                   "fio: 4 disks (vda vdb vdc vdd)"]:
        assert needle in text, needle


def test_plan_json():
    out = run_cli("plan", "topologies/smoke.toml", "--json")
    assert out.returncode == 0, out.stderr
    plan = json.loads(out.stdout)
    assert plan["expected"] == {"virtio": 4, "scsi": 4, "sim": 0, "total": 8}
    assert plan["pci"]["devices"] == 5
    assert plan["guest"]["cmdline"].startswith("console=ttyS0 panic=-1 "
                                               "rdinit=/init")


def test_validate_every_shipped_topology():
    files = [f"topologies/{t}.toml" for t in shipped_topologies()]
    out = run_cli("validate", *files)
    assert out.returncode == 0, out.stderr
    assert len(out.stdout.splitlines()) == len(files)


def test_validate_reports_each_bad_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[guest]\nvcpus = 0\n")
    out = run_cli("validate", "topologies/smoke.toml", bad)
    assert out.returncode == 2
    assert out.stdout.startswith("topologies/smoke.toml: ok")
    assert out.stderr == f"{bad}: guest.vcpus: must be 1..255, got 0\n"


def test_missing_file():
    out = run_cli("validate", "topologies/nonexistent.toml")
    assert out.returncode == 2
    assert out.stderr == ("topologies/nonexistent.toml: cannot read: No such "
                          "file or directory\n")


def test_help_of_every_subcommand():
    for command in ("run", "plan", "validate"):
        out = run_cli(command, "--help")
        assert out.returncode == 0 and "usage: blkscale " + command in \
            out.stdout


def test_usage_error_exits_2():
    out = run_cli("run")
    assert out.returncode == 2
    assert "the following arguments are required: TOPO" in out.stderr
