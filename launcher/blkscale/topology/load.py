"""Read a topology file: TOML syntax, the schema, then cross-field rules.

Every problem becomes one TopologyError naming the file and the field;
nothing here touches the file system beyond reading the file.
"""

import re
import tomllib
from pathlib import Path

from .. import paths
from ..errors import TopologyError
from ..kernels import RESERVED_CMDLINE
from . import schema
from .model import (BlkGroup, Blktests, Fio, Guest, Lvm, NullBlk, Pathfail,
                    Plan, SasGroup, ScsiDebug, ScsiGroup, Timeouts, Topology)

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
                  g["console"], g["qemu"], g["udev"], g["udev_settle_s"],
                  tuple(g["udev_no_by_id"]), tuple(g["limits_expected"]))
    _check_udev_keys(path, guest, raw.get("guest", {}))
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
    scsi = [ScsiGroup(field=f"virtio_scsi[{i}]", number=i, **d)
            for i, d in enumerate(data["virtio_scsi"])]
    sas = [SasGroup(field=f"sas[{i}]", number=i, **d)
           for i, d in enumerate(data["sas"])]
    seen = {}
    for group in scsi + sas + blk:
        if group.id in seen:
            raise TopologyError(path, f"{group.field}.id", f'"{group.id}" is '
                                f"already the id of {seen[group.id]}")
        seen[group.id] = group.field

    sd = data["scsi_debug"]
    scsi_debug = ScsiDebug(**sd) if sd is not None else None
    nb = data["null_blk"]
    null_blk = NullBlk(**nb) if nb is not None else None

    # The plan's disks are chosen here, so that every record is whole
    # when it is made.
    groups = scsi + sas + blk
    p = data["plan"]
    steps = p["steps"]
    args = {k: v for k, v in (p["args"] or {}).items() if v is not None}
    _check_steps(path, steps, args, raw.get("plan", {}))
    fio, fio_disks = Fio(**p["fio"]), []
    if "fio" in steps or "pathfail" in steps:
        fio, fio_disks = _fio(path, p["fio"], groups, blk)
    lvm_disks = []
    if "lvm" in steps:
        lvm_disks = _lvm_disks(path, p["lvm"], groups, blk + scsi + sas)
    blktests = Blktests(**p["blktests"])
    if "blktests" in steps:
        blktests = _blktests(path, p["blktests"], groups)
    plan = Plan(steps, p["settle_s"], args, fio, Lvm(**p["lvm"]), blktests,
                Pathfail(**p["pathfail"]))

    topo = Topology(path, name, data["description"], guest, timeouts, blk,
                    scsi, scsi_debug, null_blk, plan, fio_disks, lvm_disks,
                    sas)
    if not topo.expected_total:
        _check_diskless(topo)
    _check_udev_kinds(topo)
    _check_multipath(topo)
    _check_pathfail(topo)
    return topo


def _check_multipath(topo):
    """A LUN on several paths is one dm-multipath map in the guest, which
    needs udev (multipathd learns of paths from udev's events and reads
    the WWID udev's scsi_id found)."""
    if "multipath" in topo.plan.steps and not topo.multipath_groups:
        raise TopologyError(topo.path, "plan.steps", "step multipath needs "
                            "a virtio_scsi group with paths of 2 or more")
    for group in topo.multipath_groups:
        if not topo.guest.udev:
            raise TopologyError(topo.path, f"{group.field}.paths",
                                f"{group.paths} paths need dm-multipath, "
                                "which needs guest.udev = true")


# fio's FIO_MAX_JOBS: the jobs one fio invocation runs.
FIO_MAX_JOBS = 4096


