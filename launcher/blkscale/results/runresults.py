"""results.json of one variant as a record: the fields the launcher, bench
and reports read, by name (schema: launcher/RESULTS.md).

document.py builds it from the guest's stream; this module is the only
one that names the file, writes it or reads it.
"""

import os
import statistics
from collections.abc import Mapping
from dataclasses import dataclass

from . import RESULTS_SCHEMA
from .record import Record

FILENAME = "results.json"

# Boot figures that end at the census: they count only when the census
# step itself succeeded (a failed census stops wherever it failed).
CENSUS_FIGURES = ("census_complete_s", "wall_to_census_s")


# Figures of the guest's sections (copied verbatim from its stream,
# guest-tools/PROTOCOL.md) and of fio's derived one, by name: where each
# is in the document.
SECTION_FIGURES = {
    "block_dynamic_capacity": ("majors", "block", "dynamic_capacity"),
    "char_dynamic_capacity": ("majors", "char", "dynamic_capacity"),
    "block_static_collisions": ("majors", "block", "static_collisions",
                                "count"),
    # per-call costs in reference steps, the median over measured blocks
    "register_p50_ref": ("majors", "block", "register_ref", "median"),
    "lookup_p50_ref": ("majors", "block", "lookup_ref", "median"),
    "identity_ok": ("census", "identity", "ok"),
    "devt_duplicates": ("census", "devt_duplicates"),
    "devt_scheme_failed": ("census", "devt_scheme", "failed"),
    "devt_audit_failed": ("devt_audit", "failed"),
    "selftest_failed": ("selftest", "failed"),
    "fio_disks_verified": ("fio", "disks_verified"),
    "fio_wall_s": ("fio", "wall_s"),
    "fio_failed": ("fio", "failed"),
    "lvm_pvs": ("lvm", "pvs"),
    "lvm_pvcreate_s": ("lvm", "pvcreate_s"),
    "lvm_vgcreate_s": ("lvm", "vgcreate_s"),
    # partbench: a full read of each file (its headline method's median)
    "partitions_ns_per_read": ("partitions", "files", "partitions",
                               "ns_per_read"),
    "partitions_ref_per_read": ("partitions", "files", "partitions",
                                "ref_per_read"),
    "diskstats_ns_per_read": ("partitions", "files", "diskstats",
                              "ns_per_read"),
    "diskstats_ref_per_read": ("partitions", "files", "diskstats",
                               "ref_per_read"),
}


