"""The newc writer: GNU cpio and busybox read what it writes, and the
per-run archive appended to a base image unpacks after it."""

import shutil
import subprocess

import pytest

from blkscale.guestlink.cpio import NewcWriter, concatenate

FILES = {"etc/blkscale/plan.env": "BLKSCALE_PROTOCOL=1\n",
         "etc/blkscale/odd size": "x" * 1021,
         "etc/blkscale/empty": ""}


def archive():
    w = NewcWriter()
    w.add_dir("etc")
    w.add_dir("etc/blkscale")
    for name, data in FILES.items():
        w.add_file(name, data)
    return w.to_bytes()


def test_lengths_are_4_byte_aligned():
    assert len(archive()) % 4 == 0


def test_gnu_cpio_lists_and_extracts(tmp_path):
    if not shutil.which("cpio"):
        pytest.skip("cpio is not installed (make deps)")
    data = archive()
    listing = subprocess.run(["cpio", "-t", "--quiet"], input=data,
                             capture_output=True, check=True).stdout
    assert listing.decode().split("\n")[:-1] == [
        "etc", "etc/blkscale", *FILES]
    subprocess.run(["cpio", "-i", "-d", "--quiet"], input=data, cwd=tmp_path,
                   check=True)
    for name, text in FILES.items():
        assert (tmp_path / name).read_text() == text
    assert oct((tmp_path / "etc/blkscale").stat().st_mode & 0o777) == "0o755"


def test_busybox_cpio_extracts(tmp_path):
    busybox = shutil.which("busybox")
    if not busybox:
        pytest.skip("busybox is not installed (make deps)")
    subprocess.run([busybox, "cpio", "-i", "-d"], input=archive(),
                   cwd=tmp_path, check=True, capture_output=True)
    assert (tmp_path / "etc/blkscale/plan.env").read_text() == \
        FILES["etc/blkscale/plan.env"]


def read_all_archives(data):
    """Names in concatenated newc archives, read as the kernel does:
    after each TRAILER!!!, skip zero padding and continue."""
    names, pos = [], 0
    while pos < len(data):
        if data[pos:pos + 4] == b"\0\0\0\0":
            pos += 4
            continue
        assert data[pos:pos + 6] == b"070701", f"bad magic at {pos}"
        fields = [int(data[pos + 6 + 8 * i:pos + 14 + 8 * i], 16)
                  for i in range(13)]
        namesize, filesize = fields[11], fields[6]
        name = data[pos + 110:pos + 110 + namesize - 1].decode()
        pos += 110 + namesize
        pos += (4 - pos % 4) % 4
        pos += filesize + (4 - filesize % 4) % 4
        names.append(name)
    return names


def test_appended_to_a_gnu_cpio_base(tmp_path):
    if not shutil.which("cpio"):
        pytest.skip("cpio is not installed (make deps)")
    root = tmp_path / "root"
    (root / "bin").mkdir(parents=True)
    (root / "init").write_text("#!/bin/sh\n")
    base = tmp_path / "base.cpio"
    with open(base, "wb") as out:
        subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=root,
                       input=b"bin\ninit\n", stdout=out, check=True)
    combined = tmp_path / "initrd.cpio"
    concatenate([base], archive(), combined)
    names = read_all_archives(combined.read_bytes())
    assert names == ["bin", "init", "TRAILER!!!", "etc", "etc/blkscale",
                     *FILES, "TRAILER!!!"]


def test_unaligned_base_is_padded(tmp_path):
    base = tmp_path / "base"
    base.write_bytes(b"\0" * 6)
    out = tmp_path / "out"
    concatenate([base], archive(), out)
    assert out.read_bytes()[8:14] == b"070701"


def test_rejects_bad_names():
    with pytest.raises(ValueError):
        NewcWriter().add_file("", "x")


def test_layers_follow_the_base_each_padded(tmp_path):
    base = tmp_path / "base"
    base.write_bytes(b"\0" * 6)
    layer = tmp_path / "layer"
    layer.write_bytes(b"L" * 5)
    out = tmp_path / "out"
    concatenate([base, layer], archive(), out)
    data = out.read_bytes()
    assert data[8:13] == b"LLLLL"
    assert data[13:16] == b"\0\0\0"
    assert data[16:22] == b"070701"
