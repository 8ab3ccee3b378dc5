"""What the host's load could explain, for verdicts on timings.

hostload.py records the share s of the host's CPU the rest of the
machine (and the hypervisor's steal) took during each run.  Under TCG a
guest is CPU-bound, so a run that had a share s taken by others ran up
to 1/(1 - s) slower.  The share counts as it was measured, whatever its
size: a run at 24% and one at 26% are explained alike, and an idle run
explains next to nothing.  (A run is still *marked* loaded, for tables
and nightly.json, when others took more than the sweep's
`max_host_load` cores.)  What that can explain:

- an absolute time (a ceiling, a goal on seconds): up to 1/(1 - s) more,
  never less; so only a failure can be load's doing;
- a ratio of two runs made minutes apart (patched over stock, one
  repeat): a steady load slows both alike, so load can move the ratio
  at most by the ratio of the two runs' free CPU, (1 - s_low) /
  (1 - s_high), in either direction;
- a figure over several runs (a curve's marginal growth): the same,
  over the least and the most loaded of its runs.

A verdict resting on loaded runs stands only when it still holds with
every repeat moved against it by that factor; otherwise it is
inconclusive.  In-guest per-call costs (register, lookup, /proc/devices
reads) are timed inside the guest around one call and barely move
under load: they get no band (metrics.CALL).  Runs without a recorded
load count as not loaded, and the check says so.
"""

import math

from .stats import Summary

from .hostload import MAX_HOST_LOAD, MIN_WALL_S, STEAL_SHARE

DEFAULT_MAX_HOST_LOAD = MAX_HOST_LOAD     # cores taken by others
# A share this close to the whole host would make any figure explicable.
MAX_SHARE = 0.95


def share_of(entry):
    """The share of the host others and the hypervisor took during a
    run, as measured; None when the run recorded no load."""
    load = (entry or {}).get("host_load")
    if not load or load.get("others_cpu_share") is None:
        return None
    if (entry.get("wall_s") or 0.0) < MIN_WALL_S:
        return 0.0      # a few ticks of anything look like load
    share = float(load["others_cpu_share"])
    steal = float(load.get("steal_share") or 0.0)
    return min(max(share + steal, 0.0), MAX_SHARE)


def marked_loaded(entry, max_host_load, cpus):
    """Whether others took more than max_host_load cores during a run
    (or the hypervisor stole more than STEAL_SHARE): a label for
    readers, not what a verdict discounts."""
    load = (entry or {}).get("host_load") or {}
    if load.get("others_cpu_share") is None or \
            (entry.get("wall_s") or 0.0) < MIN_WALL_S:
        return False
    return float(load["others_cpu_share"]) * cpus > max_host_load or \
        float(load.get("steal_share") or 0.0) > STEAL_SHARE


class Loads:
    """{(topology, variant, repeat): share} of a sweep's runs."""

    def __init__(self, manifest, max_host_load=DEFAULT_MAX_HOST_LOAD):
        self.max_host_load = max_host_load
        cpus = (manifest or {}).get("host_cpus") or 1
        self.shares = {}
        self.unrecorded = set()
        self.labelled = set()
        for r in (manifest or {}).get("runs") or []:
            if r.get("superseded"):
                continue
            key = (r.get("topology"), r.get("variant"), r.get("repeat", 1))
            s = share_of(r)
            if s is None:
                self.unrecorded.add(key)
            self.shares[key] = s or 0.0
            if marked_loaded(r, max_host_load, cpus):
                self.labelled.add(key)

    def share(self, topo, variant, rep):
        return self.shares.get((topo, variant, rep), 0.0)

    def loaded(self, topo, variant, rep):
        return (topo, variant, rep) in self.labelled

    def marked(self):
        """{(topology, variant, repeat)} of the runs marked loaded."""
        return set(self.labelled)


def _factor(shares):
    shares = list(shares)
    return (1.0 - min(shares)) / (1.0 - max(shares)) if shares else 1.0


def absolute_band(summary, loads, topo, variant):
    """(low, high, factor) of an absolute time: load only adds time, so
    the low side is the repeats divided by what their load explains."""
    lows, worst = {}, 1.0
    for k, v in summary.values.items():
        f = 1.0 / (1.0 - loads.share(topo, variant, k))
        worst = max(worst, f)
        lows[k] = v / f
    return Summary.of(lows), summary, worst


def ratio_shifts(values, loads, topo, variant, reference):
    """(down, up): {repeat: log factor} by which load could have moved
    each paired ratio of `values` ({repeat: ratio}), either way."""
    shifts = {k: math.log(_factor([loads.share(topo, variant, k),
                                   loads.share(topo, reference, k)]))
              for k in values}
    return shifts, dict(shifts)


def absolute_shifts(values, loads, topo, variant):
    """(down, up) of an absolute time: load only adds time, so it may
    have moved a repeat up by -log(1 - s), never down."""
    return {k: -math.log(1.0 - loads.share(topo, variant, k))
            for k in values}, {}


def runs_factor(loads, keys):
    """What load could explain in a figure computed from several runs
    ({(topology, variant, repeat)})."""
    return _factor([loads.share(*k) for k in keys])
