"""The QEMU command line, assembled in exactly one place: build_argv().

Disks use -blockdev + -device only: QEMU 7.2's -drive handling is O(n^2)
in the number of drives (DESIGN.md: 4000 -drive disks take 7.5 minutes to
start, 2.3 s with -blockdev).  Properties shared by most devices of a type
go into -global so that thousands of disks stay well below ARG_MAX.
"""

import shlex
from collections import Counter
from dataclasses import dataclass

RESULTS_PORT = "org.blkscale.results"
# From Debian's qemu-system-data; SeaBIOS is QEMU's built-in default.
QBOOT_ROM = "/usr/share/qemu/qboot.rom"
BASE_CMDLINE = "console=ttyS0 panic=-1 rdinit=/init"

# Per device type: our property -> QEMU's property name.
DEVICE_PROPS = {
    "virtio_blk": ("virtio-blk-pci", {"num_queues": "num-queues",
                                      "queue_size": "queue-size",
                                      "vectors": "vectors",
                                      "disable_legacy": "disable-legacy"}),
    "virtio_scsi": ("virtio-scsi-pci", {"num_queues": "num_queues",
                                        "queue_size": "virtqueue_size",
                                        "vectors": "vectors",
                                        "disable_legacy": "disable-legacy"}),
}


@dataclass
class RunFiles:
    """Paths the command line refers to (placeholders in a dry run)."""
    kernel: str
    initrd: str
    console: str
    qmp: str
    results: str
    disks: str              # directory for sparse and slice image files


def kernel_cmdline(topo):
    extra = topo.guest.cmdline.strip()
    return BASE_CMDLINE + (" " + extra if extra else "")


def opt_value(text):
    """A value inside a QEMU option list (key=value,...): commas doubled.

    Paths come from the environment (TMPDIR, BUILD) and may hold a comma;
    doubled, it stays part of the value instead of starting an option.
    """
    return text.replace(",", ",,")


def node_name(group, index):
    return f"d-{group.id}-{index}"


def disk_serial(group, index):
    return f"{group.id}-{index}"


def sparse_path(files, group, index):
    return f"{files.disks}/{group.id}-{index}.img"


def slice_path(files, group):
    return f"{files.disks}/{group.id}.img"


def image_files(planned, files):
    """(path, size in bytes) of every image file the disks need."""
    out = []
    for g in planned.topo.pci_groups:
        if g.backing == "sparse":
            out += [(sparse_path(files, g, i), g.size_bytes)
                    for i in range(g.disks)]
        elif g.backing == "slice":
            out.append((slice_path(files, g), g.size_bytes * g.disks))
    return out


def _onoff(value):
    return "on" if value else "off"


def device_props(dev):
    return {"num_queues": dev.num_queues, "queue_size": dev.queue_size,
            "vectors": dev.vectors,
            "disable_legacy": _onoff(dev.group.disable_legacy)}


def shared_props(devices):
    """The most common value of each property, per device type."""
    chosen = {}
    for kind, (qtype, names) in DEVICE_PROPS.items():
        of_kind = [d for d in devices if d.group.kind == kind]
        if not of_kind:
            continue
        for prop in names:
            counts = Counter(device_props(d)[prop] for d in of_kind)
            chosen[(kind, prop)] = counts.most_common(1)[0][0]
    return chosen


def backing_args(group, index, files):
    """-blockdev arguments for one disk.

    A slice gets a file node of its own on the group's file: with one node
    shared by every slice, each new parent re-checks the permissions of all
    the others, and 2000 slices took 174 s to start instead of 1.4 s.
    """
    node = node_name(group, index)
    if group.backing == "null":
        return ["-blockdev", f"driver=null-co,node-name={node},"
                f"read-zeroes=on,size={group.size_bytes}"]
    if group.backing == "sparse":
        return ["-blockdev", f"driver=file,node-name={node},"
                f"filename={opt_value(sparse_path(files, group, index))}"]
    return ["-blockdev", f"driver=file,node-name=f-{node},"
            f"filename={opt_value(slice_path(files, group))}",
            "-blockdev", f"driver=raw,node-name={node},"
            f"file=f-{node},offset={index * group.size_bytes},"
            f"size={group.size_bytes}"]


