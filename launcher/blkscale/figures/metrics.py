"""Named figures taken from one results.json, with the direction that
counts as a regression and the default allowed ratio against a baseline.

A metric is None when its section is missing or its step failed; a
missing metric is never replaced by a guess.  Cross metrics
(`<metric>_vs_<reference>`) divide a variant's figure by the reference
variant's figure from the same sweep, measured on the same machine
minutes apart.

Each figure has an allowed ratio against its baseline and is either
gating (beyond the ratio the nightly fails) or advisory (beyond the
ratio it is reported as a warning).  The split comes from measurements:
across 23 runs of the same kernels on a shared 2-core TCG host (other
guests running), a fixed time such as a /proc/devices read or a
register_blkdev call varied up to 1.7x between runs, a full
/proc/devices read with 3700 majors 2.6x, pvcreate 3x, and boot time
2.5x between two nightly runs of the same code.  Absolute times are
therefore advisory (warned at 1.5x); what gates is what does not depend
on the host's load: counts (exact), memory (per repeat, within 1.1x),
boot times as a ratio to the reference variant of the same sweep (1.3x)
and in-guest per-call costs as such a ratio (1.1x: timed inside the
guest around one call, they moved about 3% under a load that slowed
the boot by 30%).

In-guest per-call costs come twice: in ns, and in steps of a reference
the guest tools time in the same process just before and after each
measured block (guest-tools/src/lib/refloop.h).  The host's CPU runs
in spells about 1.35-1.5x apart that slow a call and its reference
alike, so the figure in steps is the one that gates; where a run has
it, the ns figure's ratio to the reference variant only advises
(`superseded`).  Runs from before the reference have no figure in
steps: there the ns figures gate as they did.
"""

import statistics
from dataclasses import dataclass

from ..results.runresults import Results, number


def _register_growth(doc):
    """Median register p50 of the last four buckets over the first four:
    how much a registration slows down as majors fill up (within a run)."""
    values = [p.get("p50_ns") for p in Results.of(doc).curve("register")]
    values = [v for v in values if number(v) is not None]
    if len(values) < 8:
        return None
    head = statistics.median(values[:4])
    return statistics.median(values[-4:]) / head if head else None


def _procdev_point(doc, registered, key):
    points = Results.of(doc).procdevices_points
    if not points:
        return None
    if registered == "max":
        return number(points[-1].get(key))
    for p in points:
        if p.get("registered") == registered:
            return number(p.get(key))
    return None


def _procdev_verified(doc):
    points = Results.of(doc).procdevices_points
    if not points:
        return None
    return 1 if all(p.get("verified") is True for p in points) else 0


def _section(name):
    """The extractor of a figure of the guest's sections, by its name in
    the results record (runresults.SECTION_FIGURES)."""
    return lambda d: Results.of(d).figure(name)


def _per_disk(doc, value):
    found = Results.of(doc).disks_found_total
    value = number(value)
    if not found or value is None:
        return None
    return value / found


# How a figure's repeats are judged.  EXACT: a count; one wrong value in
# any repeat is a regression, never noise.  MEMORY: repeat by repeat
# too (its spread is a few percent at most), within its ratio.  TIME: a
# one-sided bound on the mean of the repeats' logs (onesided.py),
# moved by what the host's load could explain.  CALL: an in-guest
# per-call cost, the same bound with no load band.
EXACT, TIME, MEMORY, CALL = "exact", "time", "memory", "call"


@dataclass(frozen=True)
class Metric:
    name: str
    label: str
    unit: str
    extract: object         # results doc -> number or None
    worse: str              # "higher" or "lower" is a regression
    ratio: float            # allowed ratio against the baseline
    gate: bool = True       # False: beyond the ratio is only a warning
    cross: float = None     # allowed ratio of <metric>_vs_<reference>
    summary: bool = False   # a row of the sweep's closing table
    digits: int = 0
    kind: str = TIME        # EXACT, TIME, MEMORY or CALL: how judged
    normalized: str = None  # the same cost in reference steps (a metric)

    def threshold(self):
        key = "max_ratio" if self.worse == "higher" else "min_ratio"
        return {key: self.ratio, "gate": self.gate}

    def format(self, value):
        if value is None:
            return "-"
        return f"{value:,.{self.digits}f}"


