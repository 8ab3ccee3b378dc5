"""blkscale installs as a package: into a virtual environment, with
Debian's setuptools (no build isolation, no package index), it gives a
`blkscale` command that works on the checkout it is started in, as
./blkscale does, from the installed files and not the checkout's."""

import importlib.util
import subprocess
import sys

import pytest

from launchertest import REPO, run_cli


def _run(argv, **kw):
    out = subprocess.run([str(a) for a in argv], capture_output=True,
                         text=True, timeout=600, **kw)
    assert out.returncode == 0, out.stderr
    return out


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    for module, package in (("venv", "python3-venv"), ("pip", "python3-pip"),
                            ("ensurepip", "python3-venv")):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{package} is not installed (make deps)")
    v = tmp_path_factory.mktemp("install") / "v"
    _run([sys.executable, "-m", "venv", "--system-site-packages", v])
    _run([v / "bin" / "pip", "install", "--no-build-isolation",
          "--no-index", "--no-cache-dir", "--quiet", REPO])
    return v


def test_installed_command_plans_as_the_checkout_does(venv):
    installed = _run([venv / "bin" / "blkscale", "plan",
                      "topologies/smoke.toml"], cwd=REPO)
    assert installed.stdout == run_cli("plan",
                                       "topologies/smoke.toml").stdout
    assert "topology smoke (topologies/smoke.toml)" in installed.stdout


def test_installed_command_runs_the_installed_packages(venv, tmp_path):
    where = _run([venv / "bin" / "python", "-c",
                  "import blkscale, blkscale_bench, blkscale_cli, "
                  "blkscale_reports; print(blkscale.__file__, "
                  "blkscale_bench.__file__, blkscale_cli.__file__, "
                  "blkscale_reports.__file__)"], cwd=tmp_path).stdout
    for path in where.split():
        assert path.startswith(str(venv)), path


def test_installed_command_lists_every_subcommand(venv):
    listed = _run([venv / "bin" / "blkscale", "--help"], cwd=REPO).stdout
    assert listed == run_cli("--help").stdout
    for name in ("baseline", "bench", "nightly", "plan", "report", "run"):
        assert f"    {name} " in listed, name
