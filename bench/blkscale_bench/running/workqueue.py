"""One work queue for a sweep over several hosts.

A unit is what must run on one host: every repeat of every variant of
one topology (in the interleaved order of order.py), or of all the
topologies of a boot-curve series, whose points are compared with each
other.  Each host runs `slots` units at a time.  A host that fails
(unreachable, libvirtd gone, a domain that cannot start) leaves the
queue, and the unit it was running goes back to the front of the queue
for another host, once: a unit that fails on a second host ends failed,
and so does one with no other host left.
"""

import threading
from dataclasses import dataclass, field

from . import order


@dataclass
class Unit:
    key: str                    # topology names joined by "+"
    topologies: list            # sweepfile.Topology
    runs: list                  # order.Planned, in running order
    hosts: list = field(default_factory=list)   # uris it was started on
    failures: list = field(default_factory=list)  # (uri, reason)
    state: str = "pending"      # pending, running, done, failed
    reason: str = None          # why it failed


@dataclass
class Finished:
    """A unit's end on a host: every run made (guest failures included)."""


@dataclass
class HostFailed:
    """The host could not run the unit; its runs so far do not count."""
    reason: str


def units(topologies, variants, repeat, series=()):
    """The sweep's units: one per topology, merged for the topologies of
    one series (a curve's points must be same-host points)."""
    group = {t.name: {t.name} for t in topologies}
    for s in series:
        # curvespec.py: {"name", "title", "curves": [{"topologies"}]}
        names = [n for curve in s.get("curves") or []
                 for n in curve.get("topologies") or [] if n in group]
        merged = set().union(*(group[n] for n in names)) if names else set()
        for n in merged:
            group[n] = merged
    out, seen = [], set()
    for t in topologies:
        members = [u for u in topologies if u.name in group[t.name]]
        key = "+".join(u.name for u in members)
        if key in seen:
            continue
        seen.add(key)
        out.append(Unit(key, members, order.plan(members, variants, repeat)))
    return out


class WorkQueue:
    def __init__(self, units, uris):
        self.units = list(units)
        self.pending = list(units)
        self.alive = list(uris)
        self.dead = {}              # uri -> reason
        self.moves = []             # {unit, from, to (None: failed), reason}
        self.running = 0
        self.stopped = False
        self._cond = threading.Condition()

    def take(self, uri):
        """The next unit for uri, waiting while a unit running elsewhere
        may still come back; None when there is nothing left for it."""
        with self._cond:
            while True:
                if self.stopped or uri not in self.alive:
                    return None
                for unit in self.pending:
                    if all(u != uri for u, _ in unit.failures):
                        self.pending.remove(unit)
                        unit.state = "running"
                        unit.hosts.append(uri)
                        self.running += 1
                        return unit
                if not self.running:
                    return None
                self._cond.wait()

    def finish(self, unit, uri, result):
        with self._cond:
            self.running -= 1
            if isinstance(result, HostFailed):
                self._host_failed(unit, uri, result.reason)
            else:
                unit.state = "done"
            self._cond.notify_all()

    def _host_failed(self, unit, uri, reason):
        if uri in self.alive:
            self.alive.remove(uri)
            self.dead[uri] = reason
        unit.failures.append((uri, reason))
        if self.stopped:
            unit.state = "failed"
            unit.reason = f"{uri}: {reason}"
        elif len(unit.failures) > 1:
            self._fail(unit, "failed on two hosts: " + "; ".join(
                f"{u}: {r}" for u, r in unit.failures))
        else:
            unit.state = "pending"
            self.pending.insert(0, unit)
        # A pending unit no living host may take ends now.
        for u in list(self.pending):
            if not any(h not in {f for f, _ in u.failures}
                       for h in self.alive):
                self.pending.remove(u)
                why = "; ".join(f"{f}: {r}" for f, r in u.failures)
                self._fail(u, "no other host left" + (f" ({why})" if why
                                                      else ""))

    def _fail(self, unit, reason):
        unit.state = "failed"
        unit.reason = reason
        self.moves.append({"unit": unit.key, "from": unit.failures[-1][0]
                           if unit.failures else None, "to": None,
                           "reason": reason})

    def moved(self, unit, uri):
        """Record that a re-queued unit started again on uri."""
        with self._cond:
            src, reason = unit.failures[-1]
            self.moves.append({"unit": unit.key, "from": src, "to": uri,
                               "reason": reason})

    def stop(self):
        with self._cond:
            self.stopped = True
            self._cond.notify_all()

    def not_run(self):
        """Units that never ran to the end (stopped, or failed)."""
        return [u for u in self.units if u.state != "done"]


def run(queue, hosts, run_unit):
    """Work the queue with one thread per slot of every host.

    run_unit(unit, uri) returns Finished() or HostFailed(reason); an
    exception it raises counts as a host failure of that unit.
    """
    def worker(uri):
        while True:
            unit = queue.take(uri)
            if unit is None:
                return
            if unit.failures:
                queue.moved(unit, uri)
            try:
                result = run_unit(unit, uri)
            except Exception as e:      # a bug must not hang the sweep
                result = HostFailed(f"{type(e).__name__}: {e}")
            queue.finish(unit, uri, result)

    threads = [threading.Thread(target=worker, args=(h.uri,),
                                name=f"host-{h.uri}-{slot}", daemon=True)
               for h in hosts for slot in range(h.slots)]
    for t in threads:
        t.start()
    for t in threads:
        # join with a timeout keeps the main thread able to take signals.
        while t.is_alive():
            t.join(0.2)
