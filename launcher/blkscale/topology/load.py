"""Read a topology file: TOML syntax, the schema, then cross-field rules.

Every problem becomes one TopologyError naming the file and the field;
nothing here touches the file system beyond reading the file.
"""

import re
import tomllib
from pathlib import Path

from .. import paths
from ..errors import TopologyError
from . import schema
from .model import (BlkGroup, Blktests, Fio, Guest, Lvm, NullBlk, Plan,
                    ScsiDebug, ScsiGroup, Timeouts, Topology)

# The launcher owns these kernel parameters (guest-tools/PROTOCOL.md).
RESERVED_CMDLINE = ("console=", "earlycon", "panic=", "rdinit=", "init=")
# guest.clocksource sets these unless it is "kernel".
CLOCK_CMDLINE = ("clocksource=", "tsc=")


def read_toml(path):
    """Parse the file; syntax errors name the file, line and column."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise TopologyError(path, "", f"cannot read: {e.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise TopologyError(path, "", f"line {line}: not UTF-8") from None
    try:
        return tomllib.loads(text)
    except RecursionError:
        # tomllib parses nested arrays and inline tables recursively.
        raise TopologyError(path, "", "TOML syntax error: arrays or inline "
                            "tables nested too deeply") from None
    except tomllib.TOMLDecodeError as e:
        message = str(e)
        m = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
        if m:
            message = message[:m.start()]
            where = f"line {m.group(1)}, column {m.group(2)}"
        else:
            m = re.search(r"\s*\(at end of document\)$", message)
            if m:
                message = message[:m.start()]
            where = f"line {text.count(chr(10)) + 1}"
        raise TopologyError(path, "", f"{where}: TOML syntax error: "
                            f"{message}") from None


def load(path):
    """The validated Topology of one file (no layout or resources yet)."""
    path = paths.given_file(path)
    raw = read_toml(path)
    data = schema.TOPOLOGY.check(path, "", raw)

    name = data["name"]
    if name is None:
        name = path.stem
        if not re.fullmatch(schema.NAME_PATTERN, name):
            raise TopologyError(path, "name", f'the file name "{name}" is '
                                'not a valid topology name; set name = "..."')

    g = data["guest"]
    guest = Guest(g["vcpus"], g["memory_mib"], g["variants"], g["cmdline"],
                  g["firmware"], g["uevent_helper"], g["clocksource"],
                  g["console"], g["qemu"])
    for word in guest.cmdline.split():
        if word.startswith(RESERVED_CMDLINE):
            raise TopologyError(path, "guest.cmdline", f'must not set "{word}"'
                                " (the launcher sets console=, earlycon, "
                                "panic= and rdinit=; see guest.console)")
        if word.startswith(CLOCK_CMDLINE) and guest.clocksource != "kernel":
            raise TopologyError(path, "guest.cmdline", f'"{word}" competes '
                                "with guest.clocksource = "
                                f'"{guest.clocksource}" (set guest.'
                                'clocksource = "kernel" to choose here)')

    t = data["timeouts"]
    timeouts = Timeouts(t["boot_s"], t["run_s"], t["hang_s"])
    for key in ("boot_s", "hang_s"):
        value = getattr(timeouts, key)
        if value > timeouts.run_s:
            raise TopologyError(path, f"timeouts.{key}", f"{value} s is longer"
                                f" than timeouts.run_s ({timeouts.run_s} s)")

    blk = [BlkGroup(field=f"virtio_blk[{i}]", **d)
           for i, d in enumerate(data["virtio_blk"])]
    scsi = [ScsiGroup(field=f"virtio_scsi[{i}]", **d)
            for i, d in enumerate(data["virtio_scsi"])]
    seen = {}
    for group in scsi + blk:
        if group.id in seen:
            raise TopologyError(path, f"{group.field}.id", f'"{group.id}" is '
                                f"already the id of {seen[group.id]}")
        seen[group.id] = group.field

    sd = data["scsi_debug"]
    scsi_debug = ScsiDebug(**sd) if sd is not None else None
    nb = data["null_blk"]
    null_blk = NullBlk(**nb) if nb is not None else None

    p = data["plan"]
    plan = Plan(p["steps"], p["settle_s"],
                {k: v for k, v in (p["args"] or {}).items() if v is not None},
                Fio(**p["fio"]), Lvm(**p["lvm"]), Blktests(**p["blktests"]))

    topo = Topology(path, name, data["description"], guest, timeouts, blk,
                    scsi, scsi_debug, null_blk, plan)
    _check_plan(topo, raw.get("plan", {}))
    return topo


def _check_plan(topo, raw_plan):
    path, plan = topo.path, topo.plan
    for step in plan.args:
        if step not in plan.steps:
            raise TopologyError(path, f"plan.args.{step}",
                                f"step {step} is not in plan.steps")
    for step in ("fio", "lvm", "blktests"):
        if step in raw_plan and step not in plan.steps:
            raise TopologyError(path, f"plan.{step}",
                                f"step {step} is not in plan.steps")
    if "fio" in plan.steps:
        _choose_fio_disks(topo)
    if "lvm" in plan.steps:
        _choose_lvm_disks(topo)
    if "blktests" in plan.steps:
        _choose_blktests_disks(topo)
        _check_blktests_reruns(topo)
    if not topo.expected_total:
        _check_diskless(topo)


def _check_diskless(topo):
    """A topology without disks runs only steps that need none."""
    needing = [s for s in topo.plan.steps if s not in schema.DISKLESS_STEPS]
    if topo.plan.steps and not needing:
        return
    if not needing:
        raise TopologyError(topo.path, "plan.steps", "empty, and the "
                            "topology has no disks: nothing to run")
    raise TopologyError(topo.path, "plan.steps", f"step {needing[0]} needs "
                        "disks and the topology has none: add [[virtio_blk]],"
                        " [[virtio_scsi]], [scsi_debug] or [null_blk], or run"
                        " only " + ", ".join(schema.DISKLESS_STEPS))


def _selected_groups(topo, section, names, default):
    """The disk groups a step may use: the guest finds disks by serial,
    so groups of every kind."""
    if not names:
        return default
    groups = []
    for i, gid in enumerate(names):
        field = f"plan.{section}.groups[{i}]"
        group = topo.group(gid)
        if group is None:
            raise TopologyError(topo.path, field, f'no disk group "{gid}"')
        groups.append(group)
    return groups


def _first_disks(groups, limit):
    disks = []
    for group in groups:
        for index in range(group.disks):
            if len(disks) == limit:
                return disks
            disks.append((group, index))
    return disks


def _choose_fio_disks(topo):
    fio = topo.plan.fio
    groups = _selected_groups(topo, "fio", fio.groups,
                              topo.blk_groups or topo.pci_groups)
    if not groups:
        raise TopologyError(topo.path, "plan.steps", "step fio needs at least "
                            "one virtio_blk or virtio_scsi disk group")
    disks = _first_disks(groups, fio.disks)
    null = [g for g in {id(g): g for g, _ in disks}.values()
            if not g.file_backed]
    if fio.verify is True and null:
        raise TopologyError(topo.path, "plan.fio.verify",
                            f'group "{null[0].id}" is backed by null-co, '
                            "which discards writes: "
                            "nothing to verify (use sparse or slice backing)")
    if fio.verify == schema.AUTO:
        fio.verify = not null
    for group, _ in disks:
        if fio.size_mib > group.size_mib:
            raise TopologyError(topo.path, "plan.fio.size_mib",
                                f"{fio.size_mib} MiB is larger than the "
                                f'disks of group "{group.id}" '
                                f"({group.size_mib} MiB)")
    topo.fio_disks = disks


def _choose_lvm_disks(topo):
    lvm = topo.plan.lvm
    backed = [g for g in list(topo.blk_groups) + list(topo.scsi_groups)
              if g.file_backed]
    groups = _selected_groups(topo, "lvm", lvm.groups, backed)
    for i, group in enumerate(groups):
        if not group.file_backed:
            raise TopologyError(topo.path, f"plan.lvm.groups[{i}]", f'group '
                                f'"{group.id}" is backed by null-co, which '
                                "discards writes; lvm needs sparse or slice "
                                "backing")
    if not groups:
        raise TopologyError(topo.path, "plan.steps", "step lvm needs a "
                            "disk group with sparse or slice backing")
    topo.lvm_disks = _first_disks(groups, lvm.disks)


def _choose_blktests_disks(topo):
    """TEST_DEVS: named disks, or the first disk of each file-backed group.

    blktests writes and reads back, so a null-co disk cannot be one.
    """
    bt = topo.plan.blktests
    if not bt.disks:
        bt.disks = [f"{g.id}-0" for g in topo.pci_groups
                    if g.file_backed]
        if not bt.disks:
            raise TopologyError(topo.path, "plan.blktests.disks", "no disk "
                                "group with sparse or slice backing to test "
                                "on; name disks or add such a group")
        return
    for i, serial in enumerate(bt.disks):
        field = f"plan.blktests.disks[{i}]"
        gid, index = serial.rsplit("-", 1)
        group = topo.group(gid)
        if group is None:
            raise TopologyError(topo.path, field, f'no disk group "{gid}"')
        if int(index) >= group.disks:
            raise TopologyError(topo.path, field, f'group "{gid}" has '
                                f"{group.disks} disks; there is no {serial}")
        if not group.file_backed:
            raise TopologyError(topo.path, field, f'group "{gid}" is backed '
                                "by null-co, which discards writes; blktests "
                                "needs sparse or slice backing")


def _check_blktests_reruns(topo):
    """A test named for reruns must be one the plan runs, and reruns on."""
    bt = topo.plan.blktests
    if bt.rerun_tests and not bt.reruns:
        raise TopologyError(topo.path, "plan.blktests.rerun_tests",
                            "names tests to run again but plan.blktests."
                            "reruns is 0")
    for i, test in enumerate(bt.rerun_tests):
        group = test.split("/")[0]
        if test not in bt.tests and group not in bt.tests:
            raise TopologyError(topo.path, f"plan.blktests.rerun_tests[{i}]",
                                f'"{test}" is not among plan.blktests.tests')
        if test in bt.exclude or group in bt.exclude:
            raise TopologyError(topo.path, f"plan.blktests.rerun_tests[{i}]",
                                f'"{test}" is in plan.blktests.exclude')
