"""Fixtures of the launcher tests: a fake build and a fake QEMU."""

import pytest

from launchertest import FAKE_QEMU


@pytest.fixture
def fake_build(tmp_path):
    """A build directory with stand-in kernels and base initramfs images.

    The fake QEMU never reads them; they only have to exist.
    """
    build = tmp_path / "build"
    for variant in ("stock", "patched"):
        kdir = build / "kernel" / "out" / variant
        kdir.mkdir(parents=True)
        (kdir / "bzImage").write_bytes(b"not a kernel " + variant.encode())
        (kdir / "release").write_text(f"6.1.0-{variant}\n")
        (kdir / "config").write_text("CONFIG_NR_CPUS=8\n")
    initramfs = build / "initramfs"
    initramfs.mkdir()
    for variant in ("stock", "patched"):
        # An empty newc archive: just the trailer, padded like GNU cpio.
        (initramfs / f"{variant}.cpio").write_bytes(
            b"070701" + b"0" * 8 * 4 + b"00000001" + b"0" * 8 * 6
            + b"0000000b" + b"0" * 8 + b"TRAILER!!!\0" + b"\0" * 3)
    return build


@pytest.fixture
def fake_env(tmp_path, fake_build):
    """Environment for a run against the fake QEMU, with private temp and
    results directories so that leftovers can be detected."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    return {
        "BUILD": str(fake_build),
        "BLKSCALE_QEMU": str(FAKE_QEMU),
        "TMPDIR": str(tmp),
        "FAKE_QEMU_LOG": str(tmp_path / "qemu-runs.log"),
    }
