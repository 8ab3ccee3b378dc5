"""How busy the host was while a run ran: the load average before and
after, CPU steal, and the CPU the run itself used, so that a figure
measured while something else ran on the machine can be told apart.

The CPU the rest of the host used during the run is the host's busy
time (/proc/stat, all CPUs) minus the run's own (getrusage of the
launcher child, which includes QEMU it waited for).  A run is marked
`loaded` when the rest used more than MAX_HOST_LOAD cores
or the hypervisor stole more than STEAL_SHARE of them (runs shorter
than MIN_WALL_S are left unjudged: `loaded` is null).
"""

import os
import resource
import time

# Cores the rest of the host may take before a run is marked loaded (a
# sweep file's max_host_load says otherwise for its verdicts).
MAX_HOST_LOAD = 0.5
STEAL_SHARE = 0.05
# Shorter runs are not judged: a few ticks of anything look like load.
MIN_WALL_S = 5.0
# /proc/stat cpu line: user nice system idle iowait irq softirq steal ...
_IDLE, _IOWAIT, _STEAL = 3, 4, 7


def _loadavg(path="/proc/loadavg"):
    try:
        with open(path) as f:
            return [float(x) for x in f.read().split()[:3]]
    except (OSError, ValueError):
        return None


def _cpu_ticks(path="/proc/stat"):
    """(busy, steal, total) ticks of all CPUs, or None."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("cpu "):
                    ticks = [int(x) for x in line.split()[1:9]]
                    break
            else:
                return None
    except (OSError, ValueError):
        return None
    ticks += [0] * (8 - len(ticks))
    total = sum(ticks)
    idle = ticks[_IDLE] + ticks[_IOWAIT]
    return total - idle - ticks[_STEAL], ticks[_STEAL], total


def _children_cpu_s():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def sample(stat="/proc/stat", loadavg="/proc/loadavg"):
    return {"loadavg": _loadavg(loadavg), "ticks": _cpu_ticks(stat),
            "children_cpu_s": _children_cpu_s(),
            "monotonic": time.monotonic()}


def summarise(before, after, cpus=None, hz=None):
    """The manifest's `host_load` of one run from two samples."""
    cpus = cpus or os.cpu_count() or 1
    hz = hz or os.sysconf("SC_CLK_TCK")
    wall = max(after["monotonic"] - before["monotonic"], 1e-9)
    own = max(after["children_cpu_s"] - before["children_cpu_s"], 0.0)
    out = {"loadavg_before": before["loadavg"],
           "loadavg_after": after["loadavg"],
           "run_cpu_s": round(own, 3), "steal_share": None,
           "others_cpu_share": None, "loaded": None}
    if before["ticks"] and after["ticks"]:
        busy = (after["ticks"][0] - before["ticks"][0]) / hz
        steal = (after["ticks"][1] - before["ticks"][1]) / hz
        others = max(busy - own, 0.0) / (wall * cpus)
        out["steal_share"] = round(steal / (wall * cpus), 4)
        out["others_cpu_share"] = round(others, 4)
        if wall >= MIN_WALL_S:
            out["loaded"] = others * cpus > MAX_HOST_LOAD or \
                out["steal_share"] > STEAL_SHARE
    return out


def mark(entry):
    """A short note for tables on a run made on a loaded host, or ""."""
    load = entry.get("host_load") or {}
    if not load.get("loaded"):
        return ""
    parts = []
    if load.get("others_cpu_share") is not None:
        parts.append(f"other work used {100 * load['others_cpu_share']:.0f}%"
                     " of the host's CPU")
    if load.get("steal_share"):
        parts.append(f"steal {100 * load['steal_share']:.0f}%")
    return "loaded host: " + ", ".join(parts)
