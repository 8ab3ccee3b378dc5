"""A sweep over two libvirt hosts with the fake launcher: the queue uses
both, each topology's runs stay on one host, the manifest and the table
group by host, a host that dies mid-sweep has its unit run again on the
other, a unit no host can run ends failed, and bad `hosts` entries are
one line naming the entry."""

import os
import signal
import subprocess
import time
from urllib.parse import quote

import pytest

A = "qemu:///system"
B = "qemu+unix:///system?socket=/nonexistent/libvirt-sock"


@pytest.fixture
def hosts_env(bench_env):
    d = bench_env.tmp / "hosts"
    d.mkdir()
    bench_env.hosts_dir = d
    # Runs that take a moment, so that both hosts get a unit.
    bench_env.env.update(FAKE_HOSTS_DIR=str(d), FAKE_RUN_S="0.2")
    bench_env.sweep = bench_env.write_sweep(
        "two-hosts", ["small", "big"], f'repeat = 2\nhosts = ["{A}", "{B}"]\n')
    return bench_env


def mark(env, uri, suffix, text):
    (env.hosts_dir / (quote(uri, safe="") + suffix)).write_text(text)


def counted(m):
    return [r for r in m["runs"] if not r["superseded"]]


def test_both_hosts_run_and_figures_group_by_host(hosts_env):
    out = hosts_env.run("bench")
    assert out.returncode == 0, out.stderr
    m = hosts_env.manifest()
    assert [h["uri"] for h in m["hosts"]] == [A, B]
    assert all(h["libvirt_version"] == "9.0.0" and h["cpus"] == 2 and
               h["qemu_version"] and h["accelerator"] == "tcg"
               for h in m["hosts"])
    ran_on = {}
    for r in m["runs"]:
        ran_on.setdefault(r["topology"], set()).add(r["host"])
    assert all(len(h) == 1 for h in ran_on.values()), ran_on
    assert {h for hs in ran_on.values() for h in hs} == {A, B}, \
        "the queue used one host only"
    assert sorted(u for h in m["hosts"] for u in h["units"]) == \
        ["big", "small"]
    assert m["moves"] == [] and len(m["runs"]) == 8
    # This machine's load says nothing of a run on a libvirt host.
    assert all(r["host_load"]["loaded"] is None and
               r["host_load"]["note"] == "not judged on libvirt hosts"
               for r in m["runs"])
    assert "LOADED" not in out.stdout
    # The interleaved order holds within a unit.
    small = [(r["variant"], r["repeat"]) for r in m["runs"]
             if r["topology"] == "small"]
    assert small == [("stock", 1), ("patched", 1), ("patched", 2),
                     ("stock", 2)]
    lines = out.stdout.splitlines()
    heads = [i for i, ln in enumerate(lines) if ln.startswith("host ")]
    assert len(heads) == 2
    first = lines[heads[0]:heads[1]]
    host_of_small = ran_on["small"].pop()
    assert any(ln.startswith("small") for ln in first) == \
        (host_of_small == A)


def test_a_host_dying_mid_sweep_loses_no_run(hosts_env):
    # B dies during its second run: the unit it runs moves to A.
    mark(hosts_env, B, ".die-after", "2")
    out = hosts_env.run("bench")
    assert out.returncode == 0, out.stdout + out.stderr
    m = hosts_env.manifest()
    assert m["status"] == "complete"
    failed = [h for h in m["hosts"] if h["failed"]]
    assert [h["uri"] for h in failed] == [B]
    assert "libvirtd is gone" in failed[0]["failed"]
    assert len(m["moves"]) == 1
    move = m["moves"][0]
    assert (move["from"], move["to"]) == (B, A)
    assert "libvirtd is gone" in move["reason"]
    superseded = [r for r in m["runs"] if r["superseded"]]
    assert len(superseded) == 2 and \
        {r["host"] for r in superseded} == {B}
    assert all(r["launcher_log"].startswith(f"moved/{move['unit']}.1/")
               and os.path.isfile(hosts_env.results / "r1" /
                                  r["launcher_log"]) for r in superseded)
    kept = counted(m)
    assert len(kept) == 8 and all(r["outcome"] == "ok" for r in kept)
    assert {r["host"] for r in kept if r["topology"] == move["unit"]} == {A}
    assert f"{move['unit']}: moved from {B} to {A}" in out.stdout
    # The figures count the runs on A only: four per variant pair.
    for topo in ("small", "big"):
        assert m["figures"][topo]["stock"]["disks_found"]["n"] == 2


