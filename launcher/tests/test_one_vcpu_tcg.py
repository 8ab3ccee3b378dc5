"""A one-vCPU TCG machine may have a second vCPU (never present), so
that QEMU 7.2 generates its code with host barriers and atomics; under
KVM, and with more vCPUs, -smp is the vCPUs alone.  The same holds for
the libvirt domain."""

import pytest

from blkscale import topology
from blkscale.libvirt import domain_xml
from blkscale.machine.files import RunFiles
from blkscale.qemu import argv as qargv

FILES = RunFiles("K", "I", "C", "Q", "R", "D", serial="S")


def _planned(tmp_path, vcpus):
    path = tmp_path / "t.toml"
    path.write_text(f"[guest]\nvcpus = {vcpus}\n"
                    '[[virtio_scsi]]\nid = "s"\nluns = 2\n')
    return topology.prepare(path)


@pytest.mark.parametrize("vcpus,accel,smp,most,current", [
    (1, "tcg", "1,maxcpus=2", "2", "1"),
    (1, "kvm", "1", "1", None),
    (2, "tcg", "2", "2", None),
    (3, "kvm", "3", "3", None),
])
def test_smp_and_domain_vcpus(tmp_path, vcpus, accel, smp, most, current):
    planned = _planned(tmp_path, vcpus)
    argv = qargv.build_argv(planned, FILES, "stock", accel, "qemu")
    assert argv[argv.index("-smp") + 1] == smp
    vcpu = domain_xml.build(planned, FILES, "stock", accel).find("vcpu")
    assert vcpu.text == most
    assert vcpu.get("current") == current
