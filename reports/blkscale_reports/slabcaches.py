"""Memory per disk by slab cache: two runs of one kernel with different
disk counts (the results of each), every cache's memory divided by the
disks the larger run added.

Each cache's memory is its slabs' pages (/proc/slabinfo, num_slabs x
pagesperslab pages), as the guest's `guest.slab_caches` recorded it
after the disks settled; what another boot adds besides its disks
cancels out in the difference.  A kernel that merges caches (Debian's
default, SLAB_MERGE_DEFAULT) shows a merged cache under the one it
joined; `slab_nomerge` on guest.cmdline names each.
"""

from blkscale.results.runresults import Results

from .errors import ReportError

PAGE_BYTES = 4096


def _caches(res, where):
    caches = res.slab_caches
    if not caches:
        raise ReportError(where, "guest.slab_caches", "none recorded (the "
                          "kernel has no /proc/slabinfo: SLUB_DEBUG off)")
    out = {}
    for name, row in caches.items():
        if (not isinstance(row, list) or len(row) != 4
                or not all(isinstance(v, int) for v in row)):
            raise ReportError(where, f"guest.slab_caches.{name}", "not "
                              "[objects, object size, slabs, pages per "
                              "slab]")
        objects, size, slabs, pages = row
        out[name] = (objects, slabs * pages * PAGE_BYTES)
    return out


def _disks(res, where):
    total = res.disks_found_total
    if not isinstance(total, int):
        raise ReportError(where, "disks.found.total", "missing")
    return total


def per_disk(small, large, where_small="small", where_large="large"):
    """[(cache, bytes per disk, objects per disk)] of every cache, the
    most per disk first, and (release, disks added, Slab KiB per disk
    from meminfo)."""
    small, large = Results.of(small), Results.of(large)
    release, other = small.guest_release, large.guest_release
    if release != other:
        raise ReportError(where_large, "kernel.guest_release",
                          f"{other}, not {release} as in {where_small}: "
                          "one kernel's two runs are compared")
    added = _disks(large, where_large) - _disks(small, where_small)
    if added <= 0:
        raise ReportError(where_large, "disks.found.total",
                          f"no more disks than {where_small}")
    a, b = _caches(small, where_small), _caches(large, where_large)
    rows = []
    for name in sorted(set(a) | set(b)):
        objs_a, bytes_a = a.get(name, (0, 0))
        objs_b, bytes_b = b.get(name, (0, 0))
        rows.append((name, (bytes_b - bytes_a) / added,
                     (objs_b - objs_a) / added))
    rows.sort(key=lambda r: (-r[1], r[0]))
    slab_a, slab_b = small.meminfo_kib("Slab"), large.meminfo_kib("Slab")
    slab = ((slab_b - slab_a) / added
            if slab_a is not None and slab_b is not None else None)
    return rows, (release, added, slab)


def table(rows, facts, top=10):
    """The rows as text: the top caches and what they add up to."""
    release, added, slab = facts
    shown = rows[:top]
    total = sum(r[1] for r in rows)
    lines = [f"{release}: {added} disks added; slab {total / 1024:.1f} KiB "
             "per disk by /proc/slabinfo"
             + (f", {slab:.1f} KiB by /proc/meminfo" if slab is not None
                else ""),
             f"{'cache':<28} {'KiB/disk':>9} {'objects/disk':>13} "
             f"{'share':>6}"]
    for name, per, objs in shown:
        share = per / total if total > 0 else 0
        lines.append(f"{name:<28} {per / 1024:>9.2f} {objs:>13.2f} "
                     f"{share:>6.1%}")
    rest = total - sum(r[1] for r in shown)
    lines.append(f"{'(the other caches)':<28} {rest / 1024:>9.2f}")
    return "\n".join(lines)
