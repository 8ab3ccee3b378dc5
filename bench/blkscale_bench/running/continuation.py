"""A sweep a signal stopped or a sitting cut off, continued later.

A sweep of many kernels takes longer than one sitting on a shared
machine.  Continuing it makes only the runs it has not made, in the
order it planned them, into the same run directory, so its figures are
one sweep's.  That holds only if nothing it measures changed in
between: the same sweep (topologies, variants, repeats, QEMU), the same
kernel images and initramfs of every variant (their SHA-256 at the
start; for a sweep begun before they were recorded, images not written
since it started).  Anything else is a new sweep, and why_not() says
which.  A sweep holds its directory's lock while it runs, so that one
found `running` is continued only when nothing runs it any more.
"""

import contextlib
import fcntl
import hashlib
import os
import shutil
from datetime import datetime

from blkscale.paths import initramfs, kernel_dir
from blkscale.results.manifest import STOPPED, set_aside

from . import order

# Where the runs a signal stopped are kept when their slots run again.
STOPPED_DIR = "stopped"
LOCK = ".sweep.lock"
# The launcher's working directories (sweep.STAGING).
STAGING = ".launcher"


@contextlib.contextmanager
def holding(run_dir):
    """The sweep's lock on its directory while it runs."""
    fd = os.open(os.path.join(run_dir, LOCK), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def in_use(run_dir):
    """Whether a sweep holds the directory's lock."""
    try:
        fd = os.open(os.path.join(run_dir, LOCK), os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def _sha256(path):
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


def _files(variant):
    return {"bzImage": kernel_dir(variant) / "bzImage",
            "initramfs": initramfs(variant)}


def fingerprints(variants):
    """{variant: {"bzImage": sha256, "initramfs": sha256}}; None for a
    file not built (a distro variant has its image elsewhere)."""
    return {v: {k: _sha256(p) for k, p in _files(v).items()}
            for v in variants}


def _sweep_differs(recorded, sweep):
    """The first field of the sweep file that differs from the one the
    run was started with, as (field, then, now), or None."""
    now = {
        "topologies": {t.name: t.display for t in sweep.topologies},
        "variants": list(sweep.variants),
        "repeat": sweep.repeat,
        "reference": sweep.reference,
        "schedule": sweep.schedule,
        "accel_requested": sweep.accel,
    }
    for field, value in now.items():
        if recorded.get(field) != value:
            return field, recorded.get(field), value
    return None


def _started_epoch(doc):
    try:
        return datetime.fromisoformat(doc["started"]).timestamp()
    except (KeyError, TypeError, ValueError):
        return None


def _build_changed(doc, variants):
    """The first kernel file rebuilt since the sweep started, as text,
    or None."""
    recorded = doc.get("builds")
    if recorded is not None:
        now = fingerprints(variants)
        for v in variants:
            for kind, digest in (recorded.get(v) or {}).items():
                if now[v].get(kind) != digest:
                    return f"{v}'s {kind} is not the one it started with"
        return None
    started = _started_epoch(doc)
    for v in variants:
        for kind, path in _files(v).items():
            try:
                written = os.stat(path).st_mtime
            except OSError:
                continue
            if started is None or written > started:
                return f"{v}'s {kind} was written after it started"
    return None


def why_not(doc, sweep, qemu, running):
    """Why the sweep of the manifest document `doc` cannot be continued
    as `sweep` with the QEMU that hostinfo.qemu_facts() describes as
    `qemu`, or None if it can: stopped by a signal, or found `running`
    with nothing running it (running: in_use() of its directory), a
    sitting cut off outright."""
    status = doc.get("status")
    reason = doc.get("partial_reason") or ""
    if status == "complete":
        return "it is complete"
    if status == "running":
        if running:
            return "it is running"
    elif status != "partial" or not reason.startswith("interrupted"):
        return (f"it ended {status} ({reason or 'no reason recorded'}), "
                "not stopped by a signal")
    if doc.get("rounds"):
        return "the nightly added repeats to it"
    if sweep.hosts or doc.get("hosts"):
        return "it ran on libvirt hosts"
    differs = _sweep_differs(doc.get("sweep") or {}, sweep)
    if differs:
        field, then, now = differs
        return f"its sweep's {field} was {then!r}, now {now!r}"
    for key, value in qemu.items():
        if doc.get(key) != value:
            then = doc.get(key)
            if key == "qemu":
                return ("its QEMU binary, or that binary's patches, is not "
                        "the one it started with")
            return f"it ran on {then!r}, now {value!r}"
    return _build_changed(doc, sweep.variants)


def remaining(doc, sweep):
    """The planned runs (order.plan) it has not made: every slot without
    a run that counts."""
    made = {(e["topology"], e["variant"], e.get("repeat", 1))
            for e in doc.get("runs") or [] if not e.get("superseded")}
    return [p for p in order.plan(sweep.topologies, sweep.variants,
                                  sweep.repeat)
            if (p.topology.name, p.variant, p.repeat) not in made]


def _move(run_dir, rel, moved):
    if os.path.isdir(os.path.join(run_dir, rel)):
        os.makedirs(os.path.dirname(os.path.join(run_dir, moved)),
                    exist_ok=True)
        shutil.move(os.path.join(run_dir, rel), os.path.join(run_dir, moved))


def set_aside_stopped(run_dir, doc, sweep, sitting):
    """The runs a signal stopped no longer count: marked superseded and
    their files moved under stopped/<sitting>/, so that their slots can
    run again; so are the files of a run a sitting cut off before its
    entry was written, and the launcher's working directories."""
    aside = f"{STOPPED_DIR}/{sitting}"
    for entry in doc.get("runs") or []:
        if entry.get("superseded") or entry.get("outcome") not in STOPPED:
            continue
        rel = os.path.dirname(entry["launcher_log"])
        _move(run_dir, rel, f"{aside}/{rel}")
        set_aside(entry, aside, "stopped by a signal; made again when the "
                  "sweep continued")
    for planned in remaining(doc, sweep):
        rel = order.out_rel(planned.topology.name, planned.variant,
                            planned.repeat, sweep.repeat)
        _move(run_dir, rel, f"{aside}/{rel}")
    _move(run_dir, STAGING, f"{aside}/{STAGING}")
