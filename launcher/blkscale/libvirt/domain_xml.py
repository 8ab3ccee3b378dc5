"""The libvirt domain XML of a planned topology, assembled in one place.

Everything comes from the machine model's records (machine/model.py)
that qemu/argv.py spells as the QEMU command line: PCI slots, bridges,
device order, node names and serials, so the guest sees the same
machine whichever backend starts it.  libvirt 9.0
cannot say four things, which go to QEMU through libvirt's QEMU XML
namespace:

- null-co disks: libvirt has no element for a null block driver, so their
  -blockdev and -device are <qemu:commandline> arguments;
- slot 0 of a pci-bridge: libvirt keeps it for the bridge's hot-plug
  controller and refuses the address, while our bridges run with
  shpc=off and use it.  A device or bridge there is a command-line device
  too, and so is everything behind a command-line bridge or controller;
- a SCSI disk whose drive address passes what the schema spells
  (DRIVE_ADDRESS_MAX, e.g. target 100 and up): a command-line device;
- properties without an XML attribute (virtio vectors, virtio-scsi's
  virtqueue_size, the bridges' shpc): <qemu:override> on the device's
  alias, which edits the -device JSON that libvirt 9 generates.  An
  override can only change properties of devices libvirt creates; it
  cannot add a device or a block backend, hence the command line above.

Command-line devices are JSON: QEMU 7.2 creates every key=value -device
before any JSON one, and libvirt's own devices (the buses ours plug into)
are JSON.  Blockdevs all exist before any device, so they stay key=value.
As in qemu/argv.py, the most common property values of command-line
devices go into -global, which keeps 7934 of them under ARG_MAX; it does
not touch libvirt's devices, whose QEMU types are the -transitional and
-non-transitional ones.

ElementTree escapes every attribute value and text, so names taken from
topology files can never add elements.
"""

import json
import os
import xml.etree.ElementTree as ET

from ..errors import TopologyError
from ..machine import model
from ..machine.disks import (DEVICE_PROPS, blockdev_args, changed_props,
                             controller_id,
                             global_args, node_name, shared_props)
from ..machine.guest import (RESULTS_PORT, firmware_rom, kernel_cmdline,
                             max_vcpus)
from ..topology.layout import RESULTS_SLOT
from . import livedisks

QEMU_NS = "http://libvirt.org/schemas/domain/qemu/1.0"
ET.register_namespace("qemu", QEMU_NS)
_Q = "{" + QEMU_NS + "}"

# The largest drive address (controller, target, unit) libvirt's schema
# spells (domaincommon.rng: driveController, driveTarget, driveUnit: 2, 2
# and 5 digits; libvirt's parser takes more).  A SCSI disk past it goes on
# the command line, so that the XML stays valid.
DRIVE_ADDRESS_MAX = (99, 99, 99999)

# Our property -> (QEMU property, override type) for what XML cannot set.
_OVERRIDES = {
    "virtio_blk": {"vectors": "vectors"},
    "virtio_scsi": {"vectors": "vectors", "queue_size": "virtqueue_size"},
    "sas": {},
}
# The SCSI kinds whose disks may be attached after the domain starts.
SCSI_KINDS = ("virtio_scsi", "sas")


def domain_name(topo, variant, suffix=None):
    name = f"blkscale-{topo.name}-{variant}"
    return f"{name}-{suffix}" if suffix else name


def bus_id(bus):
    """QEMU's id of a PCI bus: libvirt names a bridge by its alias."""
    return "pci.0" if bus.kind == "root" else f"ua-{bus.qemu_id}"


def controller_alias(group, index):
    return "ua-" + controller_id(group, index)


def disk_alias(group, index, path=0):
    """A disk's alias; a LUN's later paths add their number."""
    return "ua-" + node_name(group, index) + (f"-p{path}" if path else "")


def _device(driver, **props):
    """A JSON -device argument (property names as QEMU spells them)."""
    return ["-device", json.dumps(dict(driver=driver, **props),
                                  separators=(",", ":"))]


def _model(group):
    """libvirt's SCSI controller model (lsisas1068: QEMU's mptsas1068)."""
    if group.kind == "sas":
        return "lsisas1068"
    return ("virtio-non-transitional" if group.disable_legacy
            else "virtio-transitional")


