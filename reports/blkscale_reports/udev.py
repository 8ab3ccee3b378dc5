"""udev in the guest (guest.udev): per run, the udev version, how its
events went, the time from the last disk's uevent until udev settled,
udev's CPU per disk and each disk's latency from its kernel uevent to
udev's event, the by-id and by-path links the census found against the
disks, and udev's own failures (worker timeouts, rules that failed).

Figures come from results.json's udev section and census.links, through
blkscale.results.udevfigures."""

from blkscale.results import udevfigures

from .table import Table, fmt


def tables(run):
    """The section's table, or {} when no run had udev."""
    t = Table("udev", "udev in the guest, per run",
              ["Topology", "Variant", "Repeat", "udev", "Coldplug",
               "Events (udev/kernel)", "Settled after last disk (s)",
               "CPU per disk (ms)", "Latency median / p90 / max (ms)",
               "by-id (with / without / excused)", "by-path",
               "Workers slow / killed", "Rule failures"])
    for e in run.with_results():
        fig = udevfigures.of(e.doc)
        if fig is None:
            continue
        t.rows.append([
            e.topology, e.variant, fmt(e.repeat), fig["version"] or "-",
            fig["coldplug"] or "-",
            f"{fmt(fig['udev_events'])}/{fmt(fig['kernel_events'])}",
            fmt(fig["settle_after_last_disk_s"], 2),
            fmt(fig["cpu_ms_per_disk"], 2),
            " / ".join(fmt(fig[k], 1) for k in
                       ("latency_median_ms", "latency_p90_ms",
                        "latency_max_ms")),
            " / ".join(fmt(fig[k]) for k in
                       ("disks_with_by_id", "disks_without_by_id",
                        "disks_excused")),
            fmt(fig["disks_with_by_path"]),
            f"{fmt(fig['worker_slow'])} / {fmt(fig['worker_killed'])}",
            fmt(fig["rule_failures"])])
    return {"udev": t} if t.rows else {}
