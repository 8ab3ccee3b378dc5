"""udev's figures of one results.json (guest.udev): the guest's `udev`
section and the census's by-id and by-path links, reduced to what the
summary, bench and reports show.  None for a run without udev."""

from .runresults import Results, lookup, number

# The figures, in the order a line shows them.
NAMES = ("settle_after_last_disk_s", "cpu_ms_per_disk", "latency_median_ms",
         "latency_p90_ms", "kernel_events", "udev_events")


def of(doc):
    """{figure: value} of a run with udev, or None."""
    results = Results.of(doc)
    udev = results.section("udev")
    if not udev:
        return None
    monitor = udev.get("monitor") or {}
    cpu = udev.get("cpu") or {}
    log = udev.get("log") or {}
    links = lookup(results.body, "census", "links") or {}
    # udev's last event: settle found the queue empty after it (settled_s
    # itself is when /init got round to asking, later on a slow guest)
    settled = number(monitor.get("last_udev_s")) \
        if udev.get("settle_exit") == 0 else None
    last = number(monitor.get("last_disk_kernel_s"))
    hz = number(cpu.get("hz"))
    ticks = number(cpu.get("udevd_and_workers_ticks"))
    disks = results.disks_found_total
    latency = udev.get("disk_latency_ms") or {}
    return {
        "version": udev.get("package") or udev.get("udevadm_version"),
        "coldplug": udev.get("coldplug"),
        "settle_exit": udev.get("settle_exit"),
        "settle_after_last_disk_s": round(settled - last, 3)
        if settled is not None and last is not None else None,
        "cpu_ms_per_disk": round(1000.0 * ticks / hz / disks, 2)
        if ticks is not None and hz and disks else None,
        "latency_median_ms": number(latency.get("median")),
        "latency_p90_ms": number(latency.get("p90")),
        "latency_max_ms": number(latency.get("max")),
        "kernel_events": number(monitor.get("kernel_events")),
        "udev_events": number(monitor.get("udev_events")),
        "udevd_uevent_drops": number(udev.get("udevd_uevent_drops")),
        "disks_with_by_id": number(links.get("disks_with_by_id")),
        "disks_without_by_id": number(links.get("disks_without_by_id")),
        "disks_excused": number(links.get("disks_excused")),
        "disks_with_by_path": number(links.get("disks_with_by_path")),
        "worker_slow": number(log.get("worker_slow")),
        "worker_killed": number(log.get("worker_killed")),
        "rule_failures": number(log.get("rule_failures")),
    }


def _num(value, digits=2):
    return "-" if value is None else f"{value:.{digits}f}"


def _count(value):
    return "-" if value is None else str(value)


def line(fig):
    """One summary line of a run's udev figures."""
    return (f"{fig['version'] or 'udev ?'} ({fig['coldplug'] or '?'}): "
            f"{_count(fig['udev_events'])}/{_count(fig['kernel_events'])} "
            "events handled, settled "
            f"{_num(fig['settle_after_last_disk_s'])} s after the last disk, "
            f"{_num(fig['cpu_ms_per_disk'])} ms CPU per disk, latency "
            f"median {_num(fig['latency_median_ms'], 1)} ms, "
            f"p90 {_num(fig['latency_p90_ms'], 1)} ms"
            + (f"; udevd's uevent socket dropped "
               f"{_count(fig['udevd_uevent_drops'])} events"
               if fig.get("udevd_uevent_drops") else ""))


def links_line(fig):
    """The by-id and by-path links against the disks, and udev's failures."""
    return (f"udev links: by-id {_count(fig['disks_with_by_id'])} disks, "
            f"{_count(fig['disks_without_by_id'])} without, "
            f"{_count(fig['disks_excused'])} excused; by-path "
            f"{_count(fig['disks_with_by_path'])}; workers slow "
            f"{_count(fig['worker_slow'])}, killed "
            f"{_count(fig['worker_killed'])}; rule failures "
            f"{_count(fig['rule_failures'])}")
