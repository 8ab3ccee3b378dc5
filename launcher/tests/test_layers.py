"""The packages stand on one another in one order, and find one another
without path tricks.

    blkscale_cli                       the command, above the three
    blkscale_bench, blkscale_reports   side by side: neither imports the other
    blkscale                           the launcher, results, figures

A package imports only the ones below it; no file outside the tests puts
anything on sys.path (./blkscale sets PYTHONPATH for its child, an
install needs nothing).
"""

import ast
import subprocess

from launchertest import REPO

PACKAGES = {"blkscale": REPO / "launcher" / "blkscale",
            "blkscale_cli": REPO / "cli" / "blkscale_cli",
            "blkscale_bench": REPO / "bench" / "blkscale_bench",
            "blkscale_reports": REPO / "reports" / "blkscale_reports"}
BELOW = {"blkscale": set(),
         "blkscale_bench": {"blkscale"},
         "blkscale_reports": {"blkscale"},
         "blkscale_cli": {"blkscale", "blkscale_bench", "blkscale_reports"}}


def _imported(path):
    """Top-level names of the absolute imports of one file."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_each_package_imports_only_the_ones_below_it():
    wrong = []
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            for name in _imported(path) & set(PACKAGES) - {package}:
                if name not in BELOW[package]:
                    wrong.append(f"{path.relative_to(REPO)} imports {name}")
    assert wrong == []


def test_no_file_outside_the_tests_edits_sys_path():
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, check=True,
                             capture_output=True, text=True).stdout.split()
    scripts = [f for f in tracked if f.endswith(".py") or f == "blkscale"]
    assert "blkscale" in scripts and len(scripts) > 100
    editing = [f for f in scripts
               if "/tests/" not in f and not f.startswith("tests/")
               and "sys.path" in (REPO / f).read_text()]
    assert editing == []
