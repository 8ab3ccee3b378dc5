"""`blkscale hosts check URI...`: one line per libvirt host saying what a
run needs and whether a run can go there; the URI forms it accepts; and
the private second libvirtd (daemon.PrivateDaemon) it is tried on."""

import json
import os

import pytest

from launchertest import run_cli

from blkscale.libvirt import daemon, hostcheck
from blkscale.libvirt import uri as uri_form


@pytest.mark.parametrize("uri", [
    "qemu:///system", "qemu:///session", "qemu+ssh://u@h.example/system",
    "qemu+unix:///system?socket=/run/x/libvirt-sock",
    "qemu+tls://h.example/system"])
def test_good_uri_forms(uri):
    assert uri_form.problem(uri) is None


@pytest.mark.parametrize("uri, problem", [
    ("", "must be a libvirt URI"),
    ("qemu:///system x", "a URI has no spaces"),
    ("xen:///system", "not a QEMU driver URI"),
    ("qemu+ftp://h/system", "unknown transport 'ftp'"),
    ("qemu:///", "path must be /system or /session"),
    ("qemu:///system?socket=/s", "socket= needs the qemu+unix transport"),
    ("qemu+ssh:///system", "the ssh transport needs a host name"),
])
def test_bad_uri_forms(uri, problem):
    assert problem in uri_form.problem(uri)


def test_local_and_its_run_dir():
    assert uri_form.is_local("qemu:///system")
    assert uri_form.is_local("qemu+unix:///system?socket=/a/b/libvirt-sock")
    assert not uri_form.is_local("qemu+ssh://h/system")
    assert uri_form.run_dir("qemu+unix:///system?socket=/a/b/libvirt-sock",
                            "/run/libvirt/qemu") == "/a/b/qemu"
    assert uri_form.run_dir("qemu:///system", "/d") == "/d"


def test_bad_uri_is_one_line_and_usage():
    out = run_cli("hosts", "check", "qemu:///system", "xen:///system")
    assert out.returncode == 2
    assert out.stderr.strip() == ("blkscale: URI[1]: 'xen:///system': not a "
                                  "QEMU driver URI (qemu:// or "
                                  "qemu+TRANSPORT://)")
    assert out.stdout == ""


def test_unreachable_host_cannot_run(tmp_path):
    pytest.importorskip("libvirt")
    uri = f"qemu+unix:///system?socket={tmp_path}/libvirt-sock"
    out = run_cli("hosts", "check", uri)
    assert out.returncode == 1
    assert out.stdout.startswith(f"{uri}: run: no: cannot connect: ")
    assert len(out.stdout.splitlines()) == 1


def test_a_host_that_cannot_run_says_why_in_its_line():
    facts = {"uri": "qemu+ssh://h/system", "ok": False, "local": False,
             "staging": "volumes",
             "problem": "storage pool blkscale: cannot create: x",
             "libvirt_version": "9.0.0",
             "qemu_version": "QEMU emulator version 7.2.0",
             "machines": ["pc-i440fx-7.2", "pc"], "kvm": True, "cpus": 8,
             "cpu_model": "AMD EPYC", "memory_free_mib": 4096,
             "disk_free_mib": None}
    assert hostcheck.line(facts) == (
        "qemu+ssh://h/system: libvirt 9.0.0, QEMU 7.2.0, machines pc, "
        "/dev/kvm yes, memory 4.0 GiB free, disk ? free, 8 CPUs (AMD EPYC)"
        "; run: no: storage pool blkscale: cannot create: x")


def test_a_network_host_cannot_share_files(tmp_path):
    out = run_cli("hosts", "check", "--staging", "shared",
                  "qemu+ssh://h.invalid/system")
    assert out.returncode == 1
    assert out.stdout == (
        "qemu+ssh://h.invalid/system: run: no: staging shared: "
        "qemu+ssh://h.invalid/system is not on this machine and sees none "
        "of its files (use volumes)\n")


@pytest.fixture
def two_daemons(tmp_path):
    pytest.importorskip("libvirt")
    if os.geteuid() != 0:
        pytest.skip("a private libvirtd needs root")
    try:
        daemon.ensure(daemon.SYSTEM_URI)
    except Exception as e:
        pytest.skip(f"cannot start libvirtd: {e}")
    second = daemon.PrivateDaemon(tmp_path / "lv2")
    second.start()
    yield second
    second.stop()


def test_both_daemons_can_run(two_daemons):
    second = two_daemons
    assert second.socket.startswith(second.root)
    # Its own state and run directories, not the system daemon's.
    assert os.path.isfile(second.path("run", "libvirtd.pid"))
    assert os.path.isfile(second.path("log", "libvirtd.log"))
    out = run_cli("hosts", "check", daemon.SYSTEM_URI, second.uri)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 2
    for uri, line in zip((daemon.SYSTEM_URI, second.uri), lines):
        assert line.startswith(f"{uri}: libvirt ")
        assert line.endswith("; run: yes")
        for word in ("QEMU ", "machines ", " pc", "/dev/kvm ", "memory ",
                     "disk ", " CPUs ("):
            assert word in line, (word, line)
    facts = json.loads(run_cli("hosts", "check", "--json",
                               second.uri).stdout)
    assert facts[0]["ok"] and facts[0]["local"]
    assert facts[0]["cpus"] == os.cpu_count()
    assert "tcg" in facts[0]["accelerators"]


def test_a_killed_daemon_cannot_run(two_daemons):
    second = two_daemons
    second.kill()
    out = run_cli("hosts", "check", second.uri)
    assert out.returncode == 1
    assert f"{second.uri}: run: no: cannot connect" in out.stdout
