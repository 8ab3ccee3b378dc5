"""A sweep's QEMU binary: the sweep file's `qemu` or --qemu reaches every
launcher child, the manifest records the choice and the binary, the
table names a binary that is not the distro's, and a choice that cannot
run is refused in one line before anything runs.  A stand-in takes the
place of `make qemu`'s build; nothing is built."""

import os

import pytest

from blkscale.paths import REPO
from test_sweep_hosts import A, B, hosts_env  # noqa: F401 (a fixture)

SUBJECTS = ["block: find nodes by name in a hash table"]


def _patched_build(env):
    """BUILD/qemu/out as `make qemu` leaves it, answering --version."""
    out = env.tmp / "build" / "qemu" / "out"
    out.mkdir(parents=True)
    binary = out / "qemu-system-x86_64"
    binary.write_text("#!/bin/sh\necho 'QEMU emulator version 7.2.50 "
                      "(patched test double)'\n")
    binary.chmod(0o755)
    (out / "base").write_text("qemu 1:7.2+dfsg-7+deb12u18\n")
    (out / "patches").write_text("\n".join(SUBJECTS) + "\n")
    return binary


def _runs(env):
    """The launcher's `run` calls, split into words."""
    return [c.split() for c in env.calls() if c.startswith("run ")]


def _qemu_arg(argv):
    return argv[argv.index("--qemu") + 1] if "--qemu" in argv else None


def _header(out):
    """The first line of the sweep's table."""
    return next(ln for ln in out.stdout.splitlines()
                if ln.startswith("sweep r1"))


def _sweep(env, qemu):
    return env.write_sweep("q", ["small", "big"], f'qemu = "{qemu}"\n')


def test_sweep_file_qemu_reaches_every_run_and_the_manifest(bench_env):
    binary = _patched_build(bench_env)
    out = bench_env.run("bench", sweep=_sweep(bench_env, "patched"))
    assert out.returncode == 0, out.stderr
    runs = _runs(bench_env)
    assert len(runs) == 4
    assert [_qemu_arg(r) for r in runs] == ["patched"] * 4
    m = bench_env.manifest()
    assert m["sweep"]["qemu_requested"] == "patched"
    assert m["qemu"] == {
        "path": str(binary), "kind": "patched",
        "version": "QEMU emulator version 7.2.50 (patched test double)",
        "base": "qemu 1:7.2+dfsg-7+deb12u18", "patches": SUBJECTS}
    # The version of the binary the runs start, not the distro's.
    assert m["qemu_version"] == m["qemu"]["version"]
    assert all(r["qemu"] == {"kind": "patched", "path": str(binary)}
               for r in m["runs"])
    header = _header(out)
    assert f"QEMU 7.2.50 (patched, {binary})" in header, header


def test_command_line_overrides_the_sweep_file(bench_env):
    _patched_build(bench_env)
    out = bench_env.run("bench", "--qemu", "distro",
                        sweep=_sweep(bench_env, "patched"))
    assert out.returncode == 0, out.stderr
    assert {_qemu_arg(r) for r in _runs(bench_env)} == {"distro"}
    m = bench_env.manifest()
    assert m["sweep"]["qemu_requested"] == "distro"
    assert m["qemu"]["kind"] == "distro"
    assert m["qemu_version"] == "QEMU emulator version 7.2.99"
    assert "QEMU 7.2.99, host" in _header(out)


def _my_qemu(env):
    qemu = env.tmp / "my-qemu"
    qemu.write_text("#!/bin/sh\necho 'QEMU emulator version 8.0.0'\n")
    qemu.chmod(0o755)
    return qemu


def test_a_path_reaches_every_run_absolute(bench_env):
    qemu = _my_qemu(bench_env)
    out = bench_env.run("bench", "--qemu", str(qemu))
    assert out.returncode == 0, out.stderr
    assert {_qemu_arg(r) for r in _runs(bench_env)} == {str(qemu)}
    m = bench_env.manifest()
    assert (m["qemu"]["kind"], m["qemu"]["path"]) == ("path", str(qemu))
    assert m["qemu_version"] == "QEMU emulator version 8.0.0"
    assert f"QEMU 8.0.0 (path, {qemu})" in _header(out)


def test_without_a_choice_each_topology_chooses(bench_env):
    out = bench_env.run("bench")
    assert out.returncode == 0, out.stderr
    assert all(_qemu_arg(r) is None for r in _runs(bench_env))
    m = bench_env.manifest()
    assert m["sweep"]["qemu_requested"] is None and m["qemu"] is None
    assert m["runs"][0]["qemu"]["kind"] == "distro"


@pytest.mark.parametrize("how", ["file", "flag"])
def test_unbuilt_patched_is_refused_before_any_run(how, bench_env):
    if how == "file":
        sweep = _sweep(bench_env, "patched")
        out = bench_env.run("bench", sweep=sweep)
        where = f"{sweep}: qemu: "
    else:
        out = bench_env.run("bench", "--qemu", "patched")
        where = "command line: --qemu: "
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith(where) and "run make qemu" in lines[0]
    assert bench_env.calls() == [], "the launcher was started"
    assert not (bench_env.results / "r1").exists()


def test_not_an_executable_is_refused(bench_env):
    missing = bench_env.tmp / "no-such-qemu"
    out = bench_env.run("bench", "--qemu", str(missing))
    assert out.returncode == 2
    assert out.stderr == (f"command line: --qemu: {missing}: not an "
                          "executable file (use distro, patched or the path "
                          "of a qemu-system-x86_64)\n")
    assert not (bench_env.results / "r1").exists()


def test_qemu_must_be_a_string(bench_env):
    sweep = bench_env.write_sweep("q", ["small"], "qemu = 3\n")
    out = bench_env.run("bench", sweep=sweep)
    assert out.returncode == 2
    assert out.stderr.startswith(f"{sweep}: qemu: must be distro, patched")
    assert bench_env.calls() == []


def test_libvirt_hosts_refuse_another_binary(hosts_env):
    _patched_build(hosts_env)
    out = hosts_env.run("bench", "--qemu", "patched")
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("command line: --qemu: ")
    assert "libvirt hosts (hosts) start their own QEMU" in lines[0]
    assert not (hosts_env.results / "r1").exists()


def test_libvirt_hosts_get_the_distro_binary(hosts_env):
    out = hosts_env.run("bench", "--qemu", "distro")
    assert out.returncode == 0, out.stderr
    runs = _runs(hosts_env)
    assert runs and all(_qemu_arg(r) == "distro" and "--libvirt-uri" in r
                        for r in runs)


def test_nightly_takes_qemu(bench_env):
    out = bench_env.run_plain("nightly", "--help")
    assert out.returncode == 0 and "--qemu" in out.stdout


def test_a_sweep_file_path_is_relative_to_the_repository(bench_env):
    qemu = _my_qemu(bench_env)
    out = bench_env.run("bench", sweep=_sweep(
        bench_env, os.path.relpath(qemu, REPO)))
    assert out.returncode == 0, out.stderr
    assert {_qemu_arg(r) for r in _runs(bench_env)} == {str(qemu)}
    assert bench_env.manifest()["sweep"]["qemu_requested"] == str(qemu)
