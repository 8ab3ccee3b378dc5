"""The topology format as one table of fields.

The same table drives validation (types, ranges, defaults, unknown keys)
and the completeness test of topologies/README.md, so the format has a
single definition.  Validation stops at the first problem and raises
TopologyError with the dotted field path, e.g. `virtio_scsi[2].luns`.
"""

import re

from ..errors import TopologyError
from ..names import NAME_PATTERN, VARIANT_PATTERN

AUTO = "auto"

# Group ids end up in QEMU ids, node names and disk serials (virtio-blk
# serials hold 20 bytes: id, '-', and an index of up to 5 digits).
ID_PATTERN = "[a-z0-9_-]{1,14}"
PARAM_PATTERN = "[a-z0-9_]{1,32}"

# qboot jumps straight to the kernel; SeaBIOS first sets up every
# virtio-blk device as a boot disk, a cost that grows faster than the disks.
FIRMWARE = ("qboot", "seabios")

# fault breaks the guest on purpose: for the launcher's own tests.
# "mdev": busybox mdev as /proc/sys/kernel/hotplug, one process per
# uevent, as small initramfs systems run it: disks that appear after /init
# cost 3-4 times as much, linearly (bench/sweeps/bootcurve.toml).
UEVENT_HELPERS = ("none", "mdev")

# guest.udev: Debian's systemd-udevd in the guest (an image layer made
# from the host's packages, guest-tools/initramfs/udev/).  Every disk must
# then get a /dev/disk/by-id link, except the kinds listed in
# guest.udev_no_by_id: Debian's 60-persistent-storage.rules gives none to
# null_blk disks (nullb* is not among the names it handles).
UDEV_DISK_KINDS = ("virtio_blk", "virtio_scsi", "scsi_debug", "null_blk")

# Under TCG the kernel finds the TSCs "unsynchronized" and falls back to
# HPET, an emulated MMIO read per clock read; "tsc" boots with
# tsc=reliable.  auto: tsc under TCG, the kernel's own choice (kvm-clock)
# under KVM; "kernel" adds nothing, as the launcher did before.
CLOCKSOURCES = ("auto", "tsc", "hpet", "kernel")
# Where kernel messages go.  The 8250 UART costs several emulated port
# accesses per byte, and the kernel prints lines per disk.  "quiet" keeps
# the 8250 for warnings, oopses and panics (loglevel=5) and the guest
# sends the whole log home at the end; "virtio" makes the virtio console
# (hvc0) the kernel's console, the UART only the boot console before it
# (measured slower than the 8250: evidence/20261204-clock-console);
# "serial" prints everything on the 8250.  auto: quiet.
CONSOLES = ("auto", "quiet", "virtio", "serial")
# What a kernel may refuse for the number of devices (results/limits.py,
# which test_limits.py holds equal).
LIMITS = ("sg", "bsg", "sd", "kernel-log")

# The guest's steps, one executable each in guest-tools/initramfs/steps/
# (test_guest_steps.py holds the two lists equal).
STEPS = ("census", "majors", "procdevices", "fio", "lvm", "devtaudit",
         "selftest", "fuzz", "fault", "blktests", "gluestress", "partitions",
         "multipath", "pathfail")
# The results section a step's output travels in where it is not the
# step's name (guest-tools/PROTOCOL.md; the guest's /init sends them so):
# fio's raw JSON, from which the launcher derives "fio", and devtaudit's
# report, stored in results.json as devt_audit.
STEP_SECTIONS = {"fio": "fio_raw", "devtaudit": "devt_audit"}
# Steps that measure the kernel's majors and the helper module, not disks:
# a topology without disks may run these and nothing else.
DISKLESS_STEPS = ("majors", "procdevices", "selftest", "fuzz")


def _describe(value):
    """A value as it appears in an error message, with its TOML type."""
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"float {value}"
    if isinstance(value, str):
        return f'string "{value}"'
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


