"""blkscale plan TOPO: the derived layout and resource estimates, no boot."""

import json
import tempfile

from .. import paths
from ..guestlink import layers, planfiles
from ..libvirt.backend import LibvirtBackend
from ..machine import diskroom
from ..machine.disks import multipath_wwid
from ..machine.guest import kernel_cmdline
from ..qemu.backend import QemuBackend
from ..topology.layout import MAX_BRIDGES, ROOT_FREE, SLOTS_PER_BUS
from ..topology.resources import IO_SPACE
from ..topology.vectors import VECTORS_PER_VCPU
from . import prepare_with_start
from .runflags import add_qemu_argument

BUSES_SHOWN = 12
SD_MAJORS = "8, 65-71, 128-135"


def add_arguments(parser):
    parser.add_argument("topology", metavar="TOPO", help="topology file")
    parser.add_argument("--json", action="store_true",
                        help="print the plan as JSON")
    parser.add_argument("--all-buses", action="store_true",
                        help=f"list every bus (default: the first "
                             f"{BUSES_SHOWN})")
    add_qemu_argument(parser, "guest.qemu (default: distro), as run's does")


def _ranges(numbers):
    out, start, prev = [], None, None
    for n in numbers:
        if start is None:
            start = prev = n
        elif n == prev + 1:
            prev = n
        else:
            out.append((start, prev))
            start = prev = n
    if start is not None:
        out.append((start, prev))
    return ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in out)


def _bus_line(bus):
    by_group = {}
    for slot in sorted(bus.devices):
        dev = bus.devices[slot]
        by_group.setdefault(dev.group.id, []).append((slot, dev.index))
    parts = []
    if bus.kind == "root":
        parts.append("2 results")
    for gid, items in by_group.items():
        slots = _ranges([s for s, _ in items])
        index = _ranges([i for _, i in items])
        parts.append(f"{slots} {gid}[{index}]")
    if bus.bridges:
        parts.append(f"{_ranges(sorted(bus.bridges))} bridges")
    where = "" if bus.kind == "root" else (
        f", on {bus.parent.qemu_id} slot {bus.slot}")
    return (f"  bus {bus.number:3d} {bus.qemu_id} ({bus.kind}{where}): "
            + ("; ".join(parts) or "empty"))


def _majors(topo):
    notes = []
    sd = topo.expected["scsi"] + (topo.scsi_debug.disks
                                  if topo.scsi_debug else 0)
    if sd:
        # sd_probe(): major sd_major((n & 0xf0) >> 4), first minor
        # ((n & 0xf) << 4) | (n & 0xfff00): past 256 disks the minors pass
        # 255 on the same majors (blkext only carries partitions past 15).
        top = max(((n & 0xf) << 4) | (n & 0xfff00)
                  for n in range(max(0, sd - 16), sd))
        over = max(0, sd - 256)
        notes.append(f"sd: {sd} disks on the 16 sd majors ({SD_MAJORS}), "
                     "16 minors each"
                     + (f"; {over} of them with minors above 255 (the "
                        f"highest first minor {top})"
                        if over else ""))
    if topo.expected["virtio"]:
        notes.append(f"virtio_blk: {topo.expected['virtio']} disks on one "
                     "dynamic major (virtblk), 16 minors per disk")
    if topo.null_blk:
        notes.append(f"null_blk: {topo.null_blk.disks} disks on one dynamic "
                     "major (nullb)")
    return notes


