"""The kernel variants as built by `make kernel`: the patched tree differs
from the pristine one by exactly kernel/patches/series, both variants are
up to date for make, and each release names its variant."""
import pathlib
import subprocess

import pytest

TOP = pathlib.Path(__file__).resolve().parents[2]
BUILD = TOP / "build"
PATCHES = TOP / "kernel" / "patches"


def git(tree, *args):
    return subprocess.run(["git", "-C", str(tree), *args], check=True,
                          capture_output=True, text=True).stdout


def series():
    path = PATCHES / "series"
    if not path.exists():
        return []
    names = [line.split("#")[0].strip() for line in path.read_text().splitlines()]
    return [PATCHES / n for n in names if n]


def patch_id(diff_text):
    out = subprocess.run(["git", "patch-id", "--stable"], input=diff_text,
                         capture_output=True, text=True, check=True).stdout
    return out.split()[0] if out else None


@pytest.fixture(scope="module")
def built():
    for variant in ("stock", "patched"):
        if not (BUILD / "kernel" / "out" / variant / "bzImage").exists():
            pytest.skip(f"{variant} kernel not built (make kernel)")


def test_series_files_exist():
    for patch in series():
        assert patch.is_file(), f"kernel/patches/series names missing {patch.name}"


def test_stock_tree_is_pristine(built):
    tree = BUILD / "kernel" / "stock"
    assert git(tree, "rev-parse", "HEAD") == git(tree, "rev-parse", "base^{commit}")
    assert git(tree, "diff", "--stat", "base") == ""


def test_patched_tree_is_exactly_the_series(built):
    tree = BUILD / "kernel" / "patched"
    commits = git(tree, "rev-list", "--reverse", "base..HEAD").split()
    patches = series()
    assert len(commits) == len(patches)
    for commit, patch in zip(commits, patches):
        assert patch_id(git(tree, "show", commit)) == patch_id(patch.read_text()), \
            f"{patch.name} differs from the commit applied in the patched tree"
    # Nothing else changed in the tree either.
    assert git(tree, "status", "--porcelain", "--untracked-files=no") == ""


@pytest.mark.parametrize("variant", ["stock", "patched"])
def test_release_names_variant(built, variant):
    release = (BUILD / "kernel" / "out" / variant / "release").read_text().strip()
    assert release.startswith("6.1.") and release.endswith(f"-{variant}")


def test_make_kernel_is_up_to_date(built):
    """A second `make kernel` has nothing to do."""
    result = subprocess.run(["make", "-q", "-C", str(TOP), "kernel"],
                            capture_output=True, text=True)
    assert result.returncode == 0, "make kernel would rebuild with nothing changed"