class Check:
    """One kind of value; check() returns the value or raises."""

    def check(self, ctx, field, value):
        raise NotImplementedError

    def fail(self, ctx, field, problem):
        raise TopologyError(ctx, field, problem)


class Int(Check):
    def __init__(self, lo, hi, auto=False, power_of_two=False):
        self.lo, self.hi = lo, hi
        self.auto = auto
        self.power_of_two = power_of_two

    def describe(self):
        text = f"integer {self.lo}..{self.hi}"
        if self.power_of_two:
            text = f"power of two {self.lo}..{self.hi}"
        return text + (' or "auto"' if self.auto else "")

    def check(self, ctx, field, value):
        if self.auto and value == AUTO:
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            extra = ' or "auto"' if self.auto else ""
            self.fail(ctx, field,
                      f"must be an integer{extra}, got {_describe(value)}")
        if not self.lo <= value <= self.hi:
            self.fail(ctx, field,
                      f"must be {self.lo}..{self.hi}, got {value}")
        if self.power_of_two and value & (value - 1):
            self.fail(ctx, field, f"must be a power of two, got {value}")
        return value


class Bool(Check):
    def __init__(self, auto=False):
        self.auto = auto

    def describe(self):
        return "boolean" + (' or "auto"' if self.auto else "")

    def check(self, ctx, field, value):
        if self.auto and value == AUTO:
            return value
        if not isinstance(value, bool):
            extra = ' or "auto"' if self.auto else ""
            self.fail(ctx, field,
                      f"must be true or false{extra}, got {_describe(value)}")
        return value


class Str(Check):
    def __init__(self, choices=None, pattern=None, maxlen=4096):
        self.choices = choices
        self.pattern = pattern
        self.maxlen = maxlen

    def describe(self):
        if self.choices:
            return " | ".join(f'"{c}"' for c in self.choices)
        if self.pattern:
            return f"string matching {self.pattern}"
        return "string"

    def check(self, ctx, field, value):
        if not isinstance(value, str):
            self.fail(ctx, field, f"must be a string, got {_describe(value)}")
        if self.choices and value not in self.choices:
            self.fail(ctx, field, "must be one of " + ", ".join(self.choices)
                      + f"; got {_describe(value)}")
        if self.pattern and not re.fullmatch(self.pattern, value):
            self.fail(ctx, field,
                      f"must match {self.pattern}, got {_describe(value)}")
        if len(value) > self.maxlen:
            self.fail(ctx, field, f"must be at most {self.maxlen} characters")
        if any(ord(c) < 32 for c in value):
            self.fail(ctx, field, "must not contain control characters")
        return value


class List(Check):
    def __init__(self, item, unique=True, min_items=0):
        self.item = item
        self.unique = unique
        self.min_items = min_items

    def describe(self):
        return f"array of {self.item.describe()}"

    def check(self, ctx, field, value):
        if not isinstance(value, list):
            self.fail(ctx, field, f"must be an array, got {_describe(value)}")
        if len(value) < self.min_items:
            self.fail(ctx, field,
                      f"must have at least {self.min_items} element(s)")
        out = []
        for i, item in enumerate(value):
            item = self.item.check(ctx, f"{field}[{i}]", item)
            if self.unique and item in out:
                self.fail(ctx, f"{field}[{i}]",
                          f"{_describe(item)} is listed twice")
            out.append(item)
        return out


class Params(Check):
    """Free-form module parameters: name -> integer, string or boolean."""

    def __init__(self, reserved=()):
        self.reserved = reserved

    def describe(self):
        return "table of module parameters"

    def check(self, ctx, field, value):
        if not isinstance(value, dict):
            self.fail(ctx, field, f"must be a table, got {_describe(value)}")
        for key, item in value.items():
            sub = f"{field}.{key}"
            if not re.fullmatch(PARAM_PATTERN, key):
                self.fail(ctx, sub,
                          f"parameter names must match {PARAM_PATTERN}")
            if key in self.reserved:
                self.fail(ctx, sub, self.reserved[key])
            if isinstance(item, str):
                if not re.fullmatch(r"[A-Za-z0-9_.,:+-]*", item):
                    self.fail(ctx, sub, "string values may only hold "
                              "letters, digits and _.,:+- (no spaces or "
                              "quotes)")
            elif not isinstance(item, (bool, int)):
                self.fail(ctx, sub, "must be an integer, string or boolean, "
                          f"got {_describe(item)}")
        return dict(value)