# Absolute times: advisory, warned beyond this ratio.
TIME_WARN = 1.5
# Times relative to the reference variant of the same sweep: gating.  A
# ratio whose interval does not clear it is inconclusive and the nightly
# adds repeats (power.py), so the limit can be the slowdown that matters
# rather than the noise of three repeats.
CROSS_TIME = 1.3
# In-guest per-call costs relative to the reference: CPU-bound, they
# follow the host's own speed, which runs in spells about 1.35x apart
# (evidence/20261205-nightly-gates/host-speed); paired ratios of
# the tools' fastest of ten processes resolve 1.2x within 16 repeats.
CROSS_CALL = 1.2
# Memory against its baseline, repeat by repeat.
MEMORY_RATIO = 1.1
# Kinds judged by a bound on their repeats, not repeat by repeat: they
# gate only on the topologies a sweep's gate_times names (the host
# resolves them there; elsewhere they are advisory).
TIMED = (TIME, CALL)

M = Metric
METRICS = [
    M("disks_found", "disks found", "disks",
      lambda d: Results.of(d).disks_found_total, "lower", 1.0,
      summary=True, kind=EXACT),
    M("steps_failed", "guest steps failed", "steps",
      lambda d: Results.of(d).steps_failed,
      "higher", 1.0, summary=True, kind=EXACT),
    M("kernel_to_init_s", "boot: kernel start to init", "s",
      lambda d: Results.of(d).boot_figure("kernel_to_init_s"), "higher",
      TIME_WARN, gate=False, cross=CROSS_TIME, summary=True, digits=2),
    M("census_complete_s", "boot: kernel start to census complete", "s",
      lambda d: Results.of(d).boot_figure("census_complete_s"), "higher",
      TIME_WARN, gate=False, cross=CROSS_TIME, summary=True, digits=2),
    M("block_dynamic_capacity", "dynamic block majors", "majors",
      _section("block_dynamic_capacity"),
      "lower", 1.0, cross=1.0, summary=True, kind=EXACT),
    M("char_dynamic_capacity", "dynamic char majors", "majors",
      _section("char_dynamic_capacity"),
      "lower", 1.0, summary=True, kind=EXACT),
    M("block_static_collisions", "dynamic majors assigned in devices.txt",
      "majors",
      _section("block_static_collisions"), "higher",
      1.0, summary=True, kind=EXACT),
    M("register_p50_ns", "register_blkdev median cost", "ns",
      lambda d: Results.of(d).curve_median("register"), "higher", TIME_WARN,
      gate=False, cross=CROSS_CALL, summary=True, kind=CALL,
      normalized="register_p50_ref"),
    M("register_p50_ref", "register_blkdev median cost, reference steps",
      "steps", _section("register_p50_ref"), "higher", TIME_WARN, gate=False,
      cross=CROSS_CALL, summary=True, kind=CALL, digits=1),
    M("register_growth", "register cost, last/first buckets", "x",
      _register_growth, "higher", 1.5, digits=2),
    M("lookup_p50_ns", "open() of a registered major, median", "ns",
      lambda d: Results.of(d).curve_median("lookup"), "higher", TIME_WARN,
      gate=False, cross=CROSS_CALL, summary=True, kind=CALL,
      normalized="lookup_p50_ref"),
    M("lookup_p50_ref", "open() of a registered major, reference steps",
      "steps", _section("lookup_p50_ref"), "higher", TIME_WARN, gate=False,
      cross=CROSS_CALL, summary=True, kind=CALL, digits=1),
    M("procdevices_ns_per_read_0", "/proc/devices read, 0 added majors",
      "ns", lambda d: _procdev_point(d, 0, "ns_per_read"), "higher",
      TIME_WARN, gate=False, cross=CROSS_CALL, summary=True, kind=CALL,
      normalized="procdevices_ref_per_read_0"),
    M("procdevices_ref_per_read_0",
      "/proc/devices read, 0 added majors, reference steps", "steps",
      lambda d: _procdev_point(d, 0, "ref_per_read"), "higher", TIME_WARN,
      gate=False, cross=CROSS_CALL, summary=True, kind=CALL),
    M("procdevices_ns_per_read_200", "/proc/devices read, 200 added majors",
      "ns", lambda d: _procdev_point(d, 200, "ns_per_read"), "higher",
      TIME_WARN, gate=False, cross=CROSS_CALL, summary=True, kind=CALL,
      normalized="procdevices_ref_per_read_200"),
    M("procdevices_ref_per_read_200",
      "/proc/devices read, 200 added majors, reference steps", "steps",
      lambda d: _procdev_point(d, 200, "ref_per_read"), "higher", TIME_WARN,
      gate=False, cross=CROSS_CALL, summary=True, kind=CALL),
    M("procdevices_ns_per_read_max", "/proc/devices read, all majors taken",
      "ns", lambda d: _procdev_point(d, "max", "ns_per_read"), "higher",
      TIME_WARN, gate=False, kind=CALL),
    M("procdevices_ns_per_line_max", "/proc/devices cost per line, full",
      "ns", lambda d: _procdev_point(d, "max", "ns_per_line"), "higher",
      TIME_WARN, gate=False, kind=CALL, digits=1),
    M("procdevices_verified", "/proc/devices lists what is registered",
      "bool", _procdev_verified, "lower", 1.0, kind=EXACT),
    M("partitions_ns_per_read", "/proc/partitions full read", "ns",
      _section("partitions_ns_per_read"), "higher", TIME_WARN, gate=False,
      cross=CROSS_CALL, summary=True, kind=CALL,
      normalized="partitions_ref_per_read"),
    M("partitions_ref_per_read",
      "/proc/partitions full read, reference steps", "steps",
      _section("partitions_ref_per_read"), "higher", TIME_WARN, gate=False,
      cross=CROSS_CALL, kind=CALL, digits=1),
    M("diskstats_ns_per_read", "/proc/diskstats full read", "ns",
      _section("diskstats_ns_per_read"), "higher", TIME_WARN, gate=False,
      cross=CROSS_CALL, summary=True, kind=CALL,
      normalized="diskstats_ref_per_read"),
    M("diskstats_ref_per_read",
      "/proc/diskstats full read, reference steps", "steps",
      _section("diskstats_ref_per_read"), "higher", TIME_WARN, gate=False,
      cross=CROSS_CALL, kind=CALL, digits=1),
    # a disk missed or listed twice by a read that disks left during
    M("partitions_interleave_missed",
      "/proc/partitions read while a disk is deleted: disks missed",
      "disks", lambda d: Results.of(d).interleave("partitions",
                                                  "missed_count"),
      "higher", 1.0, kind=EXACT),
    M("partitions_interleave_repeated",
      "/proc/partitions read while a disk is deleted: disks repeated",
      "disks", lambda d: Results.of(d).interleave("partitions",
                                                  "repeated_count"),
      "higher", 1.0, kind=EXACT),
    M("diskstats_interleave_missed",
      "/proc/diskstats read while a disk is deleted: disks missed",
      "disks", lambda d: Results.of(d).interleave("diskstats",
                                                  "missed_count"),
      "higher", 1.0, kind=EXACT),
    M("diskstats_interleave_repeated",
      "/proc/diskstats read while a disk is deleted: disks repeated",
      "disks", lambda d: Results.of(d).interleave("diskstats",
                                                  "repeated_count"),
      "higher", 1.0, kind=EXACT),
    M("guest_slab_kib_per_disk", "guest slab per disk", "KiB",
      lambda d: Results.of(d).guest_slab_kib_per_disk,
      "higher", MEMORY_RATIO, cross=1.1, summary=True, digits=1,
      kind=MEMORY),
    M("qemu_rss_kib_per_disk", "QEMU peak RSS per disk", "KiB",
      lambda d: _per_disk(d, Results.of(d).qemu_peak_rss_kib),
      "higher", MEMORY_RATIO, summary=True, digits=1, kind=MEMORY),
    M("identity_ok", "disks identified by serial and signature", "disks",
      _section("identity_ok"), "lower", 1.0,
      summary=True, kind=EXACT),
    M("fio_disks_verified", "disks written and verified by fio", "disks",
      _section("fio_disks_verified"), "lower", 1.0,
      summary=True, kind=EXACT),
    M("fio_wall_s", "fio on every planned disk", "s",
      _section("fio_wall_s"), "higher", TIME_WARN,
      gate=False, digits=2),
    M("fio_failed", "fio disks failed", "disks",
      _section("fio_failed"), "higher", 1.0,
      summary=True, kind=EXACT),
    M("lvm_ok", "LVM volume built and verified", "bool",
      lambda d: Results.of(d).lvm_ok, "lower",
      1.0, summary=True, kind=EXACT),
    M("lvm_pvs", "LVM physical volumes", "PVs",
      _section("lvm_pvs"), "lower", 1.0, kind=EXACT),
    M("devt_duplicates", "disks sharing a dev_t", "disks",
      _section("devt_duplicates"), "higher",
      1.0, kind=EXACT),
    M("devt_scheme_failed", "disks off their driver's dev_t numbering",
      "disks",
      _section("devt_scheme_failed"),
      "higher", 1.0, kind=EXACT),
    M("devt_audit_failed", "dev_t audit checks failed", "checks",
      _section("devt_audit_failed"), "higher", 1.0,
      kind=EXACT),
    M("selftest_failed", "selftest cases failed", "tests",
      _section("selftest_failed"), "higher", 1.0,
      kind=EXACT),
    M("lvm_pvcreate_s", "pvcreate time", "s",
      _section("lvm_pvcreate_s"), "higher", TIME_WARN,
      gate=False, digits=2),
    M("lvm_vgcreate_s", "vgcreate time", "s",
      _section("lvm_vgcreate_s"), "higher", TIME_WARN,
      gate=False, digits=2),
]
BY_NAME = {m.name: m for m in METRICS}


