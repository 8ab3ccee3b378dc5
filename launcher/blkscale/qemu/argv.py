"""The QEMU command line, assembled in exactly one place: build_argv().

Disks use -blockdev + -device only: QEMU 7.2's -drive handling is O(n^2)
in the number of drives (DESIGN.md: 4000 -drive disks take 7.5 minutes to
start, 2.3 s with -blockdev).  Properties shared by most devices of a type
go into -global so that thousands of disks stay well below ARG_MAX;
beyond it the SCSI disks go over QMP instead (qemu/diskstart.py).
Everything the command line says comes from the machine model's records
(machine/model.py); this file only spells them.
"""

import shlex

from ..machine import model
from ..machine.disks import (DEVICE_PROPS, blockdev_args, changed_props,
                             controller_id, global_args, opt_value,
                             shared_props)
from ..machine.files import sample_files
from ..machine.guest import (RESULTS_PORT, firmware_rom, kernel_cmdline,
                             max_vcpus)
from ..topology.model import console_kind
from . import diskstart


def _props(props):
    """,key=value,... as QEMU's key=value syntax spells them."""
    return "".join(f",{k}={'on' if v is True else v}"
                   for k, v in props.items())


def scsi_bus_path(bus, ctrl, kind="virtio_scsi"):
    """The absolute path of a SCSI controller's SCSI bus.

    QEMU resolves a bus named only by its id ("sc-san-3.0") with a
    depth-first search of every device (qbus_find_recursive), which
    visits every disk already on earlier controllers: O(n) per disk.  A
    path from the root alternates devices and buses (a pci-bridge's bus
    is named after the bridge) and looks at 32 slots per level.  It is
    longer (about 70 bytes more per disk on the command line).
    """
    chain = []
    while bus.parent is not None:
        chain.append(bus.qemu_id)
        bus = bus.parent
    path = "/i440FX-pcihost/" + bus.qemu_id
    for qid in reversed(chain):
        path += f"/{qid}/{qid}"
    if kind == "sas":
        # The HBA is the PCI device and owns its SCSI bus.
        return f"{path}/{ctrl}/{ctrl}.0"
    # The controller is a virtio-pci proxy; the SCSI bus belongs to the
    # virtio-scsi-device on its virtio-bus.
    return f"{path}/{ctrl}/virtio-bus/virtio-scsi-device/{ctrl}.0"


def smp(topo, accel):
    """-smp: the vCPUs present, and the most the machine may have when
    that is more (machine/guest.py, max_vcpus)."""
    most = max_vcpus(topo, accel)
    if most == topo.guest.vcpus:
        return str(topo.guest.vcpus)
    return f"{topo.guest.vcpus},maxcpus={most}"


def build_argv(planned, files, variant, accel, qemu):
    """The complete QEMU argv for one variant of a planned topology."""
    topo = planned.topo
    argv = [qemu, "-name", f"blkscale-{topo.name}-{variant},debug-threads=on",
            "-machine", "pc"]
    if accel == "kvm":
        argv += ["-accel", "kvm", "-cpu", "host"]
    else:
        argv += ["-accel", "tcg,thread=multi"]
    rom = firmware_rom(topo)
    if rom:
        argv += ["-bios", rom]
    argv += ["-m", f"{topo.guest.memory_mib}M", "-smp", smp(topo, accel),
             "-nodefaults", "-no-user-config", "-display", "none",
             "-no-reboot",
             # No ACPI hot-plug tables for hundreds of bridge slots.
             "-global", "PIIX4_PM.acpi-pci-hotplug-with-bridge-support=off",
             "-kernel", files.kernel, "-initrd", files.initrd,
             "-append", kernel_cmdline(topo, accel, variant),
             "-chardev", f"file,id=console,path={opt_value(files.console)}"]
    virtio_console = console_kind(topo) == "virtio"
    if virtio_console:
        argv += ["-chardev", f"file,id=serial,path={opt_value(files.serial)}",
                 "-serial", "chardev:serial"]
    else:
        argv += ["-serial", "chardev:console"]
    argv += ["-chardev", f"socket,id=qmp,path={opt_value(files.qmp)},"
             "server=on,wait=off",
             "-mon", "chardev=qmp,mode=control",
             "-chardev", f"file,id=results,path={opt_value(files.results)}",
             "-device", "virtio-serial-pci,id=results-bus,bus=pci.0,addr=0x2,"
             "max_ports=2,vectors=2,disable-legacy=on",
             "-device", "virtserialport,bus=results-bus.0,chardev=results,"
             f"name={RESULTS_PORT}"]
    if virtio_console:
        # Port 0, which virtio-serial keeps for a console.
        argv += ["-device", "virtconsole,bus=results-bus.0,chardev=console,"
                 "nr=0"]

    machine = model.build(planned, files)
    defaults = shared_props(machine.controllers)
    argv += global_args(defaults)

    for bridge in machine.bridges:
        argv += ["-device", f"pci-bridge,id={bridge.bus.qemu_id},"
                 f"bus={bridge.parent.qemu_id},addr={bridge.slot:#x},"
                 f"chassis_nr={bridge.chassis},shpc=off"]

    for ctrl in machine.controllers:
        qtype = DEVICE_PROPS[ctrl.kind][0]
        props = _props(changed_props(ctrl, defaults))
        place = f"bus={ctrl.bus.qemu_id},addr={ctrl.slot:#x}"
        if ctrl.kind == "virtio_blk":
            disk = ctrl.disks[0]
            argv += blockdev_args(disk.blockdev)
            argv += ["-device", f"{qtype},{place}"
                     f"{_props(dict(disk.props))}{props}"]
            continue
        ctrl_id = controller_id(ctrl.group, ctrl.index)
        argv += ["-device", f"{qtype},id={ctrl_id},{place}{props}"]
        scsi_bus = scsi_bus_path(ctrl.bus, ctrl_id, ctrl.kind)
        for disk in ctrl.disks:
            if not disk.path:
                # Later paths use the node of the first.
                argv += blockdev_args(disk.blockdev)
            argv += ["-device", f"scsi-hd,bus={scsi_bus},"
                     f"scsi-id={disk.target},"
                     f"lun={disk.lun}{_props(dict(disk.props))}"]
    return argv


# What a command line costs against ARG_MAX (measured in qemu/diskstart.py).
argv_bytes = diskstart.argv_bytes


def start_plan(planned, files, variant, accel, qemu):
    """How QEMU gets the disks of this machine (qemu/diskstart.py)."""
    return diskstart.choose(build_argv(planned, files, variant, accel, qemu))


def check_size(planned):
    """The StartPlan a run of the planned topology would have (with paths
    as long as a real run's); TopologyError when no way can start it."""
    argv = build_argv(planned, sample_files(), "patched", "tcg",
                      "qemu-system-x86_64")
    return diskstart.choose(argv, planned.topo)


def shell_command(argv):
    """The argv as a shell command, one option per line."""
    out = shlex.quote(argv[0])
    for arg in argv[1:]:
        sep = " \\\n    " if arg.startswith("-") else " "
        out += sep + shlex.quote(arg)
    return out
