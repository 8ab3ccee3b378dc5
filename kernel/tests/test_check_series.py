"""`make check-series`'s format checks and `make format-series`, each fed
its bad case.

The series is copied and brought to the form the checks want (the cover
letter's prefix is the patches', it has a base-commit: line, every patch
of a v2 or later series has a changelog below "---"), one thing is
broken, and check-series.sh runs on the copy with CHECK_SERIES_BUILD=0
(git am only, no build, no boot) in a check directory of the tests' own:
the prefix the cover letter declares, the numbering, base-commit, the
per-patch changelog, Signed-off-by, checkpatch --strict and its CHECKs
that the cover letter must name, and git am.  Needs the pristine tree
(build/linux, `make kernel` makes it); skipped without.  The builds of
every prefix in every configuration are what `make check-series` itself
runs; CHECK_SERIES_BUILD_TESTS=1 (or the nightly's BLKSCALE_NIGHTLY=1)
adds one that compiles a file in two
of them (W=1 must fail on the one warning a patch adds).  format-series
needs no tree: it runs on a copy with the git
identity given in the environment.
"""
import os
import pathlib
import re
import shutil
import subprocess

import pytest

TOP = pathlib.Path(__file__).resolve().parents[2]
# kernel/patches holds several series (test_series_split.py); the
# format checks run on one of them, the largest.
SERIES_ROOT = TOP / "kernel" / "patches"
PATCHES = SERIES_ROOT / "majors"
SCRIPT = TOP / "kernel" / "scripts" / "check-series.sh"
FORMAT = TOP / "kernel" / "scripts" / "format-series.sh"
BUILD = pathlib.Path(os.environ.get("BUILD", TOP / "build")).resolve()
# Apart from build/check-series, so that the tests neither wait for a
# real check nor overwrite its tree and log.
CHECK_DIR = BUILD / "check-series-tests"
PLACEHOLDER = "blkscale developers <blkscale@localhost>"
SUBJECT = re.compile(r"^Subject: \[((?:RFC )?PATCH(?: v(\d+))?) (\d+)/(\d+)\] ",
                     re.M)

needs_tree = pytest.mark.skipif(
    not (BUILD / "linux" / "scripts" / "checkpatch.pl").exists(),
    reason="no pristine tree (make kernel)")


def series_names():
    names = [line.split("#")[0].strip()
             for line in (PATCHES / "series").read_text().splitlines()]
    return [n for n in names if n]


def prefix_of(path):
    """The subject prefix of a patch ("RFC PATCH v3") and its version."""
    m = SUBJECT.search(path.read_text())
    assert m, f"{path.name}: no [PATCH n/N] subject"
    return m.group(1), int(m.group(2) or 1)


def subject_number(n, total):
    return f"{n:0{len(str(total))}d}/{total}"


def has_changelog(text):
    below = text.split("\n---\n", 1)[1].split("\ndiff --git ", 1)[0]
    return re.search(r"^\s*(v\d+.*:|Changes (since|in|from) v\d+)", below,
                     re.M) is not None


def make_checkable(dest):
    """Give the copy what check-series wants of any version: the cover
    letter declares the first patch's prefix and the series' length and
    has a base-commit, and from v2 on every patch has a changelog."""
    names = series_names()
    total = len(names)
    prefix, version = prefix_of(dest / names[0])
    cover = dest / "0000-cover-letter.patch"
    text = re.sub(r"^Subject: \[[^]]*\] ",
                  f"Subject: [{prefix} {subject_number(0, total)}] ",
                  cover.read_text(), count=1, flags=re.M)
    if not re.search(r"^base-commit: [0-9a-f]{40}$", text, re.M):
        text = text.rstrip("\n") + "\n\nbase-commit: " + "0" * 40 + "\n"
    cover.write_text(text)
    if version >= 2:
        for name in names:
            path = dest / name
            text = path.read_text()
            if not has_changelog(text):
                text = text.replace("\n---\n",
                                    f"\n---\nv{version}: (test copy)\n\n", 1)
                path.write_text(text)


@pytest.fixture
def copy(tmp_path):
    """A checkable copy of kernel/patches with the cover letter."""
    dest = tmp_path / "patches"
    shutil.copytree(PATCHES, dest)
    make_checkable(dest)
    return dest


