"""How QEMU gets its disks past ARG_MAX: a raised stack rlimit, then QMP.

qemu/diskstart.py chooses, qemu/hotplug.py moves SCSI disks from the
command line to QMP commands sent between -S and `cont`.
"""

import functools
import json
import re
import os
import shutil
import subprocess
import tempfile

import pytest

from blkscale import commands
from blkscale.errors import UsageError
from blkscale.libvirt import livedisks
from blkscale.machine import cmdline
from blkscale.machine.files import RunFiles
from blkscale.qemu import argv as qargv
from blkscale.qemu import diskstart, hotplug
from blkscale.qemu.machine import Machine, _child_setup
from launchertest import fake_runs, run_cli

# 60 controllers x 250 single-LUN targets: past the default ARG_MAX
# (about 2.8 MiB of command line), within a raised stack's 6 MiB.
BIG = ('[guest]\nmemory_mib = 8192\n[timeouts]\nboot_s = 600\nrun_s = 1200\n'
       '[[virtio_scsi]]\nid = "s"\ncontrollers = 60\ntargets = 250\n'
       'luns = 1\n[[virtio_blk]]\nid = "b"\ncount = 2\n')
DISKS = 15002


@pytest.fixture
def big(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(BIG)
    return path


def test_split_moves_scsi_disks_with_their_nodes():
    argv = ["qemu", "-device", "virtio-scsi-pci,id=c,bus=pci.0,addr=0x3",
            "-blockdev", "driver=file,node-name=f-d0,filename=/a,,b.img",
            "-blockdev", "driver=raw,node-name=d0,file=f-d0,offset=0,"
            "size=1048576",
            "-device", "scsi-hd,bus=c.0,scsi-id=0,lun=0,drive=d0,"
            "serial=s-0,share-rw=on",
            "-blockdev", "driver=null-co,node-name=d1,read-zeroes=on,"
            "size=4096",
            "-device", "virtio-blk-pci,bus=pci.0,addr=0x4,drive=d1"]
    out, cmds = hotplug.split(argv)
    assert out == ["qemu", "-device", argv[2], "-blockdev", argv[10],
                   "-device", argv[12], "-S"]
    assert [c["execute"] for c in cmds] == ["blockdev-add", "blockdev-add",
                                            "device_add"]
    # blockdev-add is typed: numbers and booleans, a doubled comma undone.
    assert cmds[0]["arguments"]["filename"] == "/a,b.img"
    assert cmds[1]["arguments"]["size"] == 1048576
    assert cmds[1]["arguments"]["offset"] == 0
    assert cmds[2]["arguments"] == {
        "driver": "scsi-hd", "bus": "c.0", "scsi-id": "0", "lun": "0",
        "drive": "d0", "serial": "s-0", "share-rw": "on"}
    assert hotplug.blockdev_command("driver=null-co,node-name=x,"
                                    "read-zeroes=on")["arguments"][
                                        "read-zeroes"] is True


def test_split_with_an_excess_moves_only_the_last_disks():
    argv = ["qemu"]
    for i in range(10):
        argv += ["-blockdev", f"driver=null-co,node-name=d{i},size=512",
                 "-device", f"scsi-hd,bus=c.0,scsi-id={i},lun=0,drive=d{i}"]
    out, cmds = hotplug.split(argv, excess=1)
    assert [c["arguments"].get("drive") for c in cmds] == [None, "d9"]
    out, cmds = hotplug.split(argv, excess=diskstart.argv_bytes(argv[1:5])
                              + 1)
    # One disk's bytes and one more: two disks move.
    assert len(cmds) == 4 and cmds[1]["arguments"]["drive"] == "d8"
    assert diskstart.argv_bytes(out) < diskstart.argv_bytes(argv)


def test_plan_names_the_method_and_why(big):
    out = run_cli("plan", big)
    assert out.returncode == 0, out.stderr
    assert "disks reach QEMU by stack: the command line (" in out.stdout
    desc = json.loads(run_cli("plan", "--json", big).stdout)
    assert desc["disk_method"]["method"] == "stack"
    host = desc["host"]
    assert host["argv_full_bytes"] > cmdline.arg_max()
    assert host["argv_bytes"] <= host["argv_limit"]


def test_the_switch_forces_a_method_and_is_checked(big, monkeypatch):
    monkeypatch.setenv(diskstart.SWITCH, "qmp")
    start = qargv.check_size(commands.prepare(big))
    assert start.method == "qmp"
    assert sum(c["execute"] == "device_add" for c in start.commands) == \
        DISKS - 2 == start.qmp_disks
    assert start.argv[-1] == "-S"
    monkeypatch.setenv(diskstart.SWITCH, "bogus")
    with pytest.raises(UsageError, match="BLKSCALE_DISK_METHOD=bogus"):
        diskstart.forced()


def test_the_plain_command_line_is_refused_past_arg_max(big):
    """The bad case of the switch: argv alone cannot start 15000 disks."""
    out = run_cli("plan", big, env={diskstart.SWITCH: "argv"})
    assert out.returncode == 2
    lines = out.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{big}: virtio_scsi[0].luns: the QEMU "
                               "command line would be ")


