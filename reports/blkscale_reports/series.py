"""Figures pulled out of results.json for tables and plots.  Every value
comes from a results document; a missing one is None, never a guess."""

# The results reader's accessors and rules, under the names the
# report's modules use: get(doc, *keys), num(value), the median of a
# curve's p50 and a boot figure (census figures only if the census
# passed).
from blkscale.results.read import boot_figure as boot_value
from blkscale.results.read import curve_median
from blkscale.results.read import lookup as get
from blkscale.results.read import number as num


def curve(doc, name):
    """[(registered, p50, p90)] of a majorbench block curve."""
    pts = get(doc, "majors", "block", name) or []
    out = []
    for p in pts:
        if isinstance(p, dict) and num(p.get("registered")) is not None \
                and num(p.get("p50_ns")) is not None:
            out.append((p["registered"], p["p50_ns"], num(p.get("p90_ns"))))
    return out


def procdev_points(doc):
    """[(block majors listed, registered by the tool, ns_per_read,
    ns_per_line, lines, verified)] of procdevbench."""
    out = []
    for p in get(doc, "procdevices", "points") or []:
        if not isinstance(p, dict) or num(p.get("ns_per_read")) is None:
            continue
        out.append((num(p.get("block_majors")), num(p.get("registered")),
                    p["ns_per_read"], num(p.get("ns_per_line")),
                    num(p.get("lines")), p.get("verified")))
    return out


# Boot figures the report models against the disk count: (key, label).
# The census figures count only when the census step itself succeeded.
BOOT_SERIES = [
    ("census_complete_s", "kernel start to census complete"),
    ("kernel_to_init_s", "kernel start to init (disks probed)"),
    ("wall_to_census_s", "QEMU start to census record (host wall clock)"),
]


def guest_used_kib(doc):
    total = num(get(doc, "memory", "guest_mem_total_kib"))
    avail = num(get(doc, "memory", "guest_mem_available_kib"))
    return total - avail if total is not None and avail is not None else None


# Memory figures modelled linearly against the disk count: (key, label,
# extractor); the slope is the cost of one more disk.
MEMORY_SERIES = [
    ("guest_slab_kib", "guest slab",
     lambda d: num(get(d, "memory", "guest_slab_kib"))),
    ("guest_used_kib", "guest RAM in use (MemTotal - MemAvailable)",
     guest_used_kib),
    ("qemu_peak_rss_kib", "host QEMU peak RSS",
     lambda d: num(get(d, "memory", "qemu_peak_rss_kib"))),
]