def check(patches, **extra):
    env = dict(os.environ, CHECK_SERIES_PATCHES=str(patches),
               CHECK_SERIES_BUILD="0", CHECK_SERIES_DIR=str(CHECK_DIR))
    env.update(extra)
    out = subprocess.run([str(SCRIPT)], capture_output=True, text=True,
                         env=env, timeout=900)
    return out.returncode, out.stdout + out.stderr


def edit(path, old, new, count=1):
    text = path.read_text()
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, count))


def add_null_comparison(patches):
    """Write an added "if (!p)" of some patch as "if (p == NULL)", which
    checkpatch --strict flags with a CHECK; the patch and the message."""
    for name in series_names():
        path = patches / name
        text, done = re.subn(r"^\+(\t+)if \(!(\w+)\)$", r"+\1if (\2 == NULL)",
                             path.read_text(), count=1, flags=re.M)
        if done:
            path.write_text(text)
            var = re.search(r"^\+\t+if \((\w+) == NULL\)$", text, re.M)[1]
            return name, f'Comparison to NULL could be written "!{var}"'
    pytest.skip("no added 'if (!x)' in the series to turn into a CHECK")


def subject_prefix(path):
    """The "[RFC PATCH v3 01/10]" of a patch, as written."""
    m = re.search(r"^Subject: (\[[^]]*\])", path.read_text(), re.M)
    return m.group(1)


@needs_tree
def test_series_passes_the_format_checks(copy):
    rc, out = check(copy)
    assert rc == 0, out
    names = series_names()
    prefix, _ = prefix_of(copy / names[0])
    assert f"[{prefix} {subject_number(0, len(names))}], base-commit" in out
    for name in names:
        assert re.search(rf"ok +{re.escape(name)}: applies, format and "
                         r"checkpatch --strict clean", out), out
    # The committed placeholder identity is what check-series accepts.
    assert f"From: {PLACEHOLDER}" in (copy / names[0]).read_text()
    # The log: the whole output, headed by what was checked.
    log = (CHECK_DIR / "check-series.log").read_text()
    for head in ("date", "base", "cover", "base-commit", "patches", "config"):
        assert re.search(rf"^  {head} +\S", log, re.M), log
    assert f"ok     {names[-1]}" in log and "all pass" in log, log


def break_context(path):
    """Change the first removed line of the diff: the hunk no longer applies."""
    lines = path.read_text().split("\n")
    for i, line in enumerate(lines):
        if line.startswith("-") and not line.startswith("---"):
            lines[i] = "-xyzzy " + line[1:]
            break
    path.write_text("\n".join(lines))


@needs_tree
def test_each_format_problem_fails(copy):
    """One run, a different problem in each place it can be."""
    names = series_names()
    n = len(names)
    first = subject_prefix(copy / names[0])
    wrong = first.replace(f"/{n}]", f"/{n + 1}]")
    edit(copy / names[0], first, wrong)
    edit(copy / names[1], "Signed-off-by:", "Reviewed-by:")
    # an added line that checkpatch --strict flags with a CHECK
    add_null_comparison(copy)
    break_context(copy / names[2])
    (copy / "0000-cover-letter.patch").unlink()
    rc, out = check(copy)
    assert rc != 0
    assert "0000-cover-letter.patch: no such file" in out, out
    assert f'subject is not "{first} ..."' in out, out
    assert "no Signed-off-by" in out, out
    assert "Comparison to NULL" in out and "not named in the cover letter" \
        in out, out
    assert "does not apply" in out, out
    if n > 3:
        assert "not applied: an earlier patch does not apply" in out, out


@needs_tree
def test_a_placeholder_fails(copy):
    """A patch whose changelog still holds "@@FIGURES@@" is not
    sendable."""
    name = series_names()[0]
    edit(copy / name, "\nSigned-off-by:", "\n@@FIGURES@@\n\nSigned-off-by:")
    rc, out = check(copy)
    assert rc != 0
    assert f"FAIL   {name}" in out or f"FAIL {name}" in out, out
    assert "@@FIGURES@@ where text belongs" in out, out


def drop_changelog(path):
    """Take the lines between "---" and the diffstat out."""
    text = path.read_text()
    head, rest = text.split("\n---\n", 1)
    stat = re.search(r"^ \S.* \| +\d+", rest, re.M)
    path.write_text(head + "\n---\n" + rest[stat.start():])