class _Builder:
    """Walks the layout once, filling <devices>, the command line and the
    overrides side by side."""

    def __init__(self, planned, files, late=0):
        self.layout = planned.layout
        self.machine = model.build(planned, files)
        self.devices = None
        self.args = []
        # The last `late` SCSI disks are attached after the domain starts
        # (livedisks.py): their XML or QMP commands go here instead.
        self.late = livedisks.Late()
        scsi = [id(r) for c in self.machine.controllers
                if c.kind in SCSI_KINDS for r in c.disks]
        self._late_ids = set(scsi[len(scsi) - late:]) if late else set()
        # What each SCSI disk on the command line costs there, estimated
        # (livedisks.py), and whether it is a <disk> element, in order.
        self.scsi_bytes = []
        self.scsi_native = []
        self.overrides = []         # (alias, [(name, type, value)])
        self.bus_index = {}         # id(bus) -> libvirt controller index
        self.scsi_index = 0
        self.defaults = {}          # (kind, prop) -> value, from -global
        # Block nodes given to QEMU outside libvirt's <disk> elements: a
        # LUN's later paths (virtio_scsi[].paths) use the first path's.
        self._nodes = set()

    # -- placement ---------------------------------------------------------

    def _plan_buses(self):
        """libvirt indexes for the bridges it can create, parents first."""
        self.bus_index[id(self.layout.root)] = 0
        n = 0
        for bus in (b.bus for b in self.machine.bridges):
            if bus.slot >= 1 and id(bus.parent) in self.bus_index:
                n += 1
                self.bus_index[id(bus)] = n

    def _native(self, bus, slot):
        return id(bus) in self.bus_index and slot >= 1

    def _address(self, parent, bus, slot):
        ET.SubElement(parent, "address", type="pci", domain="0x0000",
                      bus=f"{self.bus_index[id(bus)]:#04x}",
                      slot=f"{slot:#04x}", function="0x0")

    def _override(self, alias, props):
        if props:
            self.overrides.append((alias, props))

    # -- devices -----------------------------------------------------------

    def bridges(self):
        self._plan_buses()
        for bridge in self.machine.bridges:
            bus = bridge.bus
            if id(bus) not in self.bus_index:
                self.args += _device("pci-bridge", id=bus_id(bus),
                                     bus=bus_id(bus.parent),
                                     addr=f"{bus.slot:#x}",
                                     chassis_nr=bus.chassis, shpc=False)
                continue
            ctrl = ET.SubElement(self.devices, "controller", type="pci",
                                 index=str(self.bus_index[id(bus)]),
                                 model="pci-bridge")
            ET.SubElement(ctrl, "model", name="pci-bridge")
            ET.SubElement(ctrl, "target", chassisNr=str(bus.chassis))
            ET.SubElement(ctrl, "alias", name=bus_id(bus))
            self._address(ctrl, bus.parent, bus.slot)
            self._override(bus_id(bus), [("shpc", "bool", "false")])

    @staticmethod
    def _source(disk, blockdev):
        source = ET.SubElement(disk, "source", file=blockdev.path)
        if blockdev.backing == "slice":
            slices = ET.SubElement(source, "slices")
            ET.SubElement(slices, "slice", type="storage",
                          offset=str(blockdev.offset),
                          size=str(blockdev.size))

    def _disk(self, record, bus, driver=None, parent=None):
        group, index = record.group, record.index
        attrs = {"type": "file", "device": "disk"}
        if bus == "virtio":
            attrs["model"] = _model(group)
        disk = (ET.Element("disk", attrs) if parent is False else
                ET.SubElement(self.devices, "disk", attrs))
        ET.SubElement(disk, "driver", dict(name="qemu", type="raw",
                                           **(driver or {})))
        self._source(disk, record.blockdev)
        ET.SubElement(disk, "target", dev=record.name, bus=bus)
        ET.SubElement(disk, "serial").text = record.serial
        wwn = dict(record.props).get("wwn")
        if wwn:
            ET.SubElement(disk, "wwn").text = wwn
        if group.backing == "slice" or group.multipath:
            # Slices of one file, or a LUN's paths: every device writes
            # to it (share-rw=on).
            ET.SubElement(disk, "shareable")
        ET.SubElement(disk, "alias", name=disk_alias(group, index,
                                                      record.path))
        return disk

    def _on_cmdline(self, dev):
        if dev.group.kind == "virtio_blk" and dev.group.backing == "null":
            return True
        return not self._native(dev.bus, dev.slot)

    def globals(self):
        """-global for the command-line devices' most common values."""
        self.defaults = shared_props(
            [c for c in self.machine.controllers if self._on_cmdline(c)])
        self.args += global_args(self.defaults)

    @staticmethod
    def _overrides_of(dev):
        return [(qemu, "unsigned", str(dev.settings[ours]))
                for ours, qemu in _OVERRIDES[dev.kind].items()]

    def blk(self, dev):
        record = dev.disks[0]
        if self._native(dev.bus, dev.slot) and dev.group.backing != "null":
            disk = self._disk(record, "virtio",
                              {"queues": str(dev.settings["num_queues"]),
                               "queue_size": str(dev.settings["queue_size"])})
            self._address(disk, dev.bus, dev.slot)
            self._override(disk_alias(dev.group, dev.index),
                           self._overrides_of(dev))
            return
        self.args += blockdev_args(record.blockdev)
        self.args += _device("virtio-blk-pci", bus=bus_id(dev.bus),
                             addr=f"{dev.slot:#x}", **dict(record.props),
                             **changed_props(dev, self.defaults))

    def scsi(self, dev):
        group = dev.group
        alias = controller_alias(group, dev.index)
        native = self._native(dev.bus, dev.slot)
        if native:
            ctrl = ET.SubElement(self.devices, "controller", type="scsi",
                                 index=str(self.scsi_index),
                                 model=_model(group))
            if group.kind != "sas":
                ET.SubElement(ctrl, "driver",
                              queues=str(dev.settings["num_queues"]))
            ET.SubElement(ctrl, "alias", name=alias)
            self._address(ctrl, dev.bus, dev.slot)
            self._override(alias, self._overrides_of(dev))
        else:
            self.args += _device(DEVICE_PROPS[group.kind][0], id=alias,
                                 bus=bus_id(dev.bus), addr=f"{dev.slot:#x}",
                                 **changed_props(dev, self.defaults))
        for record in dev.disks:
            late = id(record) in self._late_ids
            if native and group.backing != "null" and _addressable(
                    self.scsi_index, record):
                disk = self._disk(record, "scsi",
                                  parent=False if late else None)
                ET.SubElement(disk, "address", type="drive",
                              controller=str(self.scsi_index), bus="0",
                              target=str(record.target),
                              unit=str(record.lun))
                if late:
                    self.late.add_native(ET.tostring(disk,
                                                     encoding="unicode"))
                else:
                    self.scsi_bytes.append(livedisks.native_disk_bytes(
                        record.blockdev.path))
                    self.scsi_native.append(True)
                continue
            props = dict(driver="scsi-hd", bus=f"{alias}.0",
                         **{"scsi-id": record.target, "lun": record.lun},
                         **dict(record.props))
            node = record.blockdev.node
            blockdevs = ([] if node in self._nodes
                         else blockdev_args(record.blockdev))
            self._nodes.add(node)
            if late:
                self.late.add_monitor(blockdevs[1::2], props)
                continue
            args = blockdevs + _device(**props)
            self.scsi_bytes.append(livedisks.args_bytes(args))
            self.scsi_native.append(False)
            self.args += args
        if native:
            self.scsi_index += 1


