"""A sweep over several libvirt hosts: one work queue (workqueue.py),
each host running its units through the launcher's libvirt backend
(`blkscale run --backend libvirt --libvirt-uri URI`).

A unit's runs keep the interleaved order of order.py and all run on one
host, so their ratios are same-host ratios.  When a host fails, the runs
it made of the unit are kept under moved/ and marked superseded in the
manifest, and the whole unit runs again on another host.
"""

import os
import shutil
import threading
import time

from blkscale.figures import hostload

from ..hosts import label
from . import launch, workqueue
from .hostinfo import now_iso
from .order import out_rel

# Launcher outcomes that say the host, not the guest, failed.
LAUNCH_FAILURE = "launch-failure"
GUEST_STATUSES = (0, 1)          # ok, a guest step failed
LAUNCHER_USAGE = 2
MOVED = "moved"


def host_facts(hosts):
    """{uri: facts} from the launcher's `hosts check`, one call per
    staging asked for."""
    facts = {}
    for staging in dict.fromkeys(h.staging for h in hosts):
        facts.update(launch.hosts_check(
            [h.uri for h in hosts if h.staging == staging], staging))
    return facts


def manifest_hosts(hosts, facts):
    """The manifest's `hosts`: what each host is, and what happened."""
    out = []
    for h in hosts:
        f = facts.get(h.uri) or {}
        out.append({
            "uri": h.uri,
            "label": label(h.uri),
            "slots": h.slots,
            "staging": h.staging_used,
            "usable": bool(f.get("ok")),
            "problem": f.get("problem"),
            "cpu_model": f.get("cpu_model"),
            "cpus": f.get("cpus"),
            "qemu_version": f.get("qemu_version"),
            "libvirt_version": f.get("libvirt_version"),
            "accelerators": f.get("accelerators"),
            "accelerator": None,        # the one its runs used
            "failed": None,             # why it left the queue
            "units": [],
        })
    return out


class HostRunner:
    """run_unit() for workqueue.run: the unit's runs on one host."""

    def __init__(self, sweep, run_dir, staging, manifest, progress, state,
                 entry_of, display_argv):
        self.sweep = sweep
        self.run_dir = run_dir
        self.staging = staging
        self.manifest = manifest
        self.progress = progress
        self.state = state
        self.entry_of = entry_of
        self.display_argv = display_argv
        self.lock = threading.Lock()
        self.index = 0
        self.refused = None
        self.statuses = []
        self.accel = {}             # uri -> accelerator its runs use
        self.queue = None

    def __call__(self, unit, uri):
        attempt = len(unit.hosts)
        with self.lock:
            if attempt > 1:
                self.progress.total += len(unit.runs)
            self.manifest.host_took(uri, unit.key)
        for planned in unit.runs:
            if self.state.stopping or self.refused:
                self.queue.stop()
                return workqueue.Finished()
            entry = self._one(unit, uri, attempt, planned)
            status = entry["exit_status"]
            if self.state.stopping:
                continue
            if status == LAUNCHER_USAGE:
                with self.lock:
                    self.refused = self.refused or entry["message"]
                self.queue.stop()
                return workqueue.Finished()
            reason = self._host_fault(entry, uri)
            if reason:
                with self.lock:
                    self.manifest.host_failed(uri, reason)
                self._supersede(unit, attempt)
                return workqueue.HostFailed(reason)
        return workqueue.Finished()

    def _one(self, unit, uri, attempt, planned):
        topo, variant, repeat = (planned.topology, planned.variant,
                                 planned.repeat)
        out_dir = os.path.join(self.run_dir, out_rel(
            topo.name, variant, repeat, self.sweep.repeat))
        os.makedirs(out_dir, exist_ok=True)
        staged_id = f"{topo.name}.{variant}.{repeat}"
        if attempt > 1:
            staged_id = f"a{attempt}-{staged_id}"
        with self.lock:
            accel = self.accel.get(uri, self.sweep.accel)
            self.index += 1
            index = self.index
        argv = launch.run_argv(topo, variant, self.staging, staged_id, accel,
                               host=uri,
                               host_staging=self._host_of(uri).staging,
                               qemu=self.sweep.qemu)
        started = now_iso()
        t0 = time.monotonic()
        load0 = hostload.sample()
        status, killed = launch.run(
            argv, os.path.join(out_dir, "launcher.log"), self.state)
        load = unjudged(hostload.summarise(load0, hostload.sample()))
        launched = launch.collect(os.path.join(self.staging, staged_id),
                                  variant, out_dir)
        entry = self.entry_of(self.run_dir, topo, variant,
                              self.display_argv(argv), status, killed,
                              self.state.stopping, out_dir, started,
                              time.monotonic() - t0, launched, repeat, load)
        entry.update(host=uri, unit=unit.key, attempt=attempt,
                     superseded=False)
        with self.lock:
            if self.accel.get(uri, "auto") == "auto" and \
                    entry["accelerator"]:
                self.accel[uri] = entry["accelerator"]
                self.manifest.host_accelerator(uri, entry["accelerator"])
            self.manifest.add_run(entry)
            self.progress.finished(index, entry)
            self.statuses.append(status)
        return entry

    def _host_of(self, uri):
        return next(h for h in self.sweep.hosts if h.uri == uri)

    def _host_fault(self, entry, uri):
        """Why the host (not the guest) failed this run, or None."""
        status = entry["exit_status"]
        if status in GUEST_STATUSES or entry["outcome"] in (
                "interrupted", "killed"):
            return None
        facts = launch.hosts_check([uri], self._host_of(uri).staging)[uri]
        if not facts.get("ok"):
            return facts.get("problem") or "host check failed"
        if entry["outcome"] == LAUNCH_FAILURE:
            return f"a domain could not start: {entry['message']}"
        return None

    def _supersede(self, unit, attempt):
        """Move the unit's directories of this attempt under moved/ and
        mark its runs superseded: they do not count."""
        dest = os.path.join(MOVED, f"{unit.key}.{attempt}")
        with self.lock:
            for topo in unit.topologies:
                src = os.path.join(self.run_dir, topo.name)
                if os.path.isdir(src):
                    os.makedirs(os.path.join(self.run_dir, dest),
                                exist_ok=True)
                    shutil.move(src, os.path.join(self.run_dir, dest,
                                                  topo.name))
            self.manifest.supersede(unit.key, attempt, dest)



def unjudged(load):
    """This machine's load during a run on a libvirt host, not judged:
    the guest's QEMU is libvirtd's child, not the launcher's, so its CPU
    time is not the run's own, other slots' runs overlap it, and a host
    over the network has a load of its own."""
    load.update(run_cpu_s=None, others_cpu_share=None, loaded=None,
                note="not judged on libvirt hosts")
    return load