@needs_tree
def test_cover_letter_declares_prefix_and_base(copy):
    """A prefix other than the cover letter's, no base-commit, no
    per-patch changelog in a v2+ series: each fails, saying what is
    expected."""
    names = series_names()
    n = len(names)
    prefix, version = prefix_of(copy / names[0])
    cover = copy / "0000-cover-letter.patch"
    cover.write_text(re.sub(r"^base-commit: .*\n", "", cover.read_text(),
                            flags=re.M))
    # the second patch drops the RFC, or the version when there is no RFC
    other = prefix.replace("RFC ", "") if "RFC" in prefix else "RFC " + prefix
    edit(copy / names[1], f"[{prefix} {subject_number(2, n)}]",
         f"[{other} {subject_number(2, n)}]")
    if version < 2:
        # a first version needs no changelog: make the series a v2
        for name in ["0000-cover-letter.patch"] + names:
            text = (copy / name).read_text()
            (copy / name).write_text(
                text.replace(f"[{prefix} ", f"[{prefix} v2 ", 1)
                .replace("\n---\n", "\n---\nv2: (test copy)\n\n", 1)
                if name != "0000-cover-letter.patch" else
                text.replace(f"[{prefix} ", f"[{prefix} v2 ", 1))
        prefix, version = prefix + " v2", 2
        edit(copy / names[1], f"[{other} {subject_number(2, n)}]",
             f"[{other} v2 {subject_number(2, n)}]")
        other += " v2"
    drop_changelog(copy / names[2])
    rc, out = check(copy)
    assert rc != 0
    assert 'no "base-commit: <40-hex commit>" line' in out, out
    assert (f'subject prefix "[{other} ...]" is not the cover letter\'s '
            f'"[{prefix} {subject_number(0, n)}]": expected '
            f'"[{prefix} {subject_number(2, n)}] ..."') in out, out
    assert (f'no changelog below "---": a v{version} patch says what '
            f'changed since v{version - 1}') in out, out
    # the others pass
    assert re.search(rf"ok +{re.escape(names[3])}: applies", out), out


@needs_tree
def test_a_first_version_needs_no_changelog(copy):
    """[PATCH n/N] without a version: no changelog asked for."""
    names = series_names()
    n = len(names)
    for name in ["0000-cover-letter.patch"] + names:
        path = copy / name
        text = re.sub(r"^Subject: \[[^]]*?(\d+/\d+)\]", r"Subject: [PATCH \1]",
                      path.read_text(), count=1, flags=re.M)
        path.write_text(text)
        if name != "0000-cover-letter.patch":
            drop_changelog(path)
    rc, out = check(copy)
    assert rc == 0, out
    assert f"[PATCH {subject_number(0, n)}], base-commit" in out, out


@needs_tree
def test_check_named_in_the_cover_letter_passes(copy):
    _, message = add_null_comparison(copy)
    # the cover letter says why the CHECK is kept
    edit(copy / "0000-cover-letter.patch", "\nbase-commit:",
         f"\ncheckpatch: {message}: kept, as in the lines around.\n\n"
         "base-commit:")
    rc, out = check(copy)
    assert rc == 0, out


@needs_tree
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
    i = next(i for i, line in enumerate(lines)
             if line.startswith("+") and line.endswith(";"))
    lines[i] += " /* changed */"
    second.write_text("\n".join(lines))
    rc, out = check(copy, CHECK_SERIES_FROM="3")
    assert rc != 0
    assert f"CHECK_SERIES_FROM=3: the check tree does not hold {names[1]} " \
        "as it is now (run the whole check)" in out, out
    rc, out = check(copy, CHECK_SERIES_FROM=str(len(names) + 1))
    assert rc != 0 and "not a patch number from 1 to" in out, out


