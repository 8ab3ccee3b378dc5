"""blkscale plan and validate as a user runs them."""

import json
import os
import signal
import subprocess

from launchertest import BLKSCALE, REPO, run_cli, shipped_topologies


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
    # as QEMU started directly boots it under TCG
    assert plan["guest"]["cmdline"] == (
        "console=ttyS0 loglevel=5 log_buf_len=1M panic=-1 rdinit=/init "
        "unknown_nmi_panic panic_print=0x40 "
        "tsc=reliable")
    assert (plan["guest"]["clocksource"], plan["guest"]["console"]) == (
        "auto", "auto")


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


def test_closed_stdout_ends_quietly():
    """`blkscale plan ... | head`: the reader is gone before we write; the
    command ends like other Unix tools (status 128 + SIGPIPE), no
    traceback."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        out = subprocess.run([str(BLKSCALE), "plan", "topologies/default.toml"],
                             stdout=write_end, stderr=subprocess.PIPE,
                             text=True, cwd=REPO, timeout=120)
    finally:
        os.close(write_end)
    assert out.stderr == ""
    assert out.returncode == 128 + signal.SIGPIPE


def test_diskless_topology_with_diskless_steps_is_accepted(tmp_path):
    topo = tmp_path / "majors-only.toml"
    topo.write_text('[plan]\nsteps = ["majors", "procdevices", "selftest"]\n')
    out = run_cli("validate", topo)
    assert out.returncode == 0, out.stderr
    assert "ok (0 disks" in out.stdout


def test_deeply_nested_inline_table_is_one_line(tmp_path):
    topo = tmp_path / "deep.toml"
    topo.write_text("x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n")
    out = run_cli("plan", topo)
    assert out.returncode == 2
    assert out.stderr == (f"{topo}: TOML syntax error: arrays or inline "
                          "tables nested too deeply\n")


# More than any host's TMPDIR holds: 100 fio disks writing 1 TiB each.
HUGE_WRITES = """
[[virtio_blk]]
id = "big"
count = 100
size_mib = 1048576
backing = "sparse"
[plan]
steps = ["census", "fio"]
[plan.fio]
groups = ["big"]
disks = 100
size_mib = 1048576
"""


def test_only_run_refuses_a_tmpdir_too_small(tmp_path):
    """The host's free space is not the topology's: validate, xml, plan
    and a dry run accept the file (plan says a run would be refused); run
    refuses it before anything starts, naming the field."""
    topo = tmp_path / "huge.toml"
    topo.write_text(HUGE_WRITES)
    for cmd in (("validate",), ("xml",), ("plan",), ("run", "--dry-run")):
        out = run_cli(*cmd, str(topo))
        assert out.returncode == 0, (cmd, out.stderr)
    plan = run_cli("plan", str(topo)).stdout
    assert "MiB free (a run here would be refused)" in plan
    host = json.loads(run_cli("plan", str(topo), "--json").stdout)["host"]
    assert host["disk_mib"] == 100 * 1048576 > host["disk_free_mib"]
    out = run_cli("run", str(topo), "--results-dir", str(tmp_path / "res"))
    assert out.returncode == 2
    assert "virtio_blk[0].backing: the file-backed disks would write about" \
        in out.stderr
    assert not (tmp_path / "res").exists()