def _share(group):
    # Slices of one file: every device writes to the same file node.
    return ",share-rw=on" if group.backing == "slice" else ""


def build_argv(planned, files, variant, accel, qemu):
    """The complete QEMU argv for one variant of a planned topology."""
    topo, layout = planned.topo, planned.layout
    argv = [qemu, "-name", f"blkscale-{topo.name}-{variant},debug-threads=on",
            "-machine", "pc"]
    if accel == "kvm":
        argv += ["-accel", "kvm", "-cpu", "host"]
    else:
        argv += ["-accel", "tcg,thread=multi"]
    if topo.guest.firmware == "qboot":
        argv += ["-bios", QBOOT_ROM]
    argv += ["-m", f"{topo.guest.memory_mib}M", "-smp", str(topo.guest.vcpus),
             "-nodefaults", "-no-user-config", "-display", "none",
             "-no-reboot",
             # No ACPI hot-plug tables for hundreds of bridge slots.
             "-global", "PIIX4_PM.acpi-pci-hotplug-with-bridge-support=off",
             "-kernel", files.kernel, "-initrd", files.initrd,
             "-append", kernel_cmdline(topo),
             "-chardev", f"file,id=console,path={opt_value(files.console)}",
             "-serial", "chardev:console",
             "-chardev", f"socket,id=qmp,path={opt_value(files.qmp)},"
             "server=on,wait=off",
             "-mon", "chardev=qmp,mode=control",
             "-chardev", f"file,id=results,path={opt_value(files.results)}",
             "-device", "virtio-serial-pci,id=results-bus,bus=pci.0,addr=0x2,"
             "max_ports=2,vectors=2,disable-legacy=on",
             "-device", "virtserialport,bus=results-bus.0,chardev=results,"
             f"name={RESULTS_PORT}"]

    defaults = shared_props(layout.devices)
    for (kind, prop), value in defaults.items():
        qtype, names = DEVICE_PROPS[kind]
        argv += ["-global", f"{qtype}.{names[prop]}={value}"]

    for bus in layout.bridges:
        argv += ["-device", f"pci-bridge,id={bus.qemu_id},"
                 f"bus={bus.parent.qemu_id},addr={bus.slot:#x},"
                 f"chassis_nr={bus.chassis},shpc=off"]

    for dev in layout.devices:
        group = dev.group
        qtype, names = DEVICE_PROPS[group.kind]
        props = "".join(f",{names[p]}={v}"
                        for p, v in device_props(dev).items()
                        if defaults[(group.kind, p)] != v)
        place = f"bus={dev.bus.qemu_id},addr={dev.slot:#x}"
        if group.kind == "virtio_blk":
            argv += backing_args(group, dev.index, files)
            argv += ["-device", f"{qtype},{place},"
                     f"drive={node_name(group, dev.index)},"
                     f"serial={disk_serial(group, dev.index)}"
                     f"{_share(group)}{props}"]
            continue
        ctrl = f"sc-{group.id}-{dev.index}"
        argv += ["-device", f"{qtype},id={ctrl},{place}{props}"]
        first = dev.index * group.disks_per_controller
        for target in range(group.targets):
            for lun in range(group.luns):
                index = first + target * group.luns + lun
                argv += backing_args(group, index, files)
                argv += ["-device", f"scsi-hd,bus={ctrl}.0,scsi-id={target},"
                         f"lun={lun},drive={node_name(group, index)},"
                         f"serial={disk_serial(group, index)}{_share(group)}"]
    return argv


def argv_bytes(argv):
    """What the argv costs against ARG_MAX: strings, NULs and pointers."""
    return sum(len(a.encode()) + 1 + 8 for a in argv)


def shell_command(argv):
    """The argv as a shell command, one option per line."""
    out = shlex.quote(argv[0])
    for arg in argv[1:]:
        sep = " \\\n    " if arg.startswith("-") else " "
        out += sep + shlex.quote(arg)
    return out