def test_the_6_12_series_is_checked_on_its_own_base(tmp_path):
    """CHECK_SERIES_VARIANT=patched-6.12: the 6.12 series, on 6.12, each
    of its series (driver-core, majors, partitions, as on 6.1) in turn
    and as committed, cover letters included.  The 6.12 tree is the
    nightly's (make kernel-all), not make test's: without it the test is
    nightly-only, and in the nightly its absence fails."""
    if not (BUILD / "linux-6.12" / "scripts" / "checkpatch.pl").exists():
        missing = "no 6.12 pristine tree (make kernel VARIANTS=patched-6.12)"
        if os.environ.get("BLKSCALE_NIGHTLY") == "1":
            pytest.fail(missing)
        pytest.skip(f"nightly test (BLKSCALE_NIGHTLY=1): {missing}")
    patches = tmp_path / "patches"
    shutil.copytree(SERIES_ROOT / "6.12", patches)
    rc, out = check(patches, CHECK_SERIES_VARIANT="patched-6.12",
                    CHECK_SERIES_DIR=str(CHECK_DIR.with_name(
                        "check-series-tests-6.12")))
    assert rc == 0, out
    for series in ("driver-core", "majors", "partitions"):
        assert f"check-series: series {patches}/{series}" in out, out
    assert out.count("patch on linux-source-6.12") + \
        out.count("patches on linux-source-6.12") == 3, out
    assert "patches on linux-source-6.1 " not in out, out


@needs_tree
@pytest.mark.parametrize("variant, message", [
    ("stock", "CHECK_SERIES_VARIANT=stock: not a variant built from source "
              "with patches"),
    ("debian", "CHECK_SERIES_VARIANT=debian: not a variant built from "
               "source with patches"),
    ("nosuch", "nosuch"),
])
def test_a_variant_without_a_series_is_refused(copy, variant, message):
    rc, out = check(copy, CHECK_SERIES_VARIANT=variant)
    assert rc != 0
    assert message in out, out
    assert "applies" not in out, out


@needs_tree
def test_unknown_configuration_is_refused(copy):
    rc, out = check(copy, CHECK_SERIES_BUILD="1",
                    CHECK_SERIES_CONFIGS="x86_64 nosuch")
    assert rc != 0
    assert "CHECK_SERIES_CONFIGS: nosuch is not one of: x86_64 noprocfs " \
        "nolegacy i386 w1 sparse" in out, out


# A kernel build, so only when asked (CHECK_SERIES_BUILD_TESTS=1) or in
# the nightly: one patch that adds a function without a prototype, which
# only W=1 warns of.
BUILD_TESTS = pytest.mark.skipif(
    "1" not in (os.environ.get("CHECK_SERIES_BUILD_TESTS"),
                os.environ.get("BLKSCALE_NIGHTLY")),
    reason="nightly test, compiles kernel files: set BLKSCALE_NIGHTLY=1 "
           "or CHECK_SERIES_BUILD_TESTS=1 to run it")


def one_patch_series(dest, path, added):
    """DEST/ holding a series of one patch that appends ADDED to PATH of
    the pristine tree, with its cover letter."""
    dest.mkdir()
    pristine = BUILD / "linux" / path
    changed = dest / "changed.c"
    changed.write_text(pristine.read_text() + added)
    diff = subprocess.run(["git", "diff", "--no-index", str(pristine),
                           str(changed)], capture_output=True, text=True).stdout
    changed.unlink()
    diff = re.sub(r"^(diff --git|---|\+\+\+) .*$",
                  lambda m: {"diff --git": f"diff --git a/{path} b/{path}",
                             "---": f"--- a/{path}",
                             "+++": f"+++ b/{path}"}[m[1]],
                  diff, flags=re.M)
    diff = re.sub(r"^index .*\n", "", diff, flags=re.M)
    plus = len(re.findall(r"^\+(?!\+\+ )", diff, re.M))
    head = ("From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
            f"From: {PLACEHOLDER}\nDate: Fri, 4 Dec 2026 00:00:00 +0000\n")
    (dest / "0000-cover-letter.patch").write_text(
        head + "Subject: [PATCH 0/1] test: a function without a prototype\n\n"
        "A test of check-series.\n\nbase-commit: " + "0" * 40 + "\n")
    (dest / "0001-test.patch").write_text(
        head + "Subject: [PATCH 1/1] test: add a function without a prototype\n\n"
        "Only W=1 warns of it.\n\n"
        f"Signed-off-by: {PLACEHOLDER}\n---\n"
        f" {path} | {plus} {'+' * plus}\n"
        f" 1 file changed, {plus} insertions(+)\n\n" + diff +
        "-- \n2.39.5\n")
    (dest / "series").write_text("0001-test.patch\n")


