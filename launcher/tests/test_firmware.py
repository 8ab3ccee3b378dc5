"""guest.firmware: qboot by default on both renderers, SeaBIOS on request."""

import xml.etree.ElementTree as ET

from blkscale import topology
from blkscale.libvirt.domain_xml import domain_xml
from blkscale.machine import guest
from blkscale.machine.files import RunFiles
from blkscale.qemu import argv as qargv

FILES = RunFiles("K", "I", "C", "Q", "R", "D")


def _planned(tmp_path, firmware):
    path = tmp_path / "fw.toml"
    line = f'firmware = "{firmware}"\n' if firmware else ""
    path.write_text("[guest]\n" + line + '[[virtio_blk]]\nid = "a"\n'
                    "count = 2\n")
    return topology.prepare(path)


def _bios(argv):
    return [argv[i + 1] for i, a in enumerate(argv) if a == "-bios"]


def test_qboot_is_the_default(tmp_path):
    planned = _planned(tmp_path, None)
    argv = qargv.build_argv(planned, FILES, "stock", "tcg", "qemu")
    assert _bios(argv) == [guest.QBOOT_ROM]
    loader = ET.fromstring(domain_xml(planned, FILES, "stock", "tcg")).find(
        "os/loader")
    assert loader.text == guest.QBOOT_ROM and loader.get("type") == "rom"


def test_seabios_is_qemus_own(tmp_path):
    planned = _planned(tmp_path, "seabios")
    assert _bios(qargv.build_argv(planned, FILES, "stock", "tcg", "qemu")) \
        == []
    assert ET.fromstring(domain_xml(planned, FILES, "stock", "tcg")).find(
        "os/loader") is None