def kind_of(name, reference="stock"):
    """EXACT, TIME, MEMORY or CALL of a metric or of its cross ratio; an
    override's unknown name counts as a time."""
    m = BY_NAME.get(name)
    if m is None and name.endswith(f"_vs_{reference}"):
        m = BY_NAME.get(name[:-len(f"_vs_{reference}")])
    return m.kind if m is not None else TIME


def cross_name(metric, reference):
    return f"{metric}_vs_{reference}"


def superseded(name, reference, figures):
    """Whether a per-call figure in ns, or its ratio to the reference
    variant, only advises: its figure in reference steps (the same kind
    of figure) has values in figures, {metric: stats.Summary or number}
    of one topology and variant."""
    suffix = f"_vs_{reference}"
    base = name[:-len(suffix)] if name.endswith(suffix) else name
    m = BY_NAME.get(base)
    if m is None or not m.normalized:
        return False
    twin = figures.get(m.normalized + name[len(base):])
    return twin is not None and getattr(twin, "n", 1) > 0


def all_names(reference):
    names = [m.name for m in METRICS]
    names += [cross_name(m.name, reference) for m in METRICS if m.cross]
    return names


def extract(doc):
    """{metric: value or None} of one results document."""
    out = {}
    for m in METRICS:
        try:
            out[m.name] = m.extract(doc)
        except (TypeError, ValueError, AttributeError, ZeroDivisionError):
            out[m.name] = None
    return out


def ratio(value, ref):
    if value is None or ref is None or ref == 0:
        return None
    return value / ref


def cross(values, ref_values, reference):
    """{<metric>_vs_<reference>: ratio} for the metrics that have one."""
    return {cross_name(m.name, reference):
            ratio(values.get(m.name), ref_values.get(m.name))
            for m in METRICS if m.cross}


def thresholds(reference, overrides=None):
    """{metric name: {max_ratio|min_ratio: r, gate: bool}} including
    cross metrics (always gating); overrides replace whole entries and
    gate unless they say gate = false."""
    out = {m.name: m.threshold() for m in METRICS}
    for m in METRICS:
        if m.cross:
            key = "max_ratio" if m.worse == "higher" else "min_ratio"
            out[cross_name(m.name, reference)] = {key: m.cross, "gate": True}
    for name, spec in (overrides or {}).items():
        out[name] = dict(spec, gate=spec.get("gate", True))
    return out
