"""`run --kernel PATH`: the release read from a bzImage's own header names
the one-off variant; what is not a bzImage, or names no usable variant,
or a --modules directory without the kernel's tree, is refused in one
line.  Synthetic images: no boot (test_distro_kernel.py boots one)."""

import struct

import pytest

from blkscale import userkernel
from blkscale.errors import UsageError


def fake_bzimage(path, version):
    """A real-mode header as boot.rst lays it out: "HdrS" at 0x202 and the
    version string's offset, less 0x200, at 0x20e."""
    image = bytearray(0x3000)
    image[0x202:0x206] = b"HdrS"
    struct.pack_into("<H", image, 0x20e, 0x2000 - 0x200)
    text = version.encode() + b"\0"
    image[0x2000:0x2000 + len(text)] = text
    path.write_bytes(bytes(image))
    return path


def test_release_is_the_first_word_of_the_version_string(tmp_path):
    image = fake_bzimage(tmp_path / "vmlinuz", "6.1.0-57-amd64 (debian-kernel"
                         "@lists.debian.org) #1 SMP PREEMPT_DYNAMIC Debian")
    assert userkernel.bzimage_release(image) == "6.1.0-57-amd64"


def test_a_release_in_capitals_names_a_lower_case_variant(tmp_path):
    image = fake_bzimage(tmp_path / "vmlinuz", "6.12.0-Custom #1")
    assert userkernel.bzimage_release(image) == "6.12.0-custom"


@pytest.mark.parametrize("version", ["", "../../x #1", ".hidden #1"])
def test_a_release_that_cannot_name_a_variant_is_refused(tmp_path, version):
    image = fake_bzimage(tmp_path / "vmlinuz", version)
    with pytest.raises(UsageError, match="cannot name a variant"):
        userkernel.bzimage_release(image)


def test_not_a_bzimage(tmp_path):
    other = tmp_path / "vmlinux"
    other.write_bytes(b"\x7fELF" + b"\0" * 0x400)
    with pytest.raises(UsageError, match="not an x86 bzImage"):
        userkernel.bzimage_release(other)


def test_missing_file(tmp_path):
    with pytest.raises(UsageError, match="No such file"):
        userkernel.bzimage_release(tmp_path / "none")


def test_modules_found_as_the_tree_or_a_root_holding_it(tmp_path):
    tree = tmp_path / "root" / "lib" / "modules" / "6.1.0-x"
    (tree / "kernel").mkdir(parents=True)
    assert userkernel._modules_tree(tree, "6.1.0-x") == tree
    assert userkernel._modules_tree(tmp_path / "root", "6.1.0-x") == tree


def test_modules_of_another_release_are_refused(tmp_path):
    tree = tmp_path / "lib" / "modules" / "6.1.0-y"
    (tree / "kernel").mkdir(parents=True)
    with pytest.raises(UsageError, match="no kernel/ tree of 6.1.0-x"):
        userkernel._modules_tree(tmp_path, "6.1.0-x")