def _addressable(controller, record):
    """Whether the schema can spell the disk's drive address."""
    return all(n <= most for n, most in zip(
        (controller, record.target, record.lun), DRIVE_ADDRESS_MAX))


def _results_port(devices):
    """Console and results as libvirt hands them over, streams: a pty
    console (virDomainOpenConsole) and a channel on a UNIX socket whose
    path libvirt picks (virDomainOpenChannel takes nothing else).  Not
    files: libvirt opens a file chardev through virtlogd, which rolls it
    over at 2 MiB (virtlogd.conf max_size), and the results of thousands
    of disks pass that."""
    ctrl = ET.SubElement(devices, "controller", type="virtio-serial",
                         index="0", model="virtio-non-transitional",
                         ports="2", vectors="2")
    ET.SubElement(ctrl, "address", type="pci", domain="0x0000", bus="0x00",
                  slot=f"{RESULTS_SLOT:#04x}", function="0x0")
    serial = ET.SubElement(devices, "serial", type="pty")
    ET.SubElement(serial, "target", port="0")
    channel = ET.SubElement(devices, "channel", type="unix")
    ET.SubElement(channel, "source", mode="bind")
    ET.SubElement(channel, "target", type="virtio", name=RESULTS_PORT)
    ET.SubElement(channel, "address", type="virtio-serial", controller="0",
                  bus="0", port="1")


def build(planned, files, variant, accel="tcg", name=None, label=None,
          staging="shared"):
    """The <domain> element for one variant of a planned topology, every
    disk in it."""
    return _build(planned, files, variant, accel, name, label, staging)[0]