class Field:
    def __init__(self, check, default=None, required=False, doc=""):
        self.check = check
        self.default = default
        self.required = required
        self.doc = doc


class Table(Check):
    """A TOML table with a fixed set of keys."""

    def __init__(self, fields, optional=False):
        self.fields = fields
        self.optional = optional

    def describe(self):
        return "table"

    def check(self, ctx, field, value):
        if not isinstance(value, dict):
            self.fail(ctx, field or "(top level)",
                      f"must be a table, got {_describe(value)}")
        prefix = f"{field}." if field else ""
        for key in value:
            if key not in self.fields:
                known = ", ".join(self.fields)
                self.fail(ctx, prefix + key,
                          f"unknown key (known keys: {known})")
        out = {}
        for key, spec in self.fields.items():
            path = prefix + key
            if key in value:
                out[key] = spec.check.check(ctx, path, value[key])
            elif spec.required:
                self.fail(ctx, path, "missing (required)")
            elif isinstance(spec.check, Table) and not spec.check.optional:
                out[key] = spec.check.check(ctx, path, {})
            else:
                out[key] = spec.default
        return out


class TableArray(Check):
    """An array of tables ([[name]] in TOML)."""

    def __init__(self, table, max_items=256):
        self.table = table
        self.max_items = max_items

    def describe(self):
        return "array of tables"

    def check(self, ctx, field, value):
        if not isinstance(value, list) or not all(
                isinstance(v, dict) for v in value):
            self.fail(ctx, field, "must be an array of tables ([[" + field
                      + "]]), got " + _describe(value))
        if len(value) > self.max_items:
            self.fail(ctx, field, f"at most {self.max_items} groups")
        return [self.table.check(ctx, f"{field}[{i}]", v)
                for i, v in enumerate(value)]


def _pci_fields(queues_doc, queue_size_doc):
    """Fields shared by every virtio PCI device group."""
    return {
        "num_queues": Field(Int(1, 64, auto=True), AUTO, doc=queues_doc),
        "queue_size": Field(Int(4, 1024, auto=True, power_of_two=True), AUTO,
                            doc=queue_size_doc),
        "vectors": Field(Int(0, 2048, auto=True), AUTO,
                         doc="MSI-X vectors per device (0: INTx only)"),
        "disable_legacy": Field(Bool(), True,
                                doc="modern-only virtio: no I/O BAR"),
        "bus": Field(Str(choices=("auto", "root", "bridge")), "auto",
                     doc="root bus, behind pci-bridges, or auto"),
        "per_bus": Field(Int(1, 32), 32,
                         doc="most devices of the group on one bus"),
    }


def _backing_fields():
    return {
        "backing": Field(Str(choices=("null", "sparse", "slice")), "null",
                         doc="null-co, one sparse file per disk, or "
                             "windows of one sparse file"),
        "size_mib": Field(Int(1, 16 * 1024 * 1024), 64,
                          doc="size of each disk in MiB"),
    }


VIRTIO_BLK = Table({
    "id": Field(Str(pattern=ID_PATTERN), required=True, doc="group id"),
    "count": Field(Int(1, 8192), required=True, doc="number of disks"),
    **_backing_fields(),
    **_pci_fields("request queues (auto: QEMU's default, one per vCPU)",
                  "virtqueue size (auto: QEMU's default, 256)"),
})

# Paths to one LUN (virtio_scsi[].paths); dm-multipath takes any number,
# 8 is as many fabrics as a host is likely to have.
MAX_PATHS = 8