def test_past_the_stack_ceiling_the_rest_goes_over_qmp(tmp_path):
    path = tmp_path / "huge.toml"
    path.write_text('[guest]\nmemory_mib = 16384\n[[virtio_scsi]]\nid = "s"\n'
                    'controllers = 64\ntargets = 128\nluns = 8\n')
    start = qargv.check_size(commands.prepare(path))
    assert start.method == "stack+qmp"
    moved = sum(c["execute"] == "device_add" for c in start.commands)
    assert 0 < moved < 65536
    assert start.argv_bytes <= start.limit
    # The disks that stayed on the command line and those moved: all.
    kept = sum(1 for a in start.argv if a.startswith("scsi-hd,"))
    assert kept + moved == 65536


def test_raised_stack_rlimit_lets_a_long_command_line_exec(tmp_path):
    """What the stack method relies on: ARG_MAX follows the child's stack
    rlimit.  3 MiB of arguments fail with the default, pass raised."""
    words = ["x" * 1000] * 3000
    argv = ["/bin/sh", "-c", "echo $#", "sh"] + words
    size = diskstart.argv_bytes(argv)
    if cmdline.stack_arg_max() < size:
        pytest.skip("the hard stack limit leaves no room above ARG_MAX")
    with pytest.raises(OSError):
        subprocess.run(argv, capture_output=True,
                       preexec_fn=functools.partial(_child_setup, 0))
    out = subprocess.run(argv, capture_output=True, text=True,
                         preexec_fn=functools.partial(
                             _child_setup, cmdline.stack_for(size)))
    assert out.stdout.strip() == "3000"


