"""Debian's own kernel in a real QEMU guest: the debian variant (its
linux-image package, modular) and the same kernel given by path
(`run --kernel PATH --modules DIR`).

The guest image carries the kernel's virtio, SCSI and dm modules and
/init loads them: results that come home over the virtio console and a
census of virtio-blk and virtio-scsi disks prove they loaded, on a kernel
that has all of them as modules.  Needs `make kernel initramfs
VARIANTS=debian`; skips without (a failure under BLKSCALE_REQUIRE_ALL=1).
"""

import json
import pathlib
import shutil
import tempfile

import pytest

from launchertest import REPO, boot_results, need_built, run_cli

SMOKE = REPO / "topologies" / "smoke.toml"
MODULAR = ("CONFIG_VIRTIO_PCI=m", "CONFIG_VIRTIO_BLK=m",
           "CONFIG_SCSI_VIRTIO=m", "CONFIG_VIRTIO_CONSOLE=m",
           "CONFIG_BLK_DEV_SD=m")


def debian_kernel():
    """(kernel dir, release) of the built debian variant, or skip."""
    from blkscale import paths
    need_built("debian", "config")
    kdir = paths.kernel_dir("debian")
    return kdir, (kdir / "release").read_text().strip()


def smoke_with(tmp_path, steps):
    """The smoke topology with other steps."""
    text = SMOKE.read_text().replace('steps = ["census"]',
                                     f"steps = {json.dumps(steps)}")
    assert json.dumps(steps) in text
    path = tmp_path / "smoke-steps.toml"
    path.write_text(text)
    return path


@pytest.fixture
def short_tmp():
    """A TMPDIR short enough for the QMP socket under a variant named
    after a release (blkscale-6.1.0-57-amd64-XXXXXXXX/qmp.sock)."""
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bk", dir="/tmp"))
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


def run(tmp_path, tmp, topo, *args):
    results = tmp_path / "results"
    out = run_cli("run", topo, *args, "--accel", "tcg", "--run-id", "r",
                  "--results-dir", results, "--quiet",
                  env={"TMPDIR": str(tmp)}, timeout=900)
    return out, results, tmp


def test_debian_kernel_is_modular():
    """What the boots below prove rests on this: the drivers they need are
    modules of the kernel, not built in."""
    kdir, _ = debian_kernel()
    config = (kdir / "config").read_text().splitlines()
    for line in MODULAR:
        assert line in config


def test_debian_variant_boots_smoke_with_its_modules(tmp_path, short_tmp):
    kdir, release = debian_kernel()
    out, results, tmp = run(tmp_path, short_tmp, SMOKE, "--variant",
                            "debian")
    doc = boot_results(out, results, "r", "debian", tmp)
    assert doc["disks"]["found"] == {"vd": 4, "sd": 4, "nullb": 0,
                                     "total": 8}
    assert doc["kernel"]["base_package"] == f"linux-image-{release}"
    assert doc["kernel"]["patches"] == []
    dmesg = (results / "r" / "debian" / "dmesg.log").read_text(
        errors="replace")
    # virtio_scsi's own line: its module was loaded, by /init
    assert "scsi host0: Virtio SCSI HBA" in dmesg


def test_kernel_by_path_is_a_variant_named_after_its_release(tmp_path,
                                                           short_tmp):
    """--kernel with the debian kernel's own file: the command line boots
    that file's copy, results name the release and the path, and the step
    that needs the helper module is skipped with its reason."""
    from blkscale import paths
    kdir, release = debian_kernel()
    root = paths.build_dir() / "kernel" / "prebuilt" / "debian"
    vmlinuz = root / "boot" / f"vmlinuz-{release}"
    modules = root / "lib" / "modules" / release
    if not vmlinuz.is_file() or not modules.is_dir():
        pytest.skip(f"not built: {vmlinuz} (make kernel VARIANTS=debian)")
    topo = smoke_with(tmp_path, ["census", "majors"])
    out, results, tmp = run(tmp_path, short_tmp, topo, "--kernel", vmlinuz,
                            "--modules", modules)
    assert out.returncode == 0, out.stdout + out.stderr
    assert list(tmp.iterdir()) == [], "temporary files left behind"
    doc = json.loads((results / "r" / release / "results.json").read_text())
    assert doc["kernel"]["variant"] == release
    assert doc["kernel"]["guest_release"] == release
    assert doc["kernel"]["given_by_path"] == str(vmlinuz)
    argv = doc["host"]["command"]
    booted = pathlib.Path(argv[argv.index("-kernel") + 1])
    assert booted == paths.kernel_dir(release) / "bzImage"
    assert booted.read_bytes() == vmlinuz.read_bytes()
    assert doc["disks"]["found"]["total"] == 8
    steps = {s["name"]: s for s in doc["steps"]}
    assert steps["census"]["verdict"] == "ok"
    assert steps["majors"]["verdict"] == "skipped"
    assert "no helper module" in steps["majors"]["message"]
    # ... and the run's summary says so too
    assert f"majors skipped: {steps['majors']['message']}" in out.stdout
    assert doc["outcome"]["status"] == 0


def test_kernel_by_path_reaches_the_dry_run_command_line(tmp_path):
    kdir, release = debian_kernel()
    out = run_cli("run", SMOKE, "--kernel", kdir / "bzImage", "--dry-run")
    assert out.returncode == 0, out.stderr
    assert f"# {release}" in out.stdout.splitlines()
    assert f"build/kernel/out/{release}/bzImage" in out.stdout


def test_kernel_by_path_refuses_what_is_not_a_bzimage(tmp_path):
    bad = tmp_path / "vmlinuz"
    bad.write_bytes(b"\0" * 4096)
    out = run_cli("run", SMOKE, "--kernel", bad, "--dry-run")
    assert out.returncode == 2
    assert out.stderr.strip() == (f"blkscale: --kernel: {bad}: not an x86 "
                                  "bzImage (no HdrS header)")


def test_modules_without_kernel_is_a_usage_error(tmp_path):
    out = run_cli("run", SMOKE, "--modules", tmp_path, "--dry-run")
    assert out.returncode == 2
    assert "--modules: needs --kernel" in out.stderr
