"""blkscale installs as a package: into a virtual environment, with
Debian's setuptools (no build isolation, no package index), it gives a
`blkscale` command that works as ./blkscale does, from the installed
files and not the checkout's, and from any directory: on the checkout it
was installed from, or the one --home or BLKSCALE_HOME names, never on
the current directory."""

import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

from launchertest import REPO, run_cli


def _run(argv, status=0, **kw):
    out = subprocess.run([str(a) for a in argv], capture_output=True,
                         text=True, timeout=600, **kw)
    assert out.returncode == status, out.stderr
    return out


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    for module, package in (("venv", "python3-venv"), ("pip", "python3-pip"),
                            ("ensurepip", "python3-venv"),
                            ("wheel", "python3-wheel")):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{package} is not installed (make deps)")
    v = tmp_path_factory.mktemp("install") / "v"
    _run([sys.executable, "-m", "venv", "--system-site-packages", v])
    _run([v / "bin" / "pip", "install", "--no-build-isolation",
          "--no-index", "--no-cache-dir", "--quiet", REPO])
    return v


def _env(**changes):
    env = {k: v for k, v in os.environ.items() if k != "BLKSCALE_HOME"}
    env.update(changes)
    return env


def test_installed_command_plans_as_the_checkout_does(venv):
    installed = _run([venv / "bin" / "blkscale", "plan",
                      "topologies/smoke.toml"], cwd=REPO, env=_env())
    assert installed.stdout == run_cli("plan",
                                       "topologies/smoke.toml").stdout
    assert "topology smoke (topologies/smoke.toml)" in installed.stdout


def _sized(text):
    """Output with its sizes of the environment's part of ARG_MAX
    masked: the shell of ./blkscale sets PWD to the directory it starts
    in, and --home adds BLKSCALE_HOME, so the same command line has a KiB
    more or less room."""
    return re.sub(r"\b\d+ KiB\b", "N KiB", text)


def test_installed_command_works_from_any_directory(venv, tmp_path):
    blkscale = venv / "bin" / "blkscale"
    for argv in (["variants"], ["plan", "topologies/smoke.toml"]):
        want = _sized(run_cli(*argv, env=_env()).stdout)
        assert want.split()[0] in ("variant", "topology")
        # The checkout it was installed from, found by the install.
        runs = [_run([blkscale, *argv], cwd=tmp_path, env=_env()),
                # Told where it is.
                _run([blkscale, "--home", REPO, *argv], cwd=tmp_path,
                     env=_env()),
                _run([blkscale, *argv], cwd=tmp_path,
                     env=_env(BLKSCALE_HOME=str(REPO))),
                # ./blkscale of the checkout, started elsewhere.
                run_cli(*argv, cwd=tmp_path, env=_env())]
        assert [_sized(out.stdout) for out in runs] == [want] * len(runs)


def test_a_home_is_what_the_command_works_on(venv, tmp_path):
    """--home wins over the checkout found; a home without a
    variants.toml says so, naming the file."""
    out = _run([venv / "bin" / "blkscale", "--home", tmp_path, "variants"],
               status=2, cwd=REPO, env=_env())
    assert out.stderr == "kernel/variants.toml: No such file or directory\n"
    missing = tmp_path / "gone"
    out = _run([venv / "bin" / "blkscale", "--home", missing, "variants"],
               status=2, cwd=REPO, env=_env())
    assert out.stderr == f"blkscale: {missing}: not a directory (--home, " \
                         "BLKSCALE_HOME)\n"


def test_without_a_checkout_a_command_says_so(venv, tmp_path):
    """The install's record of where it came from names no checkout: no
    subcommand runs, help still does, and the current directory, a
    checkout, is not taken instead."""
    record = next((venv / "lib").glob("python3*/site-packages/"
                                      "blkscale-*.dist-info/direct_url.json"))
    kept = record.read_text()
    record.write_text(json.dumps({"url": tmp_path.as_uri(), "dir_info": {}}))
    try:
        out = _run([venv / "bin" / "blkscale", "variants"], status=2,
                   cwd=REPO, env=_env())
        assert out.stderr == "blkscale: no checkout to work on: give --home " \
                             "DIR or set BLKSCALE_HOME (a blkscale checkout)\n"
        assert out.stdout == ""
        _run([venv / "bin" / "blkscale", "--help"], cwd=tmp_path, env=_env())
    finally:
        record.write_text(kept)


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


def test_a_python_without_wheel_is_told_to_use_debians():
    """pip would only say "invalid command 'bdist_wheel'"; -S leaves
    Debian's wheel (and setuptools) off the path."""
    out = _run([sys.executable, "-S", REPO / "setup.py", "bdist_wheel"],
               status=1, cwd=REPO)
    assert out.stderr == (f"blkscale: {sys.executable} has no wheel package "
                          "(pip: invalid command 'bdist_wheel'); install "
                          "with Debian's: /usr/bin/python3 -m venv "
                          "--system-site-packages v\n")
