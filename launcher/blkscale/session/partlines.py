"""The run's lines for the partitions step: what a full read of
/proc/partitions and /proc/diskstats cost, and what the reads interleaved
with a deleted disk missed or repeated (partbench, guest-tools)."""

from collections.abc import Mapping

from ..results import runresults

FILES = ("partitions", "diskstats")
INDENT = " " * 11
# Names of missed or repeated disks a line shows.
NAMES_SHOWN = 3


def _names(check, key):
    names = check.get(key)
    if not isinstance(names, list) or not names:
        return ""
    more = ", ..." if len(names) > NAMES_SHOWN else ""
    return " (" + ", ".join(str(n) for n in names[:NAMES_SHOWN]) + more + ")"


def _check_text(name, check):
    if not isinstance(check, Mapping):
        return None
    if check.get("run") is not True:
        return f"{name} not run: {check.get('reason')}"
    return (f"{name} {check.get('missed_count')} missed"
            f"{_names(check, 'missed')}, {check.get('repeated_count')} "
            f"repeated{_names(check, 'repeated')}")


def lines(results_path, steps):
    """Lines for one variant's run: none without the step or its
    results."""
    if not results_path or "partitions" not in [s["name"] for s in steps]:
        return []
    res = runresults.read(results_path)
    if res is None:
        return []
    section = res.section("partitions")
    out = []
    costs = [f"/proc/{name} {ns / 1e6:.2f} ms" for name in FILES
             if (ns := res.figure(f"{name}_ns_per_read")) is not None]
    if costs:
        out.append(f"{INDENT}full read: " + ", ".join(costs) +
                   f" ({section.get('disks')} disks)")
    interleave = section.get("interleave")
    checks = [text for name in FILES
              if (text := _check_text(name, (interleave or {}).get(name)))]
    if checks:
        out.append(f"{INDENT}read while a disk is deleted: " +
                   "; ".join(checks))
    return out
