"""Figures pulled out of results.json for tables and plots.  Every value
comes from a results document; a missing one is None, never a guess."""

# The results reader's number check under the name the report's modules
# use: num(value).
from blkscale.results.read import number as num
from blkscale.results.runresults import Results


def boot_value(doc, key):
    """A boot figure (census figures only if the census passed)."""
    return Results.of(doc).boot_figure(key)


def curve_median(doc, name):
    """The median of a majorbench curve's p50 values."""
    return Results.of(doc).curve_median(name)


def curve(doc, name):
    """[(registered, p50, p90)] of a majorbench block curve."""
    out = []
    for p in Results.of(doc).curve(name):
        if num(p.get("registered")) is not None \
                and num(p.get("p50_ns")) is not None:
            out.append((p["registered"], p["p50_ns"], num(p.get("p90_ns"))))
    return out


def procdev_points(doc):
    """[(block majors listed, registered by the tool, ns_per_read,
    ns_per_line, lines, verified)] of procdevbench."""
    out = []
    for p in Results.of(doc).procdevices_points:
        if num(p.get("ns_per_read")) is None:
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


# Memory figures modelled linearly against the disk count: (key, label,
# extractor); the slope is the cost of one more disk.
MEMORY_SERIES = [
    ("guest_slab_kib", "guest slab",
     lambda d: Results.of(d).guest_slab_kib),
    ("guest_used_kib", "guest RAM in use (MemTotal - MemAvailable)",
     lambda d: Results.of(d).guest_used_kib),
    ("qemu_peak_rss_kib", "host QEMU peak RSS",
     lambda d: Results.of(d).qemu_peak_rss_kib),
]