VIRTIO_SCSI = Table({
    "id": Field(Str(pattern=ID_PATTERN), required=True, doc="group id"),
    "controllers": Field(Int(1, 4096), 1, doc="virtio-scsi-pci controllers"),
    "targets": Field(Int(1, 255), 1, doc="targets per controller"),
    "luns": Field(Int(1, 16384), 1, doc="LUNs per target"),
    "paths": Field(Int(1, MAX_PATHS), 1,
                   doc="paths to every LUN: each LUN on one controller of "
                       "each of `paths` sets of `controllers` controllers, "
                       "one backing, the same serial and WWN (multipath)"),
    **_backing_fields(),
    **_pci_fields("request queues (auto: QEMU's default, one per vCPU)",
                  "virtqueue size (auto: QEMU's default, 256)"),
})

# QEMU 7.2's mptsas1068 (hw/scsi/mptsas.c): its SCSI bus takes scsi-id
# 0..8 and lun 0..1, but the HBA answers only targets below
# MPTSAS_NUM_PORTS (8), one SAS device per phy, and reports each phy's
# LUN 0 in its SAS device pages; the guest's mptsas finds further LUNs by
# REPORT LUNS.  A PCI device with no virtio properties: the guest's
# mptbase uses its MMIO BAR only and INTx unless mpt_msi_enable_sas=1.
SAS_TARGETS = 8
SAS_LUNS = 2

SAS = Table({
    "id": Field(Str(pattern=ID_PATTERN), required=True, doc="group id"),
    "controllers": Field(Int(1, 4096), 1, doc="mptsas1068 HBAs"),
    "targets": Field(Int(1, SAS_TARGETS), SAS_TARGETS,
                     doc="SAS end devices per HBA (one per phy)"),
    "luns": Field(Int(1, SAS_LUNS), 1, doc="LUNs per end device"),
    **_backing_fields(),
    "bus": Field(Str(choices=("auto", "root", "bridge")), "auto",
                 doc="root bus, behind pci-bridges, or auto"),
    "per_bus": Field(Int(1, 32), 32, doc="most HBAs of the group on one bus"),
})

# Parameters that would change the number of disks behind our back.
_SCSI_DEBUG_RESERVED = {
    "delay": "set scsi_debug.delay instead",
    "add_host": "set scsi_debug.add_host instead",
    "num_tgts": "set scsi_debug.num_tgts instead",
    "max_luns": "set scsi_debug.max_luns instead",
    "dev_size_mb": "set scsi_debug.dev_size_mb instead",
    "no_lun_0": "changes the number of disks; not supported",
    "ptype": "changes the device type (only disks are counted); not supported",
}
_NULL_BLK_RESERVED = {
    "nr_devices": "set null_blk.nr_devices instead",
    "gb": "set null_blk.gb instead",
}

SCSI_DEBUG = Table({
    "add_host": Field(Int(1, 64), 1, doc="simulated SCSI hosts"),
    "num_tgts": Field(Int(1, 255), 1, doc="targets per host"),
    "max_luns": Field(Int(1, 16384), 1, doc="LUNs per target"),
    "dev_size_mb": Field(Int(1, 65536), 8,
                         doc="size of the RAM store shared by all LUNs"),
    # The module's own default is 1: every command of the probe waits a
    # jiffy, which is most of a scale topology's boot.
    "delay": Field(Int(-2, 1000), 0,
                   doc="jiffies before each command completes (0: at once;"
                       " -1, -2: a few microseconds)"),
    "params": Field(Params(_SCSI_DEBUG_RESERVED), {},
                    doc="other module parameters"),
}, optional=True)

NULL_BLK = Table({
    "nr_devices": Field(Int(1, 4096), 1, doc="devices (nullb0...)"),
    "gb": Field(Int(1, 1024 * 1024), 1, doc="size of each device in GB"),
    "params": Field(Params(_NULL_BLK_RESERVED), {},
                    doc="other module parameters"),
}, optional=True)

_GROUP_LIST = List(Str(pattern=ID_PATTERN))