def test_run_adds_disks_over_qmp_before_the_guest_runs(big, fake_env):
    env = dict(fake_env, **{diskstart.SWITCH: "qmp"})
    # TCG asked for: on a host with a usable /dev/kvm a probe boot would
    # be one more QEMU
    out = run_cli("run", big, "--variant", "patched", "--accel", "tcg",
                  "--results-dir", big.parent / "results", env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    # Progress while QEMU takes them: disks added of those going over QMP.
    added = re.findall(r"\[patched\] qemu qmp +disks (\d+)/(\d+)",
                       out.stdout + out.stderr)
    assert added and {int(t) for _, t in added} == {DISKS - 2}
    assert all(0 < int(n) <= DISKS - 2 for n, _ in added)
    doc = json.loads(next((big.parent / "results").glob(
        "*/patched/results.json")).read_text())
    assert doc["disks"]["found"]["total"] == DISKS
    assert len(fake_runs(env)) == 1


def test_a_disk_refused_over_qmp_stops_the_run(big, fake_env):
    env = dict(fake_env, FAKE_QEMU_SCENARIO="hotplug-refused",
               **{diskstart.SWITCH: "qmp"})
    out = run_cli("run", big, "--variant", "patched", "--quiet",
                  "--results-dir", big.parent / "results", env=env)
    assert out.returncode == 3, out.stdout + out.stderr
    assert "QEMU refused a disk over QMP: device_add" in out.stdout + \
        out.stderr
    assert "LUN is already in use" in out.stdout + out.stderr
    for pid, _ in fake_runs(env):
        assert not os.path.exists(f"/proc/{pid}"), "QEMU left running"


def test_libvirt_attaches_what_passes_its_command_line(big):
    """libvirt's QEMU gets as many disks on its command line as fit the
    budget; plan says how many are attached live, and how."""
    out = run_cli("plan", big)
    assert out.returncode == 0, out.stderr
    line = next(x for x in out.stdout.splitlines()
                if x.startswith("libvirt backend: "))
    assert re.search(r"about \d+ of 15000 SCSI disks attached live", line)
    assert re.search(r"through QEMU's monitor, about \d+ min by the "
                     "measured costs", line)
    lv = json.loads(run_cli("plan", "--json", big).stdout)["libvirt"]
    assert 0 < lv["late"] < lv["scsi_disks"] == DISKS - 2
    assert lv["native"] == 0            # null disks: through the monitor
    assert lv["argv_bytes"] <= lv["budget"] == livedisks.BUDGET
    assert lv["attach_s"] == round(livedisks.attach_seconds(0, lv["late"]))


def test_libvirt_is_refused_in_one_line_only_past_what_attaching_saves(
        tmp_path, fake_env):
    """The bad cases: virtio-blk disks cannot be attached live, and the
    switch that keeps every disk on the command line."""
    path = tmp_path / "pci.toml"
    path.write_text('[guest]\nmemory_mib = 2048\n[[virtio_blk]]\nid = "v"\n'
                    'count = 4000\nsize_mib = 1\nbacking = "sparse"\n'
                    'disable_legacy = true\nnum_queues = 1\n')
    # The switch is the QEMU backend's too, which refuses first.
    for topo, env, why in (
            (path, {}, "through libvirt the QEMU command line would be "),
            (tmp_path / "big.toml", {diskstart.SWITCH: "argv"},
             "the QEMU command line would be ")):
        if topo.name == "big.toml":
            topo.write_text(BIG)
        out = run_cli("run", topo, "--backend", "libvirt", "--variant",
                      "patched", env=dict(fake_env, **env))
        assert out.returncode == 2, out.stdout + out.stderr
        assert out.stderr.count("\n") == 1, out.stderr
        assert out.stderr.startswith(f"{topo}: virtio_")
        assert why in out.stderr
        assert fake_runs(fake_env) == []
    assert "libvirt backend: refused: virtio_blk[0].count: " in run_cli(
        "plan", path).stdout


def _qemu_only(argv):
    """The command line without the guest kernel: QEMU and its devices
    only (the firmware finds nothing to boot and waits)."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in ("-kernel", "-initrd", "-append"):
            skip = True
            continue
        out.append(a)
    return out


def _start_qemu(tmp_path, text, method, monkeypatch):
    topo = tmp_path / "t.toml"
    topo.write_text(text)
    if method:
        monkeypatch.setenv(diskstart.SWITCH, method)
    planned = commands.prepare(topo)
    files = RunFiles.under("/nonexistent", str(tmp_path))
    argv = qargv.build_argv(planned, files, "patched", "tcg",
                            "qemu-system-x86_64")
    machine = Machine(tmp_path / "qemu.log")
    machine.configure(_qemu_only(argv), files.qmp)
    with machine:
        assert machine.launch(timeout=1800) > 0, machine.qemu_log()
        status = machine._qmp.command("query-status")
        anon = machine._qmp.command("qom-list",
                                    path="/machine/peripheral-anon")
    assert status["status"] == "running"
    return machine, sum(1 for p in anon if p["type"] == "child<scsi-hd>")


needs_qemu = pytest.mark.skipif(shutil.which("qemu-system-x86_64") is None,
                                reason="qemu-system-x86_64 is not installed")


@needs_qemu
def test_qemu_starts_past_arg_max(tmp_path, monkeypatch):
    """A real QEMU takes 12,000 SCSI disks whose command line passes the
    default ARG_MAX (the guest never boots: no kernel)."""
    machine, disks = _start_qemu(
        tmp_path, '[guest]\nmemory_mib = 4096\n[[virtio_scsi]]\nid = "s"\n'
        'controllers = 48\ntargets = 250\nluns = 1\n', None, monkeypatch)
    assert machine.start.method == "stack"
    assert diskstart.argv_bytes(machine.argv) > cmdline.arg_max()
    assert disks == 12000


@needs_qemu
def test_qemu_takes_scsi_disks_over_qmp(tmp_path, monkeypatch):
    """The same QMP commands a real QEMU accepts: every LUN present, in
    the running guest, each with its node."""
    machine, disks = _start_qemu(
        tmp_path, '[[virtio_scsi]]\nid = "s"\ncontrollers = 2\n'
        'targets = 10\nluns = 5\n',
        "qmp", monkeypatch)
    assert len(machine.start.commands) == 100 * 2
    assert disks == 100


def _libvirt_answers():
    """Each shipped topology's libvirt plan: refused, or how many disks it
    attaches live."""
    from blkscale.errors import TopologyError
    from blkscale.libvirt.backend import LibvirtBackend
    from launchertest import TOPOLOGIES, shipped_topologies
    answers = {}
    for topo in shipped_topologies():
        try:
            answers[topo] = LibvirtBackend.disk_plan(commands.prepare(
                TOPOLOGIES / f"{topo}.toml"))["late"]
        except TopologyError:
            answers[topo] = "refused"
    return answers


def test_libvirt_runs_every_shipped_topology_whatever_the_environment(
        monkeypatch, tmp_path):
    """The verdict comes from libvirt's limit, not from the caller's
    environment or path lengths: 64 KiB more environment, and a run
    directory and a build directory 200 bytes longer, change which disks
    go late, never whether a topology runs."""
    first = _libvirt_answers()
    assert "refused" not in first.values(), first
    assert first["ibm-5000-verify"] > 0 and first["dev_t-65536"] > 0
    monkeypatch.setenv("BLKSCALE_PADDING", "x" * 64 * 1024)
    longer = tmp_path / ("d" * 200)
    longer.mkdir()
    monkeypatch.setenv("TMPDIR", str(longer))
    monkeypatch.setattr(tempfile, "tempdir", None)
    # The kernel and initramfs under a checkout 200 bytes deeper.
    monkeypatch.setenv("BUILD", str(longer / "build"))
    second = _libvirt_answers()
    assert set(second) == set(first)
    assert "refused" not in second.values(), second
    for topo, late in first.items():
        assert (late == 0) == (second[topo] == 0), topo
        assert second[topo] >= late, topo


def test_no_shipped_topology_sits_within_the_margin_by_its_pci_devices():
    """What cannot be attached live (PCI devices) leaves room: the
    estimate with every SCSI disk late stays a margin below libvirt's
    ARG_MAX, and the XML of the planned split a margin below what
    libvirt's RPC carries."""
    from blkscale.libvirt import domain, domain_xml
    from blkscale.machine.files import sample_files
    from launchertest import TOPOLOGIES, shipped_topologies
    for topo in shipped_topologies():
        planned = commands.prepare(TOPOLOGIES / f"{topo}.toml")
        bare, _, _ = domain_xml.estimate(planned, sample_files())
        assert bare <= livedisks.LIBVIRT_ARG_MAX - livedisks.MARGIN, topo
        late = domain.planned_late(planned)["late"]
        xml, _ = domain_xml.split_xml(planned, sample_files(), "patched",
                                      late=late)
        assert len(xml.encode()) <= livedisks.XML_MAX, topo
