"""The run's lines for the pathfail step: how long multipath took to drop
the removed paths and to take them back, what the kernel failed under
I/O, whether fio verified every map through it, and where a wait that
ran out stood."""

from ..results import runresults
from .partlines import INDENT


def _s(value):
    return "-" if runresults.number(value) is None else f"{value:.2f} s"


def lines(results_path, steps):
    """Lines for one variant's run: none without the step or its
    results."""
    if not results_path or "pathfail" not in [s["name"] for s in steps]:
        return []
    res = runresults.read(results_path)
    if res is None:
        return []
    pf = res.section("pathfail")
    if not pf:
        return []
    kernel = pf.get("kernel") or {}
    log = pf.get("multipathd_log") or {}
    fio = pf.get("fio_derived") or {}
    removed = ", ".join(str(p) for p in pf.get("paths_removed") or [])
    out = [f"{INDENT}paths {removed} removed for {pf.get('down_s')} s: "
           f"maps down to {pf.get('paths_kept')} of {pf.get('paths_all')} "
           f"paths in {_s(pf.get('failover_s'))} (the kernel failed the "
           f"last under I/O after {_s(kernel.get('failover_s'))}), all "
           f"back in {_s(pf.get('reinstate_s'))}",
           f"{INDENT}multipathd: {log.get('remove_path')} removed, "
           f"{log.get('add_path')} added, {log.get('failed')} failed by "
           f"its checker, {log.get('reinstated')} reinstated; "
           f"{kernel.get('path_io_errors')} I/O errors below the maps; fio "
           f"verified {fio.get('disks_verified', '-')} of "
           f"{fio.get('disks_expected', '-')} maps"]
    return out + _held_up(pf)


def _held_up(pf):
    """The last row of the timeline of a wait that ran out: how far the
    kernel, udev and multipathd had got, so that the line says which of
    them held the paths up."""
    if runresults.number(pf.get("failover_s")) is not None and \
            runresults.number(pf.get("reinstate_s")) is not None:
        return []
    fields = pf.get("timeline_fields") or []
    rows = pf.get("timeline") or []
    if not rows:
        return []
    last = dict(zip(fields, rows[-1]))
    unread = last.get("udev_unread_bytes")
    udev = "no udev in the guest" if last.get("udev_events") is None else (
        f"udev processed {last['udev_events']} of the kernel's "
        f"{last.get('kernel_uevents')} uevents"
        + ("" if unread is None else f", {unread} bytes unread by udevd"))
    return [f"{INDENT}the wait for {last.get('request')} ran out at "
            f"{last.get('s')} s with {last.get('paths')} paths in maps "
            f"({last.get('ready')} ready): {udev}; multipathd removed "
            f"{last.get('mpd_removed')} and added {last.get('mpd_added')} "
            "paths"]
