"""Resource checks before booting: targets, PCI, vectors, I/O, fds, memory."""

import dataclasses
import resource

import pytest

from blkscale import commands
from blkscale.errors import TopologyError
from blkscale.qemu.backend import QemuBackend
from blkscale.topology.vectors import RESULTS_VECTORS, vector_cost
from launchertest import run_cli


def prepare(tmp_path, text):
    path = tmp_path / "t.toml"
    path.write_text(text)
    # What every subcommand does first: plan, then measure the command line.
    return commands.prepare(path)


def refused(tmp_path, text, field, match):
    with pytest.raises(TopologyError, match=match) as e:
        prepare(tmp_path, text)
    assert e.value.field == field


def test_too_many_targets(tmp_path):
    refused(tmp_path, '[[virtio_scsi]]\nid = "s"\ntargets = 300\n',
            "virtio_scsi[0].targets", "must be 1..255, got 300")


def test_pci_exhaustion_counts_every_virtio_device(tmp_path):
    # 7934 slots: 7900 disks fit alone, not with 40 controllers as well.
    text = ('[guest]\nmemory_mib = 8192\n[[virtio_blk]]\nid = "b"\n'
            'count = 7900\nnum_queues = 1\nqueue_size = 16\n')
    assert len(prepare(tmp_path, text).layout.devices) == 7900
    refused(tmp_path, text + '[[virtio_scsi]]\nid = "s"\ncontrollers = 40\n',
            "virtio_blk[0].count", "PCI is full")


def test_per_bus_limits_capacity(tmp_path):
    refused(tmp_path, '[guest]\nmemory_mib = 8192\n[[virtio_blk]]\nid = "b"'
            '\ncount = 2000\nper_bus = 4\nnum_queues = 1\nqueue_size = 16\n',
            "virtio_blk[0].count", "PCI is full")


def test_msix_budget_shares_then_uses_intx_first(tmp_path):
    p = prepare(tmp_path, '[guest]\nmemory_mib = 4096\n[[virtio_blk]]\n'
                'id = "b"\ncount = 400\n')
    res = p.resources
    assert res.vectors_used <= res.vector_budget + RESULTS_VECTORS
    vectors = [d.vectors for d in p.layout.devices]
    # INTx devices come first in enumeration order, then shared vectors.
    intx = vectors.count(0)
    assert intx > 0 and vectors == [0] * intx + [2] * (400 - intx)


def test_msix_fits_keeps_qemu_defaults(tmp_path):
    p = prepare(tmp_path, '[guest]\nvcpus = 4\n[[virtio_blk]]\nid = "b"\n'
                'count = 10\n[[virtio_scsi]]\nid = "s"\n')
    blk = [d for d in p.layout.devices if d.group.kind == "virtio_blk"]
    scsi = [d for d in p.layout.devices if d.group.kind == "virtio_scsi"]
    assert {(d.num_queues, d.vectors) for d in blk} == {(4, 5)}
    assert {(d.num_queues, d.vectors) for d in scsi} == {(4, 7)}


def test_vector_cost_model():
    # Managed queue vectors are reserved on every CPU of their mask.
    assert vector_cost("virtio_blk", 1, 2, 2) == 3
    assert vector_cost("virtio_blk", 8, 9, 2) == 9
    assert vector_cost("virtio_scsi", 1, 4, 2) == 5
    assert vector_cost("virtio_scsi", 2, 2, 2) == 2   # shared
    assert vector_cost("virtio_blk", 2, 0, 2) == 0    # INTx


def test_legacy_io_space_allows_eight_bridges(tmp_path):
    # Measured with SeaBIOS 1.16: 8 bridges with legacy devices boot.
    text = ('[[virtio_blk]]\nid = "b"\ncount = {n}\ndisable_legacy = false\n'
            'bus = "bridge"\nper_bus = 1\nvectors = 0\n')
    assert prepare(tmp_path, text.format(n=8)).resources.io_bridges == 8
    refused(tmp_path, text.format(n=9), "virtio_blk[0].disable_legacy",
            "legacy I/O BARs need")


def test_memory_estimate_grows_with_disks(tmp_path):
    small = prepare(tmp_path, '[[virtio_scsi]]\nid = "s"\nluns = 10\n')
    big = prepare(tmp_path, '[guest]\nmemory_mib = 4096\n[[virtio_scsi]]\n'
                  'id = "s"\ncontrollers = 16\ntargets = 10\nluns = 25\n')
    grown = big.resources.memory_kib - small.resources.memory_kib
    # 3990 more SCSI disks at 48 KiB, plus 15 more controllers.
    assert 3990 * 48 <= grown <= 3990 * 48 + 15 * 1024


def test_memory_refused(tmp_path):
    refused(tmp_path, '[guest]\nmemory_mib = 256\n[[virtio_scsi]]\nid = "s"'
            '\ncontrollers = 16\ntargets = 10\nluns = 25\n',
            "guest.memory_mib", "is less than the")


def lower_fd_limit():
    resource.setrlimit(resource.RLIMIT_NOFILE, (200, 200))


@pytest.mark.parametrize("backing", ["sparse", "slice"])
def test_fd_limit_refuses_file_backed_disks(backing, tmp_path, fake_env):
    topo = tmp_path / "fds.toml"
    topo.write_text('[guest]\nmemory_mib = 2048\n[[virtio_blk]]\nid = "b"\n'
                    f'count = 150\nbacking = "{backing}"\n')
    out = run_cli("validate", topo, env=fake_env, preexec_fn=lower_fd_limit)
    assert out.returncode == 2
    assert out.stderr == (f"{topo}: virtio_blk[0].backing: QEMU would need "
                          "214 file descriptors; the hard limit (ulimit -Hn) "
                          "is 200: use null backing for some groups or "
                          "raise the limit\n")
    topo.write_text(topo.read_text().replace(backing, "null"))
    out = run_cli("validate", topo, env=fake_env, preexec_fn=lower_fd_limit)
    assert out.returncode == 0, out.stderr


def test_argv_size_is_checked(tmp_path):
    text = ('[guest]\nmemory_mib = 8192\n[[virtio_scsi]]\nid = "s"\n'
            'controllers = {n}\ntargets = 250\nluns = 1\n')
    small = QemuBackend().check(prepare(tmp_path, text.format(n=20)))
    assert 0 < small.argv_bytes < small.limit
    # 15000 disks pass the default ARG_MAX: QEMU's stack rlimit is raised
    # (test_disk_method.py has the methods and their refusals).
    big = QemuBackend().check(prepare(tmp_path, text.format(n=60)))
    assert big.full_bytes > small.limit
    assert big.method == "stack"


def test_the_start_plan_is_a_record_and_resources_stay_the_plans(tmp_path):
    """Measuring the command line writes nothing into the topology's
    Resources; the StartPlan it returns cannot be changed."""
    p = prepare(tmp_path, '[[virtio_blk]]\nid = "v"\ncount = 4\n')
    before = vars(p.resources).copy()
    start = QemuBackend().check(p)
    assert vars(p.resources) == before
    assert not any(k.startswith(("argv", "disk_method")) for k in before)
    with pytest.raises(dataclasses.FrozenInstanceError):
        start.method = "qmp"
