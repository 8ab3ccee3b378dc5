"""A results directory that fills up (ENOSPC) while the run writes.

The results directory is a small tmpfs mounted by the test, so the
ENOSPC is the kernel's own.  A fake QEMU (FAKE_QEMU_CONSOLE_KIB,
FAKE_QEMU_SECTION_KIB) makes the console or the results larger than the
room left.  Whatever fails to be written: one line on stderr naming the
file, exit status 6, no QEMU left running, no temporary file, nothing
partial of the variant, and no summary.json (the run is partial).
Needs root to mount the tmpfs; skipped otherwise.
"""

import os
import shutil
import subprocess

import pytest

from launchertest import all_files, fake_runs, pid_alive, run_cli

TOPO = """
[guest]
variants = [{variants}]
[timeouts]
boot_s = 20
run_s = 60
hang_s = 10
[[virtio_blk]]
id = "vblk"
count = 2
"""


@pytest.fixture
def small_fs(tmp_path):
    """A 64 KiB tmpfs, unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    if not shutil.which("mount"):
        pytest.skip("no mount command")
    mnt = tmp_path / "small"
    mnt.mkdir()
    out = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,mode=755",
                          "blkscale-test", str(mnt)], capture_output=True,
                         text=True)
    if out.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {out.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], check=True)


def run_full(tmp_path, fake_env, results, variants, **pads):
    topo = tmp_path / "full.toml"
    topo.write_text(TOPO.format(variants=", ".join(
        f'"{v}"' for v in variants)))
    env = dict(fake_env, FAKE_QEMU_SCENARIO="ok",
               **{k: str(v) for k, v in pads.items()})
    return run_cli("run", topo, "--accel", "tcg", "--run-id", "r",
                   "--results-dir", results, "--quiet", env=env, timeout=120)


def assert_stopped_cleanly(out, fake_env, results, failed_file):
    assert out.returncode == 6, out.stdout + out.stderr
    assert out.stderr.count("\n") == 1, out.stderr
    assert out.stderr.startswith("blkscale: "), out.stderr
    assert f"r/{failed_file}: No space left on device" in out.stderr
    runs = fake_runs(fake_env)
    assert runs, "the fake QEMU never ran"
    for pid, _ in runs:
        assert not pid_alive(pid), f"QEMU {pid} still running"
    assert all_files(fake_env["TMPDIR"]) == [], "temporary files left"
    assert not (results / "r" / "summary.json").exists()
    assert not list(results.rglob(".tmp-*")), "partial JSON left behind"


def test_console_does_not_fit(small_fs, tmp_path, fake_env):
    out = run_full(tmp_path, fake_env, small_fs, ["stock"],
                   FAKE_QEMU_CONSOLE_KIB=200)
    assert_stopped_cleanly(out, fake_env, small_fs, "stock/console.log")
    assert all_files(small_fs) == [], "partial files left behind"


def test_results_do_not_fit(small_fs, tmp_path, fake_env):
    out = run_full(tmp_path, fake_env, small_fs, ["stock"],
                   FAKE_QEMU_SECTION_KIB=200)
    assert_stopped_cleanly(out, fake_env, small_fs, "stock/results.json")
    # the complete console.log goes too: a variant is kept whole or not
    assert all_files(small_fs) == [], "partial files left behind"


def test_second_variant_does_not_fit(small_fs, tmp_path, fake_env):
    """The first variant's files stay; the second leaves nothing."""
    out = run_full(tmp_path, fake_env, small_fs, ["stock", "patched"],
                   FAKE_QEMU_CONSOLE_KIB=36)
    assert_stopped_cleanly(out, fake_env, small_fs, "patched/console.log")
    assert all_files(small_fs) == ["r", "r/stock", "r/stock/console.log",
                                   "r/stock/dmesg.log", "r/stock/results.json"]
    assert len(fake_runs(fake_env)) == 2
