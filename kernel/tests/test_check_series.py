"""`make check-series`'s format checks, each fed its bad case.

The series is copied, one thing is broken, and check-series.sh runs on
the copy with CHECK_SERIES_BUILD=0 (git am only, no build, no boot): the
numbering [PATCH n/N], the cover letter, Signed-off-by, checkpatch
--strict and its CHECKs that the cover letter must name, and git am.
Needs the pristine tree (build/linux, `make kernel` makes it); skipped
without.  The build and boot of every prefix are what `make check-series`
itself runs.  Three runs of the script, a few minutes on a busy host.
"""
import os
import pathlib
import re
import shutil
import subprocess

import pytest

TOP = pathlib.Path(__file__).resolve().parents[2]
PATCHES = TOP / "kernel" / "patches"
SCRIPT = TOP / "kernel" / "scripts" / "check-series.sh"
BUILD = pathlib.Path(os.environ.get("BUILD", TOP / "build"))

pytestmark = pytest.mark.skipif(
    not (BUILD / "linux" / "scripts" / "checkpatch.pl").exists(),
    reason="no pristine tree (make kernel)")


def series_names():
    names = [line.split("#")[0].strip()
             for line in (PATCHES / "series").read_text().splitlines()]
    return [n for n in names if n]


@pytest.fixture
def copy(tmp_path):
    """A copy of kernel/patches with the cover letter."""
    dest = tmp_path / "patches"
    shutil.copytree(PATCHES, dest)
    return dest


def check(patches, **extra):
    env = dict(os.environ, CHECK_SERIES_PATCHES=str(patches),
               CHECK_SERIES_BUILD="0", **extra)
    out = subprocess.run([str(SCRIPT)], capture_output=True, text=True,
                         env=env, timeout=900)
    return out.returncode, out.stdout + out.stderr


def edit(path, old, new, count=1):
    text = path.read_text()
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, count))


def test_series_passes_the_format_checks(copy):
    rc, out = check(copy)
    assert rc == 0, out
    n = len(series_names())
    assert f"[PATCH 0/{n}]" in out
    for name in series_names():
        assert re.search(rf"ok +{re.escape(name)}: applies, format and "
                         r"checkpatch --strict clean", out), out


def break_context(path):
    """Change the first removed line of the diff: the hunk no longer applies."""
    lines = path.read_text().split("\n")
    for i, line in enumerate(lines):
        if line.startswith("-") and not line.startswith("---"):
            lines[i] = "-xyzzy " + line[1:]
            break
    path.write_text("\n".join(lines))


def test_each_format_problem_fails(copy):
    """One run, a different problem in each place it can be."""
    names = series_names()
    n = len(names)
    edit(copy / names[0], f"[PATCH 1/{n}]", f"[PATCH 1/{n + 1}]")
    edit(copy / names[1], "Signed-off-by:", "Reviewed-by:")
    # an added line that checkpatch --strict flags with a CHECK
    edit(copy / names[1], "+\tif (!p)\n+\t\treturn -ENOMEM;",
         "+\tif (p == NULL)\n+\t\treturn -ENOMEM;")
    break_context(copy / names[2])
    (copy / "0000-cover-letter.patch").unlink()
    rc, out = check(copy)
    assert rc != 0
    assert "0000-cover-letter.patch: no such file" in out, out
    assert f'subject is not "[PATCH 1/{n}] ..."' in out, out
    assert "no Signed-off-by" in out, out
    assert "Comparison to NULL" in out and "not named in the cover letter" \
        in out, out
    assert "does not apply" in out, out
    if n > 3:
        assert "not applied: an earlier patch does not apply" in out, out


def test_check_named_in_the_cover_letter_passes(copy):
    target = copy / series_names()[1]
    edit(target, "+\tif (!p)\n+\t\treturn -ENOMEM;",
         "+\tif (p == NULL)\n+\t\treturn -ENOMEM;")
    # the cover letter says why the CHECK is kept
    message = 'Comparison to NULL could be written "!p"'
    edit(copy / "0000-cover-letter.patch", "blkscale developers (",
         f"checkpatch: {message}: kept, as in the lines around.\n\n"
         "blkscale developers (")
    rc, out = check(copy)
    assert rc == 0, out


def test_resume_only_on_the_patches_checked_before(copy):
    """CHECK_SERIES_FROM=N takes patches 1..N-1 from the check tree only
    if they are the commits an earlier check made of them."""
    names = series_names()
    rc, out = check(copy)
    assert rc == 0, out
    rc, out = check(copy, CHECK_SERIES_FROM="3")
    assert rc == 0, out
    assert "patches 1-2: held from an earlier check" not in out  # no build
    for name in names[:2]:
        assert f"{name}: format and checkpatch --strict clean; built and " \
            "booted by an earlier check" in out, out
    for name in names[2:]:
        assert re.search(rf"ok +{re.escape(name)}: applies", out), out
    # Patch 2's code changes: what the tree holds is no longer patch 2.
    second = copy / names[1]
    lines = second.read_text().split("\n")
    i = next(i for i, line in enumerate(lines) if line.startswith("+ *"))
    lines[i] += " (changed)"
    second.write_text("\n".join(lines))
    rc, out = check(copy, CHECK_SERIES_FROM="3")
    assert rc != 0
    assert f"CHECK_SERIES_FROM=3: the check tree does not hold {names[1]} " \
        "as it is now (run the whole check)" in out, out
    rc, out = check(copy, CHECK_SERIES_FROM=str(len(names) + 1))
    assert rc != 0 and "not a patch number from 1 to" in out, out