def test_a_unit_no_host_can_start_ends_failed(hosts_env):
    mark(hosts_env, A, ".no-domain", "")
    mark(hosts_env, B, ".no-domain", "")
    out = hosts_env.run("bench")
    assert out.returncode == 1, out.stdout + out.stderr
    m = hosts_env.manifest()
    assert m["status"] == "partial"
    assert "failed on two hosts" in m["partial_reason"] or \
        "no other host left" in m["partial_reason"]
    assert [mv for mv in m["moves"] if mv["to"] is None]
    assert counted(m) == []
    runs_per_unit = {}
    for r in m["runs"]:
        runs_per_unit.setdefault(r["topology"], []).append(r["host"])
    assert all(len(h) <= 2 for h in runs_per_unit.values()), \
        "a unit was tried more than twice"


def test_no_usable_host_is_refused_before_anything_starts(hosts_env):
    mark(hosts_env, A, ".dead", "cannot connect to the daemon")
    mark(hosts_env, B, ".dead", "cannot connect to the daemon")
    out = hosts_env.run("bench")
    assert out.returncode == 2
    assert out.stderr.strip() == (
        f"{hosts_env.sweep}: hosts[0]: {A}: cannot connect to the daemon "
        "(and no other host can run)")
    assert not (hosts_env.results / "r1").exists()
    assert not any(c.startswith("run ") for c in hosts_env.calls())


def test_an_unusable_host_is_left_out(hosts_env):
    mark(hosts_env, B, ".dead", "no /dev/kvm and no qemu")
    out = hosts_env.run("bench")
    assert out.returncode == 0, out.stderr
    assert f"host {B} left out: no /dev/kvm and no qemu" in out.stderr
    m = hosts_env.manifest()
    assert {r["host"] for r in m["runs"]} == {A}
    assert [h["usable"] for h in m["hosts"]] == [True, False]


def test_command_line_hosts(hosts_env):
    plain = hosts_env.write_sweep("plain", ["small"])
    out = hosts_env.run("bench", "--host", f"{A} {B}", "--slots", "2",
                        sweep=plain)
    assert out.returncode == 0, out.stderr
    m = hosts_env.manifest()
    assert [(h["uri"], h["slots"]) for h in m["hosts"]] == [(A, 2), (B, 2)]
    assert all("--libvirt-uri" in r["command"] for r in m["runs"])


@pytest.mark.parametrize("hosts, problem", [
    ('"qemu:///system"', "hosts: must be a non-empty array"),
    ('[]', "hosts: must be a non-empty array"),
    ('["xen:///system"]', "hosts[0]: 'xen:///system': not a QEMU driver"),
    ('["qemu:///system", "qemu+ftp://h/system"]',
     "hosts[1]: 'qemu+ftp://h/system': unknown transport"),
    ('["qemu:///nowhere"]', "hosts[0]: 'qemu:///nowhere': path must be"),
    ('["qemu+ssh:///system"]', "hosts[0]: 'qemu+ssh:///system': the ssh "
     "transport needs a host name"),
    ('["qemu:///system?socket=/s"]', "hosts[0]: 'qemu:///system?socket=/s'"
     ": socket= needs the qemu+unix transport"),
    ('["qemu:///system", "qemu:///system"]', "hosts[1]: 'qemu:///system' "
     "is listed twice"),
    ('[{uri = "qemu:///system", slots = 0}]', "hosts[0].slots: must be an "
     "integer 1..64, got 0"),
    ('[{uri = "qemu:///system", cores = 2}]', "hosts[0].cores: unknown key"),
    ('[{slots = 2}]', "hosts[0]: needs a uri"),
    ('[3]', "hosts[0]: must be a libvirt URI"),
    ('[{uri = "qemu:///system", staging = "nfs"}]', "hosts[0].staging: "
     "'nfs': use shared or volumes"),
    ('[{uri = "qemu:///system", staging = 1}]', "hosts[0].staging: must be "
     '"shared" or "volumes", got 1'),
    ('[{uri = "qemu+ssh://b2/system", staging = "shared"}]',
     "hosts[0].staging: shared: qemu+ssh://b2/system is not on this "
     "machine"),
])
def test_bad_hosts_entry_is_one_line(hosts_env, hosts, problem):
    sweep = hosts_env.write_sweep("bad", ["small"], f"hosts = {hosts}\n")
    out = hosts_env.run("bench", sweep=sweep)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert out.stderr.startswith(f"{sweep}: {problem}"), out.stderr
    assert not (hosts_env.results / "r1").exists()


