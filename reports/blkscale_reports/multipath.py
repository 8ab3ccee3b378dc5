"""dm-multipath in the guest (virtio_scsi[].paths): per run, the maps
built against the LUNs, the paths active in them, the time multipathd
took to build every map, its memory and CPU, the boot to census; and
where the pathfail step ran, how long multipath took to drop the removed
paths and to take them back, and whether fio verified every map through
it.  From results.json's multipath and pathfail sections."""

from blkscale.results.runresults import Results

from .table import Table, fmt


def _pathfail(res):
    pf = res.section("pathfail")
    if not pf:
        return ["-"] * 5
    fio = pf.get("fio_derived") or {}
    kernel = pf.get("kernel") or {}
    removed = ", ".join(str(p) for p in pf.get("paths_removed") or [])
    return [f"{removed} for {fmt(pf.get('down_s'))} s",
            fmt(pf.get("failover_s"), 2),
            fmt(kernel.get("failover_s"), 2),
            fmt(pf.get("reinstate_s"), 2),
            f"{fmt(fio.get('disks_verified'))}/"
            f"{fmt(fio.get('disks_expected'))}"]


def tables(run):
    """The section's table, or {} when no run had multipath."""
    t = Table("multipath", "dm-multipath in the guest, per run",
              ["Topology", "Variant", "Repeat", "Maps (found / LUNs)",
               "Paths active / expected", "Unclaimed", "Maps built (s)",
               "multipathd RSS (MiB)", "multipathd CPU (s)",
               "Boot to census (s)", "Paths removed", "Failover (s)",
               "Kernel failover (s)", "Reinstated (s)",
               "Maps verified through it"])
    for e in run.with_results():
        res = Results.of(e.doc)
        mp = res.section("multipath")
        if not mp:
            continue
        mpd = mp.get("multipathd") or {}
        rss = mpd.get("rss_kib")
        t.rows.append([
            e.topology, e.variant, fmt(e.repeat),
            f"{fmt(mp.get('maps'))} / {fmt(mp.get('maps_expected'))}",
            f"{fmt(mp.get('paths_active'))} / "
            f"{fmt(mp.get('paths_expected'))}",
            fmt(mp.get("unclaimed")), fmt(mp.get("build_s"), 2),
            fmt(rss / 1024 if isinstance(rss, (int, float)) else None, 1),
            fmt(mpd.get("cpu_s"), 2),
            fmt(res.boot_figure("census_complete_s"), 2),
            *_pathfail(res)])
    return {"multipath": t} if t.rows else {}