@needs_tree
@BUILD_TESTS
def test_w1_fails_on_a_warning_new_against_base(tmp_path):
    """The patch's file compiles in every configuration asked for; W=1
    fails on the new warning only, not on those block/genhd.c gives at
    base."""
    patches = tmp_path / "patches"
    one_patch_series(patches, "block/genhd.c",
                     "\nint check_series_w1_test(void)\n{\n\treturn 0;\n}\n")
    env = dict(os.environ, CHECK_SERIES_PATCHES=str(patches),
               CHECK_SERIES_DIR=str(CHECK_DIR),
               CHECK_SERIES_CONFIGS="noprocfs w1")
    res = subprocess.run([str(SCRIPT)],
                         capture_output=True, text=True, env=env, timeout=3600)
    out = res.stdout + res.stderr
    assert res.returncode != 0, out
    assert re.search(r"ok +base: w1: configured, prepared", out), out
    assert re.search(r"noprocfs +ok +block/genhd.o compile, no warning new "
                     r"against base", out), out
    assert re.search(r"w1 +FAIL +1 new warning\(s\) against base, first: "
                     r"block/genhd.c: warning: no previous prototype for "
                     r"['‘]check_series_w1_test['’]", out), out


# --- format-series ----------------------------------------------------------

def format_series(patches, out, name, email):
    """format-series.sh on PATCHES into OUT with the git identity NAME
    <EMAIL>, given at the highest precedence git knows (the environment)."""
    env = dict(os.environ, FORMAT_SERIES_PATCHES=str(patches),
               FORMAT_SERIES_OUT=str(out), GIT_CONFIG_COUNT="2",
               GIT_CONFIG_KEY_0="user.name", GIT_CONFIG_VALUE_0=name,
               GIT_CONFIG_KEY_1="user.email", GIT_CONFIG_VALUE_1=email)
    res = subprocess.run([str(FORMAT)], capture_output=True, text=True,
                         env=env, timeout=60)
    return res.returncode, res.stdout, res.stderr


@pytest.fixture
def raw_copy(tmp_path):
    dest = tmp_path / "patches"
    shutil.copytree(PATCHES, dest)
    return dest


def test_format_series_writes_the_senders_identity(raw_copy, tmp_path):
    out = tmp_path / "out"
    who = "Ada Lovelace <ada@example.org>"
    rc, stdout, stderr = format_series(raw_copy, out, "Ada Lovelace",
                                       "ada@example.org")
    assert rc == 0, stderr
    names = series_names()
    files = sorted(p.name for p in out.iterdir())
    assert files == sorted(["0000-cover-letter.patch"] + names)
    for name in files:
        before = (raw_copy / name).read_text().split("\n")
        after = (out / name).read_text().split("\n")
        assert len(before) == len(after)
        assert PLACEHOLDER not in "\n".join(after)
        assert f"From: {who}" in after
        if name != "0000-cover-letter.patch":
            assert f"Signed-off-by: {who}" in after
        # only the lines that name the author change
        for b, a in zip(before, after):
            if b != a:
                assert b in (f"From: {PLACEHOLDER}",
                             f"Signed-off-by: {PLACEHOLDER}") or \
                    re.match(r"blkscale developers \(\d+\):$", b), (b, a)
    assert "git send-email" in stdout


@pytest.mark.parametrize("name,email,why", [
    ("", "", "no git identity"),
    ("Ada Lovelace", "", "no git identity"),
    ("blkscale developers", "blkscale@localhost", "is the series' placeholder"),
    ("Ada Lovelace", "blkscale@localhost", "is the series' placeholder"),
])
def test_format_series_refuses_without_a_senders_identity(
        raw_copy, tmp_path, name, email, why):
    out = tmp_path / "out"
    rc, stdout, stderr = format_series(raw_copy, out, name, email)
    assert rc != 0
    assert why in stderr and len(stderr.strip().split("\n")) == 1, stderr
    assert not out.exists()


def test_format_series_refuses_a_placeholder_it_cannot_replace(
        raw_copy, tmp_path):
    name = series_names()[0]
    edit(raw_copy / name, f"Signed-off-by: {PLACEHOLDER}",
         f"Co-developed-by: {PLACEHOLDER}\nSigned-off-by: {PLACEHOLDER}")
    out = tmp_path / "out"
    rc, stdout, stderr = format_series(raw_copy, out, "Ada Lovelace",
                                       "ada@example.org")
    assert rc != 0
    assert f"remains in {name}" in stderr, stderr
    assert not out.exists()