def test_staging_goes_to_hosts_check_and_every_run(hosts_env):
    sweep = hosts_env.write_sweep(
        "staged", ["small", "big"],
        f'hosts = [{{uri = "{A}", staging = "volumes"}}, "{B}"]\n')
    out = hosts_env.run("bench", sweep=sweep)
    assert out.returncode == 0, out.stderr
    m = hosts_env.manifest()
    assert [(h["uri"], h["staging"]) for h in m["hosts"]] == [
        (A, "volumes"), (B, "shared")]
    for r in m["runs"]:
        assert ("--staging=volumes" in r["command"]) == (r["host"] == A), r
    calls = hosts_env.log.read_text().splitlines()
    checks = [c for c in calls if c.startswith("hosts check")]
    assert f"hosts check --json {A} --staging=volumes" in checks
    assert f"hosts check --json {B}" in checks


def test_command_line_staging(hosts_env):
    plain = hosts_env.write_sweep("plain", ["small"])
    out = hosts_env.run("bench", "--host", A, "--staging", "volumes",
                        sweep=plain)
    assert out.returncode == 0, out.stderr
    m = hosts_env.manifest()
    assert [h["staging"] for h in m["hosts"]] == ["volumes"]
    assert all("--staging=volumes" in r["command"] for r in m["runs"])
    out = hosts_env.run("bench", "--host", "qemu+ssh://b2/system",
                        "--staging", "shared", sweep=plain)
    assert out.returncode == 2
    assert out.stderr.startswith("command line: --staging: shared: "
                                 "qemu+ssh://b2/system is not on this "), \
        out.stderr
    out = hosts_env.run("bench", "--staging", "volumes", sweep=plain)
    assert out.returncode == 2
    assert out.stderr.strip() == "command line: --staging: needs --host"


def test_slots_without_host_is_refused(hosts_env):
    out = hosts_env.run("bench", "--slots", "2",
                        sweep=hosts_env.write_sweep("plain", ["small"]))
    assert out.returncode == 2
    assert out.stderr.strip() == "command line: --slots: needs --host"


def _wait_for(predicate, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_sigint_stops_the_run_on_every_host(hosts_env):
    env = dict(hosts_env.env, FAKE_MODE="sleep")
    proc = subprocess.Popen(hosts_env.argv("bench"), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert _wait_for(lambda: len([c for c in hosts_env.calls()
                                      if c.startswith("sleeping")]) == 2), \
            "two runs never ran at once"
        children = sorted(int(c.split()[-1]) for c in hosts_env.calls()
                          if c.startswith("sleeping"))
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    signals = sorted(int(c.split()[-1]) for c in hosts_env.calls()
                     if c.startswith("signal SIGINT"))
    assert signals == children, "each host's run gets the signal once"
    assert len([c for c in hosts_env.calls() if c.startswith("run ")]) == 2
    m = hosts_env.manifest()
    assert m["status"] == "partial"
    assert m["partial_reason"] == "interrupted by SIGINT"
    assert sorted(r["host"] for r in m["runs"]) == sorted([A, B])
    assert all(r["outcome"] == "interrupted" for r in m["runs"])


def test_figures_of_two_hosts_are_never_pooled(hosts_env):
    """A manifest whose counted runs of one topology name two hosts (a
    hand-merged sweep) is refused, not averaged."""
    import json
    out = hosts_env.run("bench")
    assert out.returncode == 0, out.stderr
    path = hosts_env.results / "r1" / "manifest.json"
    m = json.loads(path.read_text())
    run = next(r for r in m["runs"] if r["topology"] == "small")
    run["host"] = A if run["host"] == B else B
    path.write_text(json.dumps(m))
    shown = hosts_env.run_plain("bench", "--show",
                                str(hosts_env.results / "r1"))
    assert shown.returncode == 2
    assert "figures of two hosts are never pooled" in shown.stderr
    assert len(shown.stderr.strip().splitlines()) == 1
