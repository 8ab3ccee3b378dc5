"""Real boots staged through volumes, on a private libvirtd of this
machine (daemon.PrivateDaemon) forced to `--staging volumes`: the domain
uses only the daemon's storage volumes and streams, no file the launcher
made.  ci-small on both kernels gives the sections a shared run gives;
no volume of a run is left after it ends, after SIGINT (while its files
are sent, or while the guest runs), or when the pool cannot be made; a
SIGKILLed run's volumes go at the next `hosts check`.

They need root, python3-libvirt, libvirtd and both kernels and guest
images (make kernel initramfs); they skip without.
"""

import json
import os
import re
import signal
import subprocess
import time

import pytest

from launchertest import BLKSCALE, REPO, all_files, boot_results, run_cli

from blkscale.libvirt import daemon, staging
from blkscale.libvirt.staging import file_digest, kernel_volume

VARIANTS = ("stock", "patched")


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    libvirt = pytest.importorskip("libvirt")
    from launchertest import need_built
    for v in VARIANTS:
        need_built(v)
    if os.geteuid() != 0:
        pytest.skip("a private libvirtd needs root")
    d = daemon.PrivateDaemon(tmp_path_factory.mktemp("lv-volumes"))
    try:
        d.start()
    except Exception as e:      # not installed: a missing requirement
        pytest.skip(f"cannot start a private libvirtd: {e}")
    libvirt.registerErrorHandler(lambda _c, _e: None, None)
    conn = libvirt.open(d.uri)
    yield d, conn
    conn.close()
    d.stop()


def domains(conn):
    return {dom.name() for dom in conn.listAllDomains()}


def volumes(conn):
    """Names of the volumes in blkscale's pool (none if it is missing)."""
    try:
        pool = conn.storagePoolLookupByName(staging.POOL)
    except Exception:
        return set()
    pool.refresh(0)
    return set(pool.listVolumes())


def kernels():
    from blkscale import paths
    return {kernel_volume(file_digest(paths.kernel_dir(v) / "bzImage"))
            for v in VARIANTS}


def ci_small_serial(tmp_path):
    """ci-small with every kernel line on the console, the first one
    included (the quiet console prints no notice, not even the banner)."""
    path = tmp_path / "ci-small.toml"
    if not path.exists():
        text = (REPO / "topologies" / "ci-small.toml").read_text()
        text = re.sub(r"(?m)^\[guest\]$", '[guest]\nconsole = "serial"', text)
        assert 'console = "serial"' in text
        path.write_text(text)
    return path


def run(uri, tmp_path, run_id, *args, staging_mode="volumes"):
    tmp = tmp_path / f"tmp-{run_id}"
    tmp.mkdir()
    out = run_cli("run", ci_small_serial(tmp_path), "--backend", "libvirt",
                  "--libvirt-uri", uri, "--staging", staging_mode,
                  "--accel", "tcg", "--run-id", run_id, "--results-dir",
                  tmp_path / "results", "--quiet", *args,
                  env={"TMPDIR": str(tmp)}, timeout=1800)
    return out, tmp


def sections(doc):
    """What a run found, without its timings."""
    return {"keys": sorted(doc), "found": doc["disks"]["found"],
            "steps": [(s["name"], s["verdict"]) for s in doc["steps"]],
            "fio": (doc["fio"]["disks"], doc["fio"]["ok"],
                    doc["fio"]["verify"]),
            "census": sorted(doc["census"]) if isinstance(
                doc["census"], dict) else doc["census"]}


def test_volumes_run_gives_what_a_shared_run_gives(host, tmp_path):
    d, conn = host
    results = tmp_path / "results"
    out, tmp = run(d.uri, tmp_path, "vol", "--variant", "stock",
                   "--variant", "patched")
    docs = {v: boot_results(out, results, "vol", v, tmp) for v in VARIANTS}
    assert domains(conn) == set(), "domain left"
    # The kernels stay for the next runs; nothing of the run does.
    assert volumes(conn) == kernels()
    for v, doc in docs.items():
        # The guest's first console line came through the stream.
        console = (results / "vol" / v / "console.log").read_bytes()
        assert console.startswith(b"[    0.000000] Linux version"), \
            console[:200]
        assert doc["warnings"] == []
        command = " ".join(doc["host"]["command"])
        pool = os.path.join(d.path("lib"), "images", staging.POOL)
        # libvirt's own paths: the pool as the daemon sees it.
        assert "-kernel /var/lib/libvirt/images/blkscale/kernel-" in command
        assert str(tmp) not in command and str(REPO) not in command
        assert os.path.isdir(pool)
    shared_out, shared_tmp = run(d.uri, tmp_path, "sh", "--variant",
                                 "patched", staging_mode="shared")
    shared = boot_results(shared_out, results, "sh", "patched", shared_tmp)
    assert sections(docs["patched"]) == sections(shared)
    assert sections(docs["stock"])["found"] == sections(shared)["found"]
    assert volumes(conn) == kernels(), "a shared run makes no volume"