# fio and lvm find their disks by serial in the guest, so any group and
# any number of disks; the topology's own disk count is the real bound.
MAX_STEP_DISKS = 1 << 20

FIO = Table({
    "groups": Field(_GROUP_LIST, [],
                    doc="disk groups to use, of any kind (default: every "
                        "virtio_blk group, else every group)"),
    "disks": Field(Int(1, MAX_STEP_DISKS), 4,
                   doc="at most this many disks"),
    "batch": Field(Int(1, 4096), 256,
                   doc="disks (fio jobs) per fio invocation"),
    "spread": Field(Bool(), False,
                    doc="size_mib of I/O at offsets across the whole disk "
                        "instead of its first size_mib"),
    "rw": Field(Str(choices=("read", "write", "randread", "randwrite",
                             "rw", "randrw")), "randrw", doc="fio rw="),
    "bs": Field(Str(pattern="[1-9][0-9]{0,6}[kKmM]?"), "4k", doc="fio bs="),
    "size_mib": Field(Int(1, 1024 * 1024), 16, doc="bytes per disk, MiB"),
    "runtime_s": Field(Int(1, 86400), 10, doc="fio runtime="),
    "iodepth": Field(Int(1, 1024), 4, doc="fio iodepth="),
    "ioengine": Field(Str(choices=("libaio", "io_uring", "psync", "sync")),
                      "libaio", doc="fio ioengine="),
    "verify": Field(Bool(auto=True), AUTO,
                    doc="verify data (auto: if every disk has real backing)"),
})

LVM = Table({
    "groups": Field(_GROUP_LIST, [],
                    doc="file-backed groups of any kind to use (default: "
                        "every file-backed group, virtio_blk first)"),
    "disks": Field(Int(1, MAX_STEP_DISKS), 4,
                   doc="at most this many disks (physical volumes)"),
})

# A blktests test ("block/001") or group ("block"), as ./check takes them.
BLKTESTS_TEST_PATTERN = "[a-z]{1,16}(/[0-9]{3})?"
# A disk by the serial QEMU gives it: group id and index.
SERIAL_PATTERN = "[a-z0-9_-]{1,14}-[0-9]{1,5}"

BLKTESTS = Table({
    "tests": Field(List(Str(pattern=BLKTESTS_TEST_PATTERN), min_items=1),
                   ["block", "loop", "scsi", "dm", "md", "nbd"],
                   doc="blktests tests and groups to run (./check arguments)"),
    "exclude": Field(List(Str(pattern=BLKTESTS_TEST_PATTERN)), [],
                     doc="tests and groups to leave out"),
    "disks": Field(List(Str(pattern=SERIAL_PATTERN)), [],
                   doc="TEST_DEVS by serial, group-index (default: the first "
                       "disk of every sparse- or slice-backed group)"),
    "timeout_s": Field(Int(1, 86400), 60,
                       doc="blktests' TIMEOUT for the tests that honour it"),
    "reruns": Field(Int(0, 50), 5,
                    doc="runs again of every failed test in the same boot"),
    "rerun_tests": Field(List(Str(pattern=BLKTESTS_TEST_PATTERN)), [],
                         doc="tests run again whatever their first status"),
})

# A path dies under I/O (the pathfail step): the launcher removes these
# paths of every multipath group (QMP device_del) while fio writes and
# verifies through the maps, and adds them back down_s seconds later.
PATHFAIL = Table({
    "paths": Field(List(Int(0, 7), min_items=1), [1],
                   doc="which paths of each LUN to remove (0 is the "
                       "first); every path of a LUN is a total failure, "
                       "which must fail the run"),
    "down_s": Field(Int(1, 3600), 20,
                    doc="seconds the paths stay removed"),
    "settle_s": Field(Int(1, 3600), 60,
                      doc="seconds multipath may take to drop the paths, "
                          "and to take them back"),
})