def _check_pathfail(topo):
    """A path removed under I/O needs maps to remove it from, fio through
    them that verifies, and fio still running when the path is back."""
    steps = topo.plan.steps
    if "pathfail" not in steps:
        return
    where = topo.path
    if "multipath" not in steps[:steps.index("pathfail")]:
        raise TopologyError(where, "plan.steps", "step pathfail needs step "
                            "multipath before it (the maps it writes "
                            "through)")
    pf, fio = topo.plan.pathfail, topo.plan.fio
    for i, path in enumerate(pf.paths):
        short = [g for g in topo.multipath_groups if path >= g.paths]
        if short:
            raise TopologyError(where, f"plan.pathfail.paths[{i}]",
                                f'path {path}: group "{short[0].id}" has '
                                f"{short[0].paths} paths (0 to "
                                f"{short[0].paths - 1})")
    if not fio.verify:
        raise TopologyError(where, "plan.fio.verify", "step pathfail "
                            "proves nothing is lost: fio must verify")
    if len(topo.fio_disks) > FIO_MAX_JOBS:
        raise TopologyError(where, "plan.fio.disks", f"{len(topo.fio_disks)}"
                            f": step pathfail runs one fio job per map, all "
                            f"at once, and fio takes at most {FIO_MAX_JOBS}")
    mp = {id(g) for g in topo.multipath_groups}
    plain = [g for g, _ in topo.fio_disks if id(g) not in mp]
    if plain:
        raise TopologyError(where, "plan.fio.groups", f'group '
                            f'"{plain[0].id}" has one path: step pathfail '
                            "writes through multipath maps only")
    # fio runs for runtime_s: the paths go, stay away down_s and come
    # back.  How long multipath takes is what the step measures, so the
    # guest checks that fio outlived the paths' return; this is the
    # least that could.
    need = pf.down_s + 10
    if fio.runtime_s < need:
        raise TopologyError(where, "plan.fio.runtime_s", f"{fio.runtime_s} "
                            f"s: step pathfail needs fio running at least "
                            f"down_s + 10 = {need} s")


def _check_udev_keys(path, guest, raw_guest):
    """udev's own keys mean nothing without udev."""
    for key in ("udev_settle_s", "udev_no_by_id"):
        if key in raw_guest and not guest.udev:
            raise TopologyError(path, f"guest.{key}", "set, but guest.udev "
                                "is not true")


def _check_udev_kinds(topo):
    """A kind excused from by-id links must be a kind the topology has."""
    have = {"virtio_blk": bool(topo.blk_groups),
            "virtio_scsi": bool(topo.scsi_groups),
            "scsi_debug": topo.scsi_debug is not None,
            "null_blk": topo.null_blk is not None}
    for i, kind in enumerate(topo.guest.udev_no_by_id):
        if not have[kind]:
            raise TopologyError(topo.path, f"guest.udev_no_by_id[{i}]",
                                f'the topology has no {kind} disks')


def _check_steps(path, steps, args, raw_plan):
    for step in args:
        if step not in steps:
            raise TopologyError(path, f"plan.args.{step}",
                                f"step {step} is not in plan.steps")
    # The pathfail step runs fio too, with plan.fio's job.
    users = {"fio": ("fio", "pathfail")}
    for step in ("fio", "lvm", "blktests", "pathfail"):
        if step in raw_plan and not set(users.get(step, (step,))) & \
                set(steps):
            raise TopologyError(path, f"plan.{step}",
                                f"step {step} is not in plan.steps")


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
                        " [[virtio_scsi]], [[sas]], [scsi_debug] or "
                        "[null_blk], or run"
                        " only " + ", ".join(schema.DISKLESS_STEPS))


def _group(groups, gid):
    return next((g for g in groups if g.id == gid), None)


def _selected_groups(path, groups, section, names, default):
    """The disk groups a step may use: the guest finds disks by serial,
    so groups of every kind."""
    if not names:
        return default
    chosen = []
    for i, gid in enumerate(names):
        field = f"plan.{section}.groups[{i}]"
        group = _group(groups, gid)
        if group is None:
            raise TopologyError(path, field, f'no disk group "{gid}"')
        chosen.append(group)
    return chosen


def _first_disks(groups, limit):
    disks = []
    for group in groups:
        for index in range(group.disks):
            if len(disks) == limit:
                return disks
            disks.append((group, index))
    return disks