def _build(planned, files, variant, accel="tcg", name=None, label=None,
           staging="shared", late=0):
    """(the <domain> element, its _Builder, whose Late holds the last
    `late` SCSI disks: left out of the element, attached after it starts).

    label is the "+uid:+gid" QEMU runs as (default: this process's);
    libvirt relabels nothing, so QEMU reads and writes the run's files
    with the same rights as when the launcher starts it directly.
    With staging "volumes" the files are the host's storage volumes
    (libvirt/staging.py) and the host's own security policy applies: no
    seclabel, libvirt gives its QEMU user the volumes for the run.
    """
    topo = planned.topo
    if topo.guest.console == "virtio":
        raise TopologyError(topo.path, "guest.console", '"virtio" is not '
                            "available through libvirt, which streams only "
                            'the serial console; use "auto", "quiet" or '
                            '"serial"')
    dom = ET.Element("domain", type="kvm" if accel == "kvm" else "qemu")
    ET.SubElement(dom, "name").text = name or domain_name(topo, variant)
    ET.SubElement(dom, "description").text = topo.description
    ET.SubElement(dom, "memory", unit="MiB").text = str(topo.guest.memory_mib)
    vcpu = ET.SubElement(dom, "vcpu")
    vcpu.text = str(max_vcpus(topo, accel))
    if topo.guest.vcpus != max_vcpus(topo, accel):
        vcpu.set("current", str(topo.guest.vcpus))
    os_el = ET.SubElement(dom, "os")
    ET.SubElement(os_el, "type", arch="x86_64", machine="pc").text = "hvm"
    rom = firmware_rom(topo)
    if rom:
        ET.SubElement(os_el, "loader", readonly="yes", type="rom").text = rom
    ET.SubElement(os_el, "kernel").text = files.kernel
    ET.SubElement(os_el, "initrd").text = files.initrd
    ET.SubElement(os_el, "cmdline").text = kernel_cmdline(topo, accel,
                                                          variant)
    features = ET.SubElement(dom, "features")
    ET.SubElement(features, "acpi")
    if accel == "kvm":
        ET.SubElement(dom, "cpu", mode="host-passthrough")
    # A guest reboot ends the domain, as -no-reboot ends QEMU.
    for event in ("on_poweroff", "on_reboot", "on_crash"):
        ET.SubElement(dom, event).text = "destroy"

    b = _Builder(planned, files, late)
    b.devices = ET.SubElement(dom, "devices")
    # Nothing on PCI that the layout did not place.
    ET.SubElement(b.devices, "controller", type="usb", model="none")
    _results_port(b.devices)
    b.args += ["-global", "PIIX4_PM.acpi-pci-hotplug-with-bridge-support=off"]
    b.bridges()
    b.globals()
    for ctrl in b.machine.controllers:
        if ctrl.kind == "virtio_blk":
            b.blk(ctrl)
        else:
            b.scsi(ctrl)
    ET.SubElement(b.devices, "memballoon", model="none")

    if staging == "shared":
        if label is None:
            label = f"+{os.getuid()}:+{os.getgid()}"
        seclabel = ET.SubElement(dom, "seclabel", type="static", model="dac",
                                 relabel="no")
        ET.SubElement(seclabel, "label").text = label

    cmdline = ET.SubElement(dom, _Q + "commandline")
    for arg in b.args:
        ET.SubElement(cmdline, _Q + "arg", value=arg)
    if b.overrides:
        override = ET.SubElement(dom, _Q + "override")
        for alias, props in b.overrides:
            device = ET.SubElement(override, _Q + "device", alias=alias)
            frontend = ET.SubElement(device, _Q + "frontend")
            for prop, kind, value in props:
                ET.SubElement(frontend, _Q + "property", name=prop, type=kind,
                              value=value)
    return dom, b


def render(dom):
    """The element as indented XML text."""
    ET.indent(dom, "  ")
    return ET.tostring(dom, encoding="unicode") + "\n"


def domain_xml(planned, files, variant, accel="tcg", name=None, label=None,
               staging="shared"):
    return render(build(planned, files, variant, accel, name, label,
                        staging))


def split_xml(planned, files, variant, accel="tcg", name=None, label=None,
              staging="shared", late=0):
    """(the domain XML without the last `late` SCSI disks, their Late)."""
    dom, builder = _build(planned, files, variant, accel, name, label,
                          staging, late)
    return render(dom), builder.late


def estimate(planned, files):
    """libvirt's command line, estimated without a daemon
    (livedisks.estimate_bytes): (its bytes with no SCSI disk, what each
    SCSI disk adds, whether each is a <disk> element; in order)."""
    dom, builder = _build(planned, files, "patched")
    costs = builder.scsi_bytes
    return (livedisks.estimate_bytes(dom, _Q) - sum(costs), costs,
            builder.scsi_native)


def scsi_disks(planned):
    """How many SCSI disks the domain has, the most that can go late."""
    return sum(len(d.disks) for d in planned.layout.devices
               if d.group.kind in SCSI_KINDS)