def _uploading(d):
    """True once a run's initramfs volume exists on the host: its upload
    (about 100 MB) is under way."""
    pool = os.path.join(d.path("lib"), "images", staging.POOL)
    try:
        return any(n.endswith(".initrd.cpio") for n in os.listdir(pool))
    except OSError:
        return False


def start_staged(d, tmp_path, tmp, run_id, **popen):
    """ci-small on the patched kernel staged through volumes, in the
    background: the process."""
    return subprocess.Popen(
        [str(BLKSCALE), "run", "topologies/ci-small.toml", "--backend",
         "libvirt", "--libvirt-uri", d.uri, "--staging", "volumes",
         "--variant", "patched", "--accel", "tcg", "--run-id", run_id,
         "--results-dir", str(tmp_path / "results"), "--quiet"],
        cwd=REPO, env=dict(os.environ, TMPDIR=str(tmp)), **popen)


@pytest.mark.parametrize("when", ["uploading", "running"])
def test_sigint_leaves_no_domain_and_no_volume(host, tmp_path, when):
    d, conn = host
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    before = volumes(conn)
    proc = start_staged(d, tmp_path, tmp, "x", stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        if when == "uploading":
            while not _uploading(d) and time.monotonic() < deadline:
                time.sleep(0.02)
            assert _uploading(d), "no upload seen"
        else:
            while not domains(conn) and time.monotonic() < deadline:
                time.sleep(0.2)
            assert domains(conn), "the domain never appeared"
            assert volumes(conn) - before, "the run made no volume"
        os.kill(proc.pid, signal.SIGINT)
        proc.wait(120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, proc.stderr.read()
    assert domains(conn) == set()
    # A complete kernel volume may stay (for the next run); nothing else.
    assert volumes(conn) - before - kernels() == set(), \
        "volumes of the run left"
    assert all_files(tmp) == []
    assert not (tmp_path / "results" / "x" / "summary.json").exists()


def test_a_killed_runs_volumes_go_at_the_next_hosts_check(host, tmp_path):
    """SIGKILL cleans nothing: libvirt ends the domain (autodestroy), the
    run's volumes and temporary directory stay; `hosts check` on that
    host proves them a dead run's and removes them."""
    d, conn = host
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    before = volumes(conn)
    proc = start_staged(d, tmp_path, tmp, "killed",
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while not domains(conn) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert domains(conn), "the domain never appeared"
    finally:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 60
    while domains(conn) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert domains(conn) == set()
    left = volumes(conn) - before - kernels()
    assert any(n.endswith(".initrd.cpio") for n in left), left
    assert all_files(tmp) != []
    check = run_cli("hosts", "check", "--staging", "volumes", "--json",
                    d.uri, env={"TMPDIR": str(tmp)})
    assert check.returncode == 0, check.stderr
    facts = json.loads(check.stdout)[0]
    assert sorted(facts["orphans_removed"]) == sorted(left)
    assert volumes(conn) - before - kernels() == set()
    assert all_files(tmp) == []


def test_a_pool_that_cannot_be_made_is_one_line_and_leaves_nothing(
        tmp_path):
    libvirt = pytest.importorskip("libvirt")
    if os.geteuid() != 0:
        pytest.skip("a private libvirtd needs root")
    d = daemon.PrivateDaemon(tmp_path / "lv")
    # The daemon's images directory is a file: the pool's cannot be made.
    os.makedirs(d.path("lib"))
    with open(d.path("lib", "images"), "w") as f:
        f.write("not a directory\n")
    try:
        d.start()
    except Exception as e:
        pytest.skip(f"cannot start a private libvirtd: {e}")
    try:
        check = run_cli("hosts", "check", "--staging", "volumes", d.uri)
        assert check.returncode == 1
        lines = check.stdout.splitlines()
        assert len(lines) == 1
        assert lines[0].startswith(f"{d.uri}: libvirt ")
        assert "; run: no: storage pool blkscale: cannot create: " in \
            lines[0], lines[0]
        tmp = tmp_path / "tmp"
        tmp.mkdir()
        out = run_cli("run", "topologies/smoke.toml", "--backend", "libvirt",
                      "--libvirt-uri", d.uri, "--staging", "volumes",
                      "--variant", "patched", "--accel", "tcg", "--run-id",
                      "bad", "--results-dir", tmp_path / "results",
                      "--quiet", env={"TMPDIR": str(tmp)}, timeout=600)
        assert out.returncode != 0
        summary = json.loads((tmp_path / "results" / "bad" /
                              "summary.json").read_text())
        variant = summary["variants"]["patched"]
        assert variant["outcome"] == "launch-failure"
        assert variant["message"].startswith(
            "storage pool blkscale: cannot create: ")
        assert "\n" not in variant["message"]
        conn = libvirt.open(d.uri)
        try:
            assert conn.listAllStoragePools() == [], "a pool left defined"
            assert conn.listAllDomains() == []
        finally:
            conn.close()
        assert all_files(tmp) == []
    finally:
        d.stop()
