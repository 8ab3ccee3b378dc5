"""The work queue of a sweep over several hosts, without libvirt: units
per topology (merged per series), every unit on one host, a failed
host's unit re-queued to another host once, and never forever."""

import threading

from blkscale_bench.running import workqueue
from blkscale_bench.hosts import Host
from blkscale_bench.sweepfile import Topology

A, B, C = "qemu:///system", "qemu+ssh://b/system", "qemu+ssh://c/system"


def topos(*names):
    return [Topology(n, None, n) for n in names]


def run(units, hosts, outcome):
    """Work the queue; outcome(unit key, uri) -> None (finished) or a
    host failure reason.  Returns (queue, [(unit, uri)] in order)."""
    queue = workqueue.WorkQueue(units, [h.uri for h in hosts])
    calls, lock = [], threading.Lock()

    def run_unit(unit, uri):
        with lock:
            calls.append((unit.key, uri))
        reason = outcome(unit.key, uri)
        return workqueue.HostFailed(reason) if reason else \
            workqueue.Finished()

    workqueue.run(queue, hosts, run_unit)
    return queue, calls


def test_a_unit_is_every_repeat_of_a_topology_interleaved():
    units = workqueue.units(topos("a", "b"), ["stock", "patched"], 2)
    assert [u.key for u in units] == ["a", "b"]
    assert [(p.topology.name, p.variant, p.repeat) for p in units[0].runs] \
        == [("a", "stock", 1), ("a", "patched", 1), ("a", "patched", 2),
            ("a", "stock", 2)]


def test_a_series_is_one_unit():
    """Series as curvespec.py reads them from a sweep file."""
    series = [{"name": "s", "curves": [{"topologies": ["b", "d"]}]},
              {"name": "t", "curves": [{"role": "before",
                                        "topologies": ["d"]},
                                       {"role": "after",
                                        "topologies": ["e"]}]}]
    units = workqueue.units(topos("a", "b", "c", "d", "e"), ["stock"], 1,
                            series)
    assert [u.key for u in units] == ["a", "b+d+e", "c"]


def test_every_unit_runs_once_on_one_of_the_hosts():
    units = workqueue.units(topos("a", "b", "c", "d"), ["stock"], 1)
    queue, calls = run(units, [Host(A), Host(B, slots=2)], lambda k, u: None)
    assert sorted(k for k, _ in calls) == ["a", "b", "c", "d"]
    assert all(u.state == "done" for u in queue.units)
    assert queue.moves == [] and queue.dead == {}


def test_a_failed_hosts_unit_moves_once_and_completes():
    units = workqueue.units(topos("a", "b", "c"), ["stock"], 1)
    b_took = threading.Event()

    def outcome(_key, uri):
        if uri == B:
            b_took.set()
            return "libvirtd is gone"
        b_took.wait(10)     # let B take a unit before A empties the queue
        return None

    queue, calls = run(units, [Host(A), Host(B)], outcome)
    failed_on_b = [k for k, u in calls if u == B]
    assert len(failed_on_b) == 1, "a dead host must leave the queue"
    assert (failed_on_b[0], A) in calls, "its unit must run on A"
    assert all(u.state == "done" for u in queue.units)
    assert queue.dead == {B: "libvirtd is gone"}
    assert queue.moves == [{"unit": failed_on_b[0], "from": B, "to": A,
                            "reason": "libvirtd is gone"}]


def test_a_unit_failing_on_two_hosts_ends_failed_not_retried():
    units = workqueue.units(topos("bad"), ["stock"], 1)
    queue, calls = run(units, [Host(A), Host(B), Host(C)],
                       lambda k, u: f"domain cannot start on {u}")
    assert len(calls) == 2, "re-queued once only"
    assert calls[0][1] != calls[1][1]
    unit = queue.units[0]
    assert unit.state == "failed"
    assert unit.reason.startswith("failed on two hosts: ")
    assert queue.moves[-1]["to"] is None
    assert len(queue.alive) == 1, "the third host is still usable"


def test_no_other_host_left_fails_the_units_instead_of_waiting():
    units = workqueue.units(topos("a", "b"), ["stock"], 1)
    queue, calls = run(units, [Host(A)], lambda k, u: "unreachable")
    assert calls == [("a", A)]
    assert [u.state for u in queue.units] == ["failed", "failed"]
    assert all("no other host left" in u.reason for u in queue.units)


def test_stop_hands_out_nothing_more():
    units = workqueue.units(topos("a", "b", "c"), ["stock"], 1)
    queue = workqueue.WorkQueue(units, [A])
    first = queue.take(A)
    queue.stop()
    queue.finish(first, A, workqueue.Finished())
    assert queue.take(A) is None
    assert [u.key for u in queue.not_run()] == ["b", "c"]
