"""Volumes of killed runs (libvirt/orphans.py): removed only when this
machine's lock file of the run is unlocked, names the host, and no
domain has the run's name; checked on libvirt's test driver, whose pool
and domain `test` are a host's in miniature.  test_libvirt_volumes.py
SIGKILLs a real run on a private libvirtd."""

import os

import pytest

from blkscale.libvirt import orphans

URI = "test:///default"


@pytest.fixture
def host():
    libvirt = pytest.importorskip("libvirt")
    libvirt.registerErrorHandler(lambda _c, _e: None, None)
    conn = libvirt.open(URI)
    pool = conn.storagePoolLookupByName("default-pool")
    yield conn, pool
    conn.close()


def volume(pool, name):
    pool.createXML(f"<volume><name>{name}</name><capacity>1024</capacity>"
                   "</volume>", 0)


def run_dir(root, suffix, uri, prefix, alive=False):
    """A run's temporary directory with its lock file; alive: the lock
    stays held (the returned file)."""
    tmpdir = root / f"blkscale-stock-{suffix}"
    tmpdir.mkdir()
    lock = orphans.claim(str(tmpdir), uri, prefix)
    if not alive:
        orphans.release(lock)
        return tmpdir, None
    return tmpdir, lock


def test_only_provable_orphans_go(host, tmp_path):
    conn, pool = host
    dead = "blkscale-t-stock-dead0001"
    live = "blkscale-t-stock-live0001"
    other_host = "blkscale-t-stock-else0001"
    no_lock = "blkscale-t-stock-none0001"
    for prefix in (dead, live, other_host, no_lock, "test"):
        for tail in ("initrd.cpio", "disk.img"):
            volume(pool, f"{prefix}.{tail}")
    dead_dir, _ = run_dir(tmp_path, "dead0001", URI, dead)
    live_dir, held = run_dir(tmp_path, "live0001", URI, live, alive=True)
    run_dir(tmp_path, "else0001", "qemu+ssh://elsewhere/system", other_host)
    # The test driver's running domain is named "test": its volumes are
    # in use, whatever its lock says.
    used_dir, _ = run_dir(tmp_path, "used0001", URI, "test")
    try:
        removed = orphans.remove(conn, pool, URI, root=str(tmp_path))
        assert sorted(removed) == [f"{dead}.disk.img", f"{dead}.initrd.cpio"]
        left = set(pool.listVolumes())
        assert not any(n.startswith(dead + ".") for n in left)
        for prefix in (live, other_host, no_lock, "test"):
            assert {f"{prefix}.initrd.cpio", f"{prefix}.disk.img"} <= left
        assert not dead_dir.exists()
        assert live_dir.exists() and used_dir.exists()
        # The live run ends: its volumes are now a dead run's.
        orphans.release(held)
        assert sorted(orphans.remove(conn, pool, URI, root=str(tmp_path))) \
            == [f"{live}.disk.img", f"{live}.initrd.cpio"]
    finally:
        orphans.release(held)
        for name in pool.listVolumes():
            if name.startswith(("blkscale-t-", "test.")):
                pool.storageVolLookupByName(name).delete(0)


def test_an_unlocked_draft_is_never_a_lock(tmp_path):
    """claim() locks before the file takes its name: a search never sees
    a run's lock file unlocked while the run lives."""
    tmpdir = tmp_path / "blkscale-stock-abcd0001"
    tmpdir.mkdir()
    lock = orphans.claim(str(tmpdir), URI, "p")
    try:
        assert sorted(os.listdir(tmpdir)) == [orphans.LOCK]
        assert orphans.abandoned_runs(URI, str(tmp_path)) == []
    finally:
        orphans.release(lock)
    assert orphans.abandoned_runs(URI, str(tmp_path)) == [(str(tmpdir), "p")]
