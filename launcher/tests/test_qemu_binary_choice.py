"""guest.qemu and run --qemu: the binary chosen reaches QEMU's command
line and results.json's host.qemu (path, version, patch set), and a
patched binary that is not built is refused in one line naming the
field.  A stand-in takes the place of `make qemu`'s build; nothing is
built."""

import json
import os

import pytest

from launchertest import FAKE_QEMU, run_cli

DISKS = '[[virtio_blk]]\nid = "a"\ncount = 2\n'
SUBJECTS = ["block: find nodes by name in a hash table",
            "qom: remember the child property that holds an object"]


def _topology(tmp_path, qemu=None):
    path = tmp_path / "q.toml"
    line = f'qemu = "{qemu}"\n' if qemu is not None else ""
    path.write_text('[guest]\nvariants = ["patched"]\n' + line + DISKS)
    return path


def _patched_build(fake_build):
    """build/qemu/out as `make qemu` leaves it, its binary the fake."""
    out = fake_build / "qemu" / "out"
    out.mkdir(parents=True)
    binary = out / "qemu-system-x86_64"
    binary.symlink_to(FAKE_QEMU)
    (out / "base").write_text("qemu 1:7.2+dfsg-7+deb12u18\n")
    (out / "patches").write_text("\n".join(SUBJECTS) + "\n")
    return binary


def _run(tmp_path, env, *args, topology=None):
    out = run_cli("run", topology or _topology(tmp_path), "--accel", "tcg",
                  "--run-id", "r", "--results-dir", tmp_path / "results",
                  *args, env=dict(env, FAKE_QEMU_SCENARIO="ok"))
    doc = None
    results = tmp_path / "results" / "r" / "patched" / "results.json"
    if results.exists():
        doc = json.loads(results.read_text())
    return out, doc


def test_distro_by_default(tmp_path, fake_env):
    out, doc = _run(tmp_path, fake_env)
    assert out.returncode == 0, out.stderr
    assert doc["host"]["command"][0] == str(FAKE_QEMU)
    qemu = doc["host"]["qemu"]
    assert (qemu["kind"], qemu["path"], qemu["patches"]) == (
        "distro", str(FAKE_QEMU), [])
    assert qemu["version"] == doc["host"]["qemu_version"]
    assert "blkscale test double" in qemu["version"]


@pytest.mark.parametrize("how", ["flag", "topology"])
def test_patched_reaches_command_line_and_results(how, tmp_path, fake_env,
                                                  fake_build):
    binary = _patched_build(fake_build)
    if how == "flag":
        out, doc = _run(tmp_path, fake_env, "--qemu", "patched")
    else:
        out, doc = _run(tmp_path, fake_env,
                        topology=_topology(tmp_path, "patched"))
    assert out.returncode == 0, out.stderr
    assert doc["host"]["command"][0] == str(binary)
    assert doc["host"]["qemu"] == {
        "path": str(binary), "kind": "patched",
        "version": "QEMU emulator version 7.2.0 (blkscale test double)",
        "base": "qemu 1:7.2+dfsg-7+deb12u18", "patches": SUBJECTS}


def test_flag_overrides_topology(tmp_path, fake_env, fake_build):
    _patched_build(fake_build)
    out, doc = _run(tmp_path, fake_env, "--qemu", "distro",
                    topology=_topology(tmp_path, "patched"))
    assert out.returncode == 0, out.stderr
    assert doc["host"]["qemu"]["kind"] == "distro"


def test_a_path(tmp_path, fake_env):
    out, doc = _run(tmp_path, fake_env, "--qemu", FAKE_QEMU,
                    topology=_topology(tmp_path))
    assert out.returncode == 0, out.stderr
    assert doc["host"]["command"][0] == str(FAKE_QEMU)
    assert doc["host"]["qemu"]["path"] == str(FAKE_QEMU)


@pytest.mark.parametrize("how,field", [("flag", "--qemu"),
                                       ("topology", "guest.qemu")])
def test_patched_not_built_is_refused(how, field, tmp_path, fake_env):
    if how == "flag":
        out, doc = _run(tmp_path, fake_env, "--qemu", "patched")
    else:
        out, doc = _run(tmp_path, fake_env,
                        topology=_topology(tmp_path, "patched"))
    assert out.returncode == 2
    assert doc is None
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert field in lines[0] and "run make qemu" in lines[0]
    assert not (tmp_path / "results").exists()


def test_not_an_executable_is_refused(tmp_path, fake_env):
    missing = tmp_path / "no-such-qemu"
    out, _ = _run(tmp_path, fake_env, "--qemu", missing)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1
    assert f"--qemu: {missing}: not an executable file" in out.stderr


def test_dry_run_shows_the_patched_binary(tmp_path, fake_env, fake_build):
    binary = _patched_build(fake_build)
    out = run_cli("run", _topology(tmp_path), "--dry-run", "--accel", "tcg",
                  "--qemu", "patched", env=fake_env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1].startswith(str(binary))


def test_guest_qemu_must_be_a_string(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[guest]\nqemu = 3\n" + DISKS)
    out = run_cli("validate", path)
    assert out.returncode == 2
    assert "guest.qemu" in out.stderr and "string" in out.stderr
    assert os.path.basename(path) in out.stderr


def test_libvirt_refuses_a_qemu_of_its_own(tmp_path, fake_env):
    """libvirt starts its host's QEMU (LibvirtBackend.starts): another
    binary is refused before anything starts."""
    other = tmp_path / "qemu-system-x86_64"
    other.symlink_to(FAKE_QEMU)
    out, doc = _run(tmp_path, fake_env, "--qemu", other, "--backend",
                    "libvirt")
    assert out.returncode == 2 and doc is None
    assert out.stderr == ("blkscale: --qemu: the libvirt backend starts its "
                          "host's own QEMU; use --backend qemu\n")
    assert not (tmp_path / "results").exists()