PLAN = Table({
    "steps": Field(List(Str(choices=STEPS)), ["census"],
                   doc="steps in the order they run"),
    "settle_s": Field(Int(0, 86400), 60,
                      doc="seconds the guest waits for the expected disks"),
    "args": Field(Table({s: Field(Str(maxlen=1024), None) for s in STEPS},
                        optional=True), None, doc="extra arguments per step"),
    "fio": Field(FIO),
    "lvm": Field(LVM),
    "blktests": Field(BLKTESTS),
    "pathfail": Field(PATHFAIL),
})

GUEST = Table({
    "vcpus": Field(Int(1, 255), 2, doc="virtual CPUs"),
    "memory_mib": Field(Int(128, 1024 * 1024), 1024, doc="guest RAM, MiB"),
    "variants": Field(List(Str(pattern=VARIANT_PATTERN), min_items=1),
                      ["stock", "patched"], doc="kernel variants to boot"),
    "cmdline": Field(Str(maxlen=1024), "",
                     doc="appended to the kernel command line"),
    "firmware": Field(Str(choices=FIRMWARE), "qboot",
                      doc="guest firmware: qboot or seabios"),
    "uevent_helper": Field(Str(choices=UEVENT_HELPERS), "none",
                           doc="user-space uevent helper after /init"),
    "udev": Field(Bool(), False,
                  doc="Debian's systemd-udevd in the guest, started before "
                      "the disks appear; the census waits for udevadm "
                      "settle and checks every disk's by-id link"),
    "udev_settle_s": Field(Int(1, 86400), 600,
                           doc="udevadm settle's timeout (with guest.udev)"),
    "udev_no_by_id": Field(List(Str(choices=UDEV_DISK_KINDS)), [],
                           doc="disk kinds expected without a "
                               "/dev/disk/by-id link (with guest.udev)"),
    "limits_expected": Field(List(Str(choices=LIMITS)), [],
                             doc="limits the kernel may hit for the number "
                                 "of devices without failing the run: sg, "
                                 "bsg, sd, kernel-log"),
    "clocksource": Field(Str(choices=CLOCKSOURCES), "auto",
                         doc="guest clocksource: auto, tsc, hpet or kernel"),
    "console": Field(Str(choices=CONSOLES), "auto",
                     doc="kernel console: auto, quiet, virtio or serial"),
    # "patched": build/qemu/out, checked when a run starts, not here, so
    # that validate and plan work before `make qemu`.
    "qemu": Field(Str(), "distro",
                  doc="QEMU binary: distro, patched (make qemu) or a path"),
})

TIMEOUTS = Table({
    "boot_s": Field(Int(5, 7 * 86400), 300,
                    doc="from QEMU start until the guest's /init reports"),
    "run_s": Field(Int(10, 7 * 86400), 1800, doc="the whole run of a variant"),
    "hang_s": Field(Int(5, 7 * 86400), 120,
                    doc="no console and no results output for this long"),
})

TOPOLOGY = Table({
    "name": Field(Str(pattern=NAME_PATTERN), None,
                  doc="topology name (default: the file name)"),
    "description": Field(Str(maxlen=4096), "", doc="free text"),
    "guest": Field(GUEST),
    "timeouts": Field(TIMEOUTS),
    "virtio_blk": Field(TableArray(VIRTIO_BLK), []),
    "virtio_scsi": Field(TableArray(VIRTIO_SCSI), []),
    "sas": Field(TableArray(SAS), []),
    "scsi_debug": Field(SCSI_DEBUG, None),
    "null_blk": Field(NULL_BLK, None),
    "plan": Field(PLAN),
})


def field_paths(table=TOPOLOGY, prefix=""):
    """Every documented key as a dotted path (arrays of tables as name[])."""
    for key, spec in table.fields.items():
        path = prefix + key
        check = spec.check
        if isinstance(check, Table):
            yield path
            yield from field_paths(check, path + ".")
        elif isinstance(check, TableArray):
            yield path + "[]"
            yield from field_paths(check.table, path + "[].")
        else:
            yield path
