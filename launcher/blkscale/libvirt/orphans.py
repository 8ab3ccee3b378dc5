"""Volumes a killed launcher left in a host's pool, and their removal.

A run staged through volumes holds a lock on `staging.lock` in its
temporary directory for as long as it lives; the file names the host's
URI and the prefix of the run's volumes (its domain's name, which ends
like the directory's name).  A launcher killed with SIGKILL cleans
nothing: its directory and its volumes stay, and its lock goes with the
process.  The next run through volumes on that host, and `hosts check`,
remove what they can prove is such a run's:

- the lock file is in this machine's temporary directory, and nobody
  holds its lock (the run that made it is gone);
- it names this host;
- no domain of the host has the run's name (none uses the volumes).

Then the volumes `<prefix>.*` go, and the directory with them.  Volumes
of runs from another machine, or whose directory is gone, are left.
"""

import fcntl
import glob
import json
import os
import shutil
import tempfile

try:
    import libvirt
except ImportError:
    libvirt = None

LOCK = "staging.lock"


def claim(tmpdir, uri, prefix):
    """Lock `tmpdir/staging.lock` naming the run's volumes; returns the
    open file, to keep (closing it, or the process ending, releases)."""
    draft = os.path.join(tmpdir, f".{LOCK}")
    f = open(draft, "w")
    fcntl.flock(f, fcntl.LOCK_EX)
    json.dump({"uri": uri, "prefix": prefix}, f)
    f.flush()
    # Only a locked file takes the name a search looks for.
    os.rename(draft, os.path.join(tmpdir, LOCK))
    return f


def release(lock):
    if lock is not None:
        lock.close()


def _abandoned(path):
    """What a lock file names, if no process holds its lock; else None."""
    try:
        with open(path) as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return None             # its run is alive
            return json.load(f)
    except (OSError, ValueError):
        return None


def abandoned_runs(uri, root=None):
    """(temporary directory, volume prefix) of every dead run of this
    machine that staged volumes on `uri`."""
    pattern = os.path.join(root or tempfile.gettempdir(), "blkscale-*", LOCK)
    found = []
    for path in sorted(glob.glob(pattern)):
        named = _abandoned(path)
        if isinstance(named, dict) and named.get("uri") == uri and \
                isinstance(named.get("prefix"), str):
            found.append((os.path.dirname(path), named["prefix"]))
    return found


def _in_use(conn, name):
    try:
        conn.lookupByName(name)
        return True
    except libvirt.libvirtError:
        return False


def remove(conn, pool, uri, root=None):
    """Delete the volumes of dead runs of this machine on this host;
    returns the names deleted."""
    removed = []
    pool.refresh(0)
    names = pool.listVolumes()
    for tmpdir, prefix in abandoned_runs(uri, root):
        if _in_use(conn, prefix):
            continue
        left = False
        for name in names:
            if not name.startswith(prefix + "."):
                continue
            try:
                pool.storageVolLookupByName(name).delete(0)
                removed.append(name)
            except libvirt.libvirtError:
                left = True
        if not left:
            shutil.rmtree(tmpdir, ignore_errors=True)
    return removed
