"""kernel/patches holds several series, each a directory with its own
cover letter, patches and series file (driver-core, majors,
partitions); kernel/patches/series lists theirs one after the other,
and that is what the patched variants apply (variant-tree.sh reads a
series line as a path under the patch directory).  `make check-series`
checks each series on its own and fails when one fails, or when the
combined series is not their concatenation; `make format-series` writes
each series, cover letter first, in a directory of its own.

The checks that need git am run with CHECK_SERIES_BUILD=0 on a copy,
in a check directory of the tests' own, and need the pristine tree
(build/linux, `make kernel`); skipped without.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

TOP = pathlib.Path(__file__).resolve().parents[2]
PATCHES = TOP / "kernel" / "patches"
SCRIPT = TOP / "kernel" / "scripts" / "check-series.sh"
FORMAT = TOP / "kernel" / "scripts" / "format-series.sh"
BUILD = pathlib.Path(os.environ.get("BUILD", TOP / "build")).resolve()
CHECK_DIR = BUILD / "check-series-split-tests"
SERIES = ["driver-core", "majors", "partitions"]

needs_tree = pytest.mark.skipif(
    not (BUILD / "linux" / "scripts" / "checkpatch.pl").exists(),
    reason="no pristine tree (make kernel)")


def names(series_file):
    lines = series_file.read_text().splitlines()
    return [ln.split("#", 1)[0].strip() for ln in lines
            if ln.split("#", 1)[0].strip()]


def test_the_patched_series_is_each_series_in_turn():
    want = [f"{s}/{n}" for s in SERIES for n in names(PATCHES / s / "series")]
    assert names(PATCHES / "series") == want
    for entry in want:
        assert (PATCHES / entry).is_file(), entry
    for s in SERIES:
        assert (PATCHES / s / "0000-cover-letter.patch").is_file(), s


def test_the_variants_apply_the_combined_series():
    sys.path.insert(0, str(TOP / "launcher"))
    from blkscale import kernels
    variants = kernels.load()
    for name in ("patched", "debug", "glue-kunit"):
        v = variants[name]
        assert v.patches == "kernel/patches"
        assert kernels.series(v) == names(PATCHES / "series")


@pytest.mark.parametrize("series", SERIES)
def test_each_cover_letter_names_its_base_and_the_dco(series):
    """No invented person: the DCO is left to whoever posts, and the base
    is named so that a reader can find it."""
    text = (PATCHES / series / "0000-cover-letter.patch").read_text()
    flat = " ".join(text.split())
    assert "Developer's Certificate of Origin" in flat
    assert "a person must" in flat
    assert "v6.1.192" in flat and "6.1.192-3" in flat
    assert re.search(r"^base-commit: [0-9a-f]{40}$", text, re.M)


@pytest.mark.parametrize("series", SERIES)
def test_no_patch_is_marked_for_stable(series):
    for path in (PATCHES / series).glob("*.patch"):
        text = path.read_text()
        assert not re.search(r"^Cc:.*stable", text, re.M | re.I), path.name
        assert "stable@vger.kernel.org" not in text, path.name


# The same three series ported to linux-source-6.12, laid out the same
# way in kernel/patches/6.12 (the patched-6.12 variant applies them).
PATCHES_612 = PATCHES / "6.12"


def test_the_6_12_series_is_each_series_in_turn():
    want = [f"{s}/{n}" for s in SERIES
            for n in names(PATCHES_612 / s / "series")]
    assert names(PATCHES_612 / "series") == want
    for entry in want:
        assert (PATCHES_612 / entry).is_file(), entry
    for s in SERIES:
        assert (PATCHES_612 / s / "0000-cover-letter.patch").is_file(), s
        # the same patches, by name, as the 6.1 series
        assert names(PATCHES_612 / s / "series") == \
            names(PATCHES / s / "series"), s
    # nothing of a flat series is left beside the directories
    assert not list(PATCHES_612.glob("*.patch"))


def test_the_6_12_variant_applies_its_combined_series():
    sys.path.insert(0, str(TOP / "launcher"))
    from blkscale import kernels
    v = kernels.load()["patched-6.12"]
    assert v.patches == "kernel/patches/6.12"
    assert kernels.series(v) == names(PATCHES_612 / "series")


@pytest.mark.parametrize("series", SERIES)
def test_each_6_12_cover_letter_names_its_base_and_what_6_1_measured(
        series):
    """The 6.12 letters name 6.12's base, and give no figure measured on
    6.1 as if 6.12 had measured it: each says what is not yet measured on
    6.12."""
    text = (PATCHES_612 / series / "0000-cover-letter.patch").read_text()
    flat = " ".join(text.split())
    assert "Developer's Certificate of Origin" in flat
    assert "a person must" in flat
    assert "v6.12.118" in flat and "6.12.118-1~deb12u1" in flat
    assert "imported as one commit, which is not published" in flat
    assert "not yet measured on 6.12" in flat
    assert "measured on 6.1" in flat
    assert re.search(r"^base-commit: [0-9a-f]{40}$", text, re.M)


@pytest.mark.parametrize("series", SERIES)
def test_no_6_12_patch_is_marked_for_stable(series):
    for path in (PATCHES_612 / series).glob("*.patch"):
        text = path.read_text()
        assert not re.search(r"^Cc:.*stable", text, re.M | re.I), path.name
        assert "stable@vger.kernel.org" not in text, path.name


@pytest.fixture
def copy(tmp_path):
    dest = tmp_path / "patches"
    shutil.copytree(PATCHES, dest, ignore=shutil.ignore_patterns("6.12"))
    return dest


def check(patches, **extra):
    env = dict(os.environ, CHECK_SERIES_PATCHES=str(patches),
               CHECK_SERIES_BUILD="0", CHECK_SERIES_DIR=str(CHECK_DIR))
    env.update(extra)
    out = subprocess.run([str(SCRIPT)], capture_output=True, text=True,
                         env=env, timeout=900)
    return out.returncode, out.stdout + out.stderr


@needs_tree
def test_check_series_checks_each_series(copy):
    rc, out = check(copy)
    assert rc == 0, out
    for s in SERIES:
        assert f"check-series: series {copy}/{s}" in out or \
            f"series {s}" in out, out
        n = len(names(copy / s / "series"))
        assert re.search(rf"check-series: {n} patch(es)? and the cover "
                         r"letter, all pass", out), out


@needs_tree
def test_a_failing_series_fails_the_check(copy):
    """A patch of the middle series that no longer applies fails the
    whole check; the other series are still checked."""
    second = copy / "majors" / names(copy / "majors" / "series")[1]
    lines = second.read_text().split("\n")
    i = next(i for i, ln in enumerate(lines)
             if ln.startswith("-") and not ln.startswith("---"))
    lines[i] = "-xyzzy " + lines[i][1:]
    second.write_text("\n".join(lines))
    rc, out = check(copy)
    assert rc != 0, out
    assert "does not apply" in out, out
    assert "a series FAILED" in out, out
    partitions = names(copy / "partitions" / "series")[0]
    assert re.search(rf"ok +{re.escape(partitions)}: applies", out), out


@needs_tree
@pytest.mark.parametrize("how", ["reordered", "dropped"])
def test_a_series_that_is_not_the_concatenation_is_refused(copy, how):
    entries = names(copy / "series")
    if how == "reordered":
        entries[0], entries[1] = entries[1], entries[0]
    else:
        entries = entries[1:]
    (copy / "series").write_text("\n".join(entries) + "\n")
    rc, out = check(copy)
    assert rc != 0
    assert "not the series of driver-core majors partitions one after " \
        "the other" in out, out
    assert "applies" not in out, out


def test_format_series_writes_each_series_in_its_directory(copy, tmp_path):
    out = tmp_path / "out"
    env = dict(os.environ, FORMAT_SERIES_PATCHES=str(copy),
               FORMAT_SERIES_OUT=str(out), GIT_CONFIG_COUNT="2",
               GIT_CONFIG_KEY_0="user.name", GIT_CONFIG_VALUE_0="Ada Lovelace",
               GIT_CONFIG_KEY_1="user.email",
               GIT_CONFIG_VALUE_1="ada@example.org")
    res = subprocess.run([str(FORMAT)], capture_output=True, text=True,
                         env=env, timeout=60)
    assert res.returncode == 0, res.stderr
    for s in SERIES:
        written = sorted(p.name for p in (out / s).iterdir())
        assert written == sorted(["0000-cover-letter.patch"] +
                                 names(copy / s / "series")), s
        cover = (out / s / "0000-cover-letter.patch").read_text()
        assert "From: Ada Lovelace <ada@example.org>" in cover
        assert "blkscale@localhost" not in cover
