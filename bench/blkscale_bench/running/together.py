"""Runs started at the same moment: a repeat's variants side by side.

A host whose speed changes from one minute to the next (a busy
neighbour, the hypervisor's own spells) slows two runs made one after
the other by different amounts, and the ratio of their boot times
carries that difference.  Started together, the stock and the patched
guest of a repeat share whatever the host does while they run.
`together-pinned` also gives each its own CPU (taskset), so that the
two guests do not trade one core between them.  Which schedule leaves
the narrowest paired ratios is measured, not assumed: on a 2-core host
neither beat one guest at a time (evidence/20261205-schedules).
"""

import os
import threading
import time
from dataclasses import dataclass

from . import launch


@dataclass
class Job:
    index: int              # its place in the sweep's progress
    planned: object         # order.Planned
    out_dir: str
    staged_id: str
    argv: list              # the launcher command, without taskset
    cpu: int = None         # pinned to this CPU; None: not pinned
    status: int = None
    killed: bool = False
    wall_s: float = None

    @property
    def command(self):
        if self.cpu is None:
            return self.argv
        return ["taskset", "--cpu-list", str(self.cpu), *self.argv]


def groups(plan, schedule):
    """The plan cut into runs that start together: one run each when the
    schedule alternates, else every variant of one topology's repeat."""
    if schedule == "alternate":
        return [[p] for p in plan]
    out = []
    for p in plan:
        if out and (out[-1][0].topology.name, out[-1][0].repeat) == \
                (p.topology.name, p.repeat):
            out[-1].append(p)
        else:
            out.append([p])
    return out


def cpus():
    """The CPUs this process may run on, in order."""
    return sorted(os.sched_getaffinity(0))


def pin(jobs, schedule):
    """Give each job of a group its own CPU under together-pinned (round
    robin when there are more jobs than CPUs)."""
    if schedule != "together-pinned":
        return
    have = cpus()
    for slot, job in enumerate(jobs):
        job.cpu = have[slot % len(have)]


def run(jobs, state, tick=None):
    """Run every job at once and wait for all; each gets its status,
    killed and wall_s.  tick(index, planned, elapsed_s) while they run
    (the first job's only: one live line)."""
    def one(job, live):
        t0 = time.monotonic()
        log = os.path.join(job.out_dir, "launcher.log")
        try:
            job.status, job.killed = launch.run(
                job.command, log, state,
                tick=(lambda s: tick(job.index, job.planned, s))
                if live and tick else None)
        except OSError as e:        # taskset or the launcher not startable
            with open(log, "a") as f:
                f.write(f"{job.command[0]}: {e.strerror}\n")
            job.status = 1
        job.wall_s = time.monotonic() - t0

    if len(jobs) == 1:
        one(jobs[0], True)
        return
    threads = [threading.Thread(target=one, args=(job, i == 0))
               for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
