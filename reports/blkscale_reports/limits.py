"""Limits hit: what each kernel refused for the number of devices (sg's
and bsg's minor ranges, sd's names, a ring buffer that lost the boot's
first lines) and the disks a refusal cost (the census's missing disks,
on the first refusal that loses its device), per run, from results.json's limits (the launcher reads
them from the guest's kernel log, blkscale.results.limits)."""

from blkscale.results.runresults import Results

from .table import Table, fmt


def tables(run):
    """({"limits": table} or {}, runs whose log was read, runs without)."""
    t = Table("limits", "Limits hit, per run",
              ["Topology", "Variant", "Repeat", "Limit", "Devices refused",
               "First device", "At (s)", "Disks missing", "Kernel's limit", "Expected",
               "Kernel's words"])
    read = unread = 0
    for e in run.with_results():
        res = Results.of(e.doc)
        hits = res.limits
        if hits is None:
            unread += 1
            continue
        read += 1
        expected = res.limits_expected
        for h in hits:
            t.rows.append([
                e.topology, e.variant, fmt(e.repeat), h.get("subsystem"),
                fmt(h.get("devices")), h.get("first") or "-",
                fmt(h.get("first_s"), 3), fmt(h.get("disks_missing")),
                fmt(h.get("limit")),
                fmt(h.get("subsystem") in expected), h.get("message")])
    return ({"limits": t} if t.rows else {}), read, unread