def number(value):
    """value if it is an int or float (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def lookup(doc, *keys):
    """doc[k1][k2]..., or None where a level is missing."""
    for key in keys:
        if not isinstance(doc, Mapping):
            return None
        doc = doc.get(key)
    return doc


@dataclass(frozen=True, eq=False)
class Results(Record):
    SCHEMA = RESULTS_SCHEMA

    @classmethod
    def of(cls, doc):
        """A record of doc, which may be one already or the dict of a
        document built in memory (tests, a copy being changed)."""
        if isinstance(doc, Results):
            return doc
        return cls(doc if isinstance(doc, Mapping) else {})

    # The disks: expected by the plan, found by the guest.
    @property
    def disks_found(self):
        """{vd, sd, nullb, total} the guest counted, {} without."""
        found = self.part("disks").get("found")
        return found if isinstance(found, Mapping) else {}

    @property
    def disks_found_total(self):
        return number(self.disks_found.get("total"))

    @property
    def disks_expected(self):
        expected = self.part("disks").get("expected")
        return expected if isinstance(expected, Mapping) else {}

    @property
    def disks_expected_total(self):
        return number(self.disks_expected.get("total"))

    @property
    def disk_list(self):
        """The guest's block devices (name, major, minor, sectors)."""
        return self.part("disks").get("list") or []

    # The boot.
    @property
    def boot(self):
        return self.part("boot")

    def boot_figure(self, key):
        """boot.<key>, None where it does not count (CENSUS_FIGURES)."""
        if key in CENSUS_FIGURES and not self.step_ok("census"):
            return None
        return number(self.boot.get(key))

    @property
    def steps(self):
        steps = self.body.get("steps")
        return steps if isinstance(steps, list) else None

    def step(self, name):
        """The record of step `name`, or None."""
        for step in self.steps or []:
            if isinstance(step, Mapping) and step.get("name") == name:
                return step
        return None

    def step_ok(self, name):
        step = self.step(name)
        return step is not None and step.get("verdict") == "ok"

    def step_seconds(self, name):
        """How long step `name` took by the guest's clock, or None."""
        step = self.step(name) or {}
        start, end = number(step.get("start_s")), number(step.get("end_s"))
        return end - start if start is not None and end is not None \
            else None

    @property
    def steps_failed(self):
        if self.steps is None:
            return None
        return sum(1 for s in self.steps if s.get("verdict") == "failed")

    @property
    def outcome(self):
        """What the launcher concluded ({status, kind, message}), or None
        for a document without one."""
        outcome = self.body.get("outcome")
        return outcome if isinstance(outcome, Mapping) else None

    # Who ran it, on what.
    @property
    def run_id(self):
        return self.part("run").get("id")

    @property
    def topology_name(self):
        return self.part("topology").get("name")

    @property
    def kernel_variant(self):
        return self.part("kernel").get("variant")

    @property
    def kernel_release(self):
        return self.part("kernel").get("release")

    @property
    def host(self):
        return self.part("host")

    @property
    def accelerator(self):
        return self.host.get("accelerator")

    @property
    def vcpus(self):
        return self.host.get("vcpus")

    @property
    def qemu_version(self):
        return self.host.get("qemu_version")

    @property
    def qemu_binary(self):
        """host.qemu: the binary's path, kind and version, or None."""
        return self.host.get("qemu") or None

    @property
    def cpu_model(self):
        return self.host.get("cpu_model")

    @property
    def host_cpus(self):
        return self.host.get("host_cpus")

    @property
    def kernel_console(self):
        return self.host.get("console")

    @property
    def guest(self):
        return self.part("guest")

    @property
    def clocksource(self):
        return self.guest.get("clocksource")

    # Memory, the guest's (after the census settled) and QEMU's.
    @property
    def memory(self):
        return self.part("memory")

    @property
    def guest_slab_kib(self):
        return number(self.memory.get("guest_slab_kib"))

    @property
    def guest_slab_kib_per_disk(self):
        return number(self.memory.get("guest_slab_kib_per_disk"))

    @property
    def guest_used_kib(self):
        """MemTotal - MemAvailable, or None without both."""
        total = number(self.memory.get("guest_mem_total_kib"))
        avail = number(self.memory.get("guest_mem_available_kib"))
        return total - avail if total is not None and avail is not None \
            else None

    @property
    def qemu_peak_rss_kib(self):
        return number(self.memory.get("qemu_peak_rss_kib"))

    # The guest's sections.
    def figure(self, name):
        """A figure of the guest's sections by its name in
        SECTION_FIGURES, None where the section or the figure is
        missing."""
        return number(lookup(self.body, *SECTION_FIGURES[name]))

    def section(self, name):
        """A section as the guest sent it (an object), {} without it."""
        return self.part(name)

    def curve(self, name):
        """The points of a majorbench block curve (register, lookup):
        objects with registered, p50_ns, p90_ns."""
        points = lookup(self.body, "majors", "block", name)
        return [p for p in points or [] if isinstance(p, Mapping)] \
            if isinstance(points, list) else []

    def curve_median(self, name):
        """The median of a majorbench block curve's p50 values (register,
        lookup): one figure for the whole curve."""
        values = [number(p.get("p50_ns")) for p in self.curve(name)]
        values = [v for v in values if v is not None]
        return statistics.median(values) if values else None

    @property
    def block_majors(self):
        """majorbench's block section (capacity, ranges, stop_error), {}
        without it."""
        block = lookup(self.body, "majors", "block")
        return block if isinstance(block, Mapping) else {}

    @property
    def block_major_ranges(self):
        """The ranges of block majors handed out ([first, last] pairs),
        None without them."""
        ranges = lookup(self.block_majors, "majors_obtained", "ranges")
        return ranges if isinstance(ranges, list) else None

    def census_expected(self, kind):
        """The census's expected count of one kind of disk, or None."""
        return number(lookup(self.body, "census", "by_kind", kind,
                             "expected"))

    @property
    def procdevices_points(self):
        """procdevbench's points: objects with registered, block_majors,
        ns_per_read, ns_per_line, lines, verified."""
        points = lookup(self.body, "procdevices", "points")
        return [p for p in points if isinstance(p, Mapping)] \
            if isinstance(points, list) else []

    def interleave(self, name, key):
        """A figure of partbench's interleaved read of /proc/<name>
        (partitions, diskstats), e.g. missed_count: None where the read
        did not run (no SCSI disk to delete, a file of one page)."""
        check = lookup(self.body, "partitions", "interleave", name)
        if not isinstance(check, Mapping) or check.get("run") is not True:
            return None
        return number(check.get(key))

    @property
    def lvm_ok(self):
        """1 if the LVM step built and verified its volume, 0 if not, None
        without the step's section."""
        ok = lookup(self.body, "lvm", "ok")
        return None if ok is None else int(ok is True)

    @property
    def census_identity(self):
        """census.identity: every disk against the plan's groups, {}
        without it."""
        identity = lookup(self.body, "census", "identity")
        return identity if isinstance(identity, Mapping) else {}

    @property
    def clock_empty_kernel_ns(self):
        """The kernel's clock floor (majors.clock_empty_kernel_ns), or
        None."""
        return lookup(self.body, "majors", "clock_empty_kernel_ns")

    @property
    def clock_empty_user_ns(self):
        """User space's clock floor (guest.clock_empty_user_ns), or
        None."""
        return lookup(self.body, "guest", "clock_empty_user_ns")

    @property
    def topology_expected(self):
        """The disks the topology planned, per kind and total."""
        expected = self.part("topology").get("expected")
        return expected if isinstance(expected, Mapping) else {}

    @property
    def guest_release(self):
        """The kernel release the guest reported (uname -r)."""
        return self.part("kernel").get("guest_release")

    @property
    def slab_caches(self):
        """guest.slab_caches: {cache: [objects, object size, slabs,
        pages per slab]}, or None (no /proc/slabinfo)."""
        caches = self.guest.get("slab_caches")
        return caches if isinstance(caches, Mapping) else None

    def meminfo_kib(self, key):
        """A /proc/meminfo figure the guest recorded, KiB, or None."""
        meminfo = self.guest.get("meminfo_kib")
        return number(meminfo.get(key)) \
            if isinstance(meminfo, Mapping) else None

    @property
    def limits(self):
        """The limits the kernel hit (results/limits.py), [] for none,
        None when no kernel log came home."""
        hits = self.body.get("limits")
        if not isinstance(hits, list):
            return None
        return [h for h in hits if isinstance(h, Mapping)]

    @property
    def limits_expected(self):
        """The subsystems the topology let the kernel refuse."""
        expected = self.part("topology").get("limits_expected")
        return expected if isinstance(expected, list) else []


def path_in(directory):
    """Where a variant's results.json is in its directory."""
    return os.path.join(directory, FILENAME)


def exists_in(directory):
    return os.path.isfile(path_in(directory))


def read(path, untagged=False):
    """The Results of the file at path, or None if there is none
    (untagged: Record.from_json)."""
    return Results.read(path, "results", untagged)


def read_in(directory):
    """The Results in a variant's directory, or None."""
    return read(path_in(directory))