def _describe(planned, start, qemu):
    """The plan as a dict; start: the QEMU backend's StartPlan; qemu:
    --qemu's value (None: the topology's guest.qemu)."""
    topo, layout, res = planned.topo, planned.layout, planned.resources
    names = layout.blk_names()
    groups = []
    for g in topo.pci_groups:
        devs = layout.of_group(g)
        entry = {"field": g.field, "id": g.id, "kind": g.kind,
                 "disks": g.disks, "devices": g.devices,
                 "size_mib": g.size_mib, "backing": g.backing,
                 "buses": sorted({d.bus.number for d in devs})}
        if g.kind == "sas":
            entry["transport"] = SAS_TRANSPORT
        else:
            entry.update(
                disable_legacy=g.disable_legacy,
                num_queues=sorted({d.num_queues for d in devs}),
                queue_size=sorted({d.queue_size for d in devs}),
                vectors=sorted({d.vectors for d in devs}))
        if g.kind == "virtio_blk":
            entry["guest_names"] = [names[(g.id, 0)],
                                    names[(g.id, g.count - 1)]]
        else:
            entry.update(controllers=g.controllers, targets=g.targets,
                         luns=g.luns)
        if g.multipath:
            entry.update(paths=g.paths, path_disks=g.path_disks,
                         maps=[multipath_wwid(g, 0),
                               multipath_wwid(g, g.disks - 1)])
        groups.append(entry)
    return {
        "topology": {"name": topo.name, "file": paths.display(topo.path),
                     "description": topo.description},
        "guest": {"vcpus": topo.guest.vcpus,
                  "memory_mib": topo.guest.memory_mib,
                  "variants": topo.guest.variants,
                  "cmdline": kernel_cmdline(topo),
                  "firmware": topo.guest.firmware,
                  "uevent_helper": topo.guest.uevent_helper,
                  "clocksource": topo.guest.clocksource,
                  "console": topo.guest.console,
                  "udev": topo.guest.udev},
        "timeouts": vars(topo.timeouts),
        "expected": dict(topo.expected, total=topo.expected_total),
        "groups": groups,
        "modprobe": topo.modprobe(),
        "pci": {"buses": len(layout.buses), "bridges": len(layout.bridges),
                "hubs": sum(1 for b in layout.buses if b.kind == "hub"),
                "devices": len(layout.devices),
                "max_devices": ROOT_FREE + MAX_BRIDGES * (SLOTS_PER_BUS - 1)},
        "msix": {"budget": res.vector_budget, "used": res.vectors_used,
                 "msix_devices": res.msix_devices,
                 "intx_devices": res.intx_devices, "notes": res.notes},
        "io_space": {"used": res.io_used, "available": IO_SPACE,
                     "bridges_with_legacy": res.io_bridges},
        "host": {"fds": res.fds, "fd_hard_limit": res.fd_limit,
                 "argv_bytes": start.argv_bytes, "argv_limit": start.limit,
                 "disk_mib": diskroom.bytes_needed(topo) // diskroom.MIB,
                 "disk_free_mib": diskroom.free_bytes(
                     tempfile.gettempdir()) // diskroom.MIB,
                 "argv_full_bytes": start.full_bytes},
        "libvirt": LibvirtBackend.describe(planned),
        **QemuBackend.describe(planned, start, qemu),
        "qemu_memory": {"estimate_mib": res.qemu_kib // 1024,
                        "devices_mib": res.qemu_devices_kib // 1024,
                        "host_mib": res.host_kib // 1024},
        "memory": {"estimate_mib": round(res.memory_kib / 1024, 1),
                   "parts_mib": {k: round(v / 1024, 1)
                                 for k, v in res.memory_parts.items()}},
        "majors": _majors(topo),
        "plan": {"steps": topo.plan.steps, "settle_s": topo.plan.settle_s,
                 "args": topo.plan.args,
                 # predicted names, serials where the guest finds them
                 "fio_disks": [names.get((g.id, i), f"{g.id}-{i}")
                               for g, i in topo.fio_disks],
                 "lvm_disks": [names.get((g.id, i), f"{g.id}-{i}")
                               for g, i in topo.lvm_disks],
                 "env": planfiles.plan_env(topo, "RUN", "VARIANT")},
    }


# What plan says of a [[sas]] group's HBAs and disks.
SAS_TRANSPORT = ("mptsas1068 HBAs (guest: mptsas, SAS transport class; "
                 "INTx, MMIO only)")


def _count(n, noun):
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _group_line(g):
    what = (_count(g["disks"], "disk") if g["kind"] == "virtio_blk" else
            f"{_count(g['controllers'], 'controller')} x "
            f"{_count(g['targets'], 'target')} x {_count(g['luns'], 'LUN')}"
            f" = {_count(g['disks'], 'disk')}")
    line = (f"  {g['field']} {g['id']}: {what} of {g['size_mib']} MiB "
            f"{g['backing']}; ")
    if g["kind"] == "sas":
        return line + g["transport"]
    q = "/".join(map(str, g["num_queues"]))
    v = "/".join(map(str, g["vectors"]))
    legacy = "modern-only" if g["disable_legacy"] else "legacy+modern"
    line += f"queues {q}, vectors {v}, {legacy}"
    if g["kind"] == "virtio_blk":
        line += f"; guest names {g['guest_names'][0]}..{g['guest_names'][1]}"
    if "paths" in g:
        first, last = g["maps"]
        line += (f"\n    {g['paths']} paths: each LUN on one controller of "
                 f"each path, {g['path_disks']} SCSI disks in the guest; "
                 f"{_count(g['disks'], 'dm-multipath map')} named by WWID, "
                 f"{first}" + (f"..{last}" if last != first else ""))
    return line


def _text(planned, desc, all_buses):
    t, e, pci = desc["topology"], desc["expected"], desc["pci"]
    g = desc["guest"]
    lines = [f"topology {t['name']} ({t['file']})"]
    if t["description"]:
        lines.append("  " + t["description"])
    to = desc["timeouts"]
    lines += [f"guest: {g['vcpus']} vCPUs, {g['memory_mib']} MiB, firmware "
              f"{g['firmware']}, uevent helper {g['uevent_helper']}"
              + (", udev" if g["udev"] else "") + "; "
              "variants " + " ".join(g["variants"]),
              f"kernel command line (TCG): {g['cmdline']}",
              f"timeouts: boot {to['boot_s']} s, run {to['run_s']} s, "
              f"hang {to['hang_s']} s", "",
              f"disks: {e['total']} expected (virtio {e['virtio']}, scsi "
              f"{e['scsi']}, sim {e['sim']})"]
    lines += [_group_line(grp) for grp in desc["groups"]]
    if desc["modprobe"]:
        lines.append(f"  in-guest simulators: {desc['modprobe']}")
    lines += ["", f"PCI (i440fx): {pci['buses']} buses, {pci['bridges']} "
              f"pci-bridges ({pci['hubs']} hubs); {pci['devices']} PCI "
              f"devices of at most {pci['max_devices']}"]
    buses = planned.layout.buses
    shown = buses if all_buses else buses[:BUSES_SHOWN]
    lines += [_bus_line(b) for b in shown]
    if len(shown) < len(buses):
        lines.append(f"  ... {len(buses) - len(shown)} more buses "
                     "(--all-buses)")
    m, io, h = desc["msix"], desc["io_space"], desc["host"]
    lines += ["", f"MSI-X: {m['used']} of about {m['budget'] + 2} vectors "
              f"({g['vcpus']} vCPUs x {VECTORS_PER_VCPU}); {m['msix_devices']}"
              f" devices with MSI-X, {m['intx_devices']} with INTx"]
    lines += [f"  {n}" for n in m["notes"]]
    lines += [f"legacy I/O space: {io['used'] // 1024} of "
              f"{io['available'] // 1024} KiB ({io['bridges_with_legacy']} "
              "bridges with legacy devices)",
              f"host: QEMU needs about {h['fds']} file descriptors (hard "
              f"limit {h['fd_hard_limit']}); command line "
              f"{h['argv_bytes'] // 1024} KiB of "
              f"{h['argv_limit'] // 1024} KiB"
              + _disk_room(h),
              *QemuBackend.lines(desc), *LibvirtBackend.lines(desc),
              _qemu_memory_line(desc["qemu_memory"], g["memory_mib"]),
              f"guest memory: about {desc['memory']['estimate_mib']:.0f} MiB "
              f"of {g['memory_mib']} MiB ("
              + ", ".join(f"{k} {v:.0f}" for k, v in
                          desc["memory"]["parts_mib"].items()) + ")"]
    if desc["majors"]:
        lines.append("block majors:")
        lines += [f"  {n}" for n in desc["majors"]]
    p = desc["plan"]
    lines += ["", f"guest plan: {' '.join(p['steps'])}; settle "
              f"{p['settle_s']} s"]
    for step, args in p["args"].items():
        lines.append(f"  {step} arguments: {args}")
    if p["fio_disks"]:
        fio = planned.topo.plan.fio
        disks = p["fio_disks"]
        lines.append(f"  fio: {len(disks)} disks ({_names(disks)})"
                     f", {fio.rw} bs={fio.bs} iodepth={fio.iodepth} "
                     f"{fio.size_mib} MiB {fio.runtime_s} s, "
                     + ("verify" if fio.verify else "no verify"))
    if p["lvm_disks"]:
        lines.append(f"  lvm: {len(p['lvm_disks'])} disks "
                     f"({_names(p['lvm_disks'])})")
    if "blktests" in p["steps"]:
        bt = planned.topo.plan.blktests
        source = layers.blktests_source()
        lines.append(f"  blktests: {' '.join(bt.tests)} on "
                     f"{' '.join(bt.disks)}"
                     + (f", excluding {' '.join(bt.exclude)}"
                        if bt.exclude else "")
                     + "; checkout: " + (source or "none, the step will "
                                         "skip (set BLKTESTS_DIR)"))
    return "\n".join(lines)


def _qemu_memory_line(q, guest_mib):
    return (f"QEMU memory: about {q['estimate_mib']} MiB (guest RAM "
            f"{guest_mib} at most, QEMU and its disks {q['devices_mib']}) of "
            f"the host's {q['host_mib']} MiB")


def _disk_room(host):
    """The file-backed disks' writes against TMPDIR's free space, which
    run refuses when short."""
    if not host["disk_mib"]:
        return ""
    short = host["disk_mib"] > host["disk_free_mib"]
    return (f"; file-backed disks write about {host['disk_mib']} MiB into "
            f"TMPDIR, which has {host['disk_free_mib']} MiB free"
            + (" (a run here would be refused)" if short else ""))


def _names(names):
    if len(names) <= 6:
        return " ".join(names)
    return " ".join(names[:3]) + " ... " + names[-1]


def main(args):
    planned, start = prepare_with_start(args.topology)
    desc = _describe(planned, start, args.qemu)
    if args.json:
        print(json.dumps(desc, indent=1))
    else:
        print(_text(planned, desc, args.all_buses))
    return 0