def _fio(path, raw, groups, blk):
    """plan.fio with verify decided, and the fio disks as (group, index)
    pairs."""
    chosen = _selected_groups(path, groups, "fio", raw["groups"],
                              blk or groups)
    if not chosen:
        raise TopologyError(path, "plan.steps", "step fio needs at least "
                            "one virtio_blk, virtio_scsi or sas disk group")
    disks = _first_disks(chosen, raw["disks"])
    null = [g for g in {id(g): g for g, _ in disks}.values()
            if not g.file_backed]
    if raw["verify"] is True and null:
        raise TopologyError(path, "plan.fio.verify",
                            f'group "{null[0].id}" is backed by null-co, '
                            "which discards writes: "
                            "nothing to verify (use sparse or slice backing)")
    verify = not null if raw["verify"] == schema.AUTO else raw["verify"]
    for group, _ in disks:
        if raw["size_mib"] > group.size_mib:
            raise TopologyError(path, "plan.fio.size_mib",
                                f"{raw['size_mib']} MiB is larger than the "
                                f'disks of group "{group.id}" '
                                f"({group.size_mib} MiB)")
    return Fio(**dict(raw, verify=verify)), disks


def _lvm_disks(path, raw, groups, blk_then_scsi):
    """The lvm disks as (group, index) pairs."""
    backed = [g for g in blk_then_scsi if g.file_backed]
    chosen = _selected_groups(path, groups, "lvm", raw["groups"], backed)
    for i, group in enumerate(chosen):
        if not group.file_backed:
            raise TopologyError(path, f"plan.lvm.groups[{i}]", f'group '
                                f'"{group.id}" is backed by null-co, which '
                                "discards writes; lvm needs sparse or slice "
                                "backing")
    if not chosen:
        raise TopologyError(path, "plan.steps", "step lvm needs a "
                            "disk group with sparse or slice backing")
    return _first_disks(chosen, raw["disks"])


def _blktests(path, raw, groups):
    """plan.blktests with TEST_DEVS decided: named disks, or the first
    disk of each file-backed group.

    blktests writes and reads back, so a null-co disk cannot be one.
    """
    disks = raw["disks"]
    if not disks:
        disks = [f"{g.id}-0" for g in groups if g.file_backed]
        if not disks:
            raise TopologyError(path, "plan.blktests.disks", "no disk "
                                "group with sparse or slice backing to test "
                                "on; name disks or add such a group")
    else:
        for i, serial in enumerate(disks):
            _check_blktests_disk(path, f"plan.blktests.disks[{i}]", serial,
                                 groups)
    blktests = Blktests(**dict(raw, disks=disks))
    _check_blktests_reruns(path, blktests)
    return blktests


def _check_blktests_disk(path, field, serial, groups):
    gid, index = serial.rsplit("-", 1)
    group = _group(groups, gid)
    if group is None:
        raise TopologyError(path, field, f'no disk group "{gid}"')
    if int(index) >= group.disks:
        raise TopologyError(path, field, f'group "{gid}" has '
                            f"{group.disks} disks; there is no {serial}")
    if not group.file_backed:
        raise TopologyError(path, field, f'group "{gid}" is backed '
                            "by null-co, which discards writes; blktests "
                            "needs sparse or slice backing")


def _check_blktests_reruns(path, bt):
    """A test named for reruns must be one the plan runs, and reruns on."""
    if bt.rerun_tests and not bt.reruns:
        raise TopologyError(path, "plan.blktests.rerun_tests",
                            "names tests to run again but plan.blktests."
                            "reruns is 0")
    for i, test in enumerate(bt.rerun_tests):
        group = test.split("/")[0]
        if test not in bt.tests and group not in bt.tests:
            raise TopologyError(path, f"plan.blktests.rerun_tests[{i}]",
                                f'"{test}" is not among plan.blktests.tests')
        if test in bt.exclude or group in bt.exclude:
            raise TopologyError(path, f"plan.blktests.rerun_tests[{i}]",
                                f'"{test}" is in plan.blktests.exclude')
