"""A sweep over several libvirt hosts: the runs table has a Host column
with each host's runs together, the header names every host and the
unit that moved, runs a failed host made do not count, and a manifest
whose counted runs of one topology name two hosts is refused (figures of
two hosts are never pooled)."""

import json

from conftest import read_tables, run_report

A, B = "qemu:///system", "qemu+unix:///system?socket=/s/libvirt-sock"


def hosted(run_dir):
    """The fixture as if its first topology ran on B, the rest on A, and
    B had failed once before: one run of it superseded."""
    manifest = json.loads((run_dir / "manifest.json").read_text())
    runs = manifest["runs"]
    first = runs[0]["topology"]
    for r in runs:
        r.update(host=B if r["topology"] == first else A, superseded=False)
    ghost = dict(runs[0], host=A, superseded=True, outcome="qemu-died",
                 results=None)
    manifest["runs"] = [ghost] + runs
    manifest["hosts"] = [
        {"uri": A, "usable": True, "failed": "libvirtd is gone",
         "cpu_model": "CPU A", "cpus": 2, "units": [first],
         "qemu_version": "QEMU emulator version 7.2.0",
         "libvirt_version": "9.0.0", "accelerator": "tcg"},
        {"uri": B, "usable": True, "failed": None, "cpu_model": "CPU B",
         "cpus": 4, "units": [first], "qemu_version": "QEMU 7.2.0",
         "libvirt_version": "9.0.0", "accelerator": "tcg"}]
    manifest["moves"] = [{"unit": first, "from": A, "to": B,
                          "reason": "libvirtd is gone"}]
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    return manifest, first


def test_runs_grouped_by_host(fixture_copy):
    run_dir = fixture_copy("scale")
    manifest, first = hosted(run_dir)
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    html = (run_dir / "report" / "index.html").read_text()
    tables = read_tables(html)
    head = tables[("runs", "head")][0]
    assert head[:3] == ["Topology", "Variant", "Host"]
    hosts = [row[2] for row in tables["runs"]]
    assert len(hosts) == len(manifest["runs"]) - 1, "superseded run shown"
    assert "qemu-died" not in {row[5] for row in tables["runs"]}
    # A's runs first, then B's: the manifest's order of hosts.
    assert hosts == sorted(hosts, key=[A, B].index)
    assert {row[0] for row in tables["runs"] if row[2] == B} == {first}
    md = (run_dir / "report" / "report.md").read_text()
    assert f"Host {A}: `CPU A (2 CPUs)" in md and "failed: libvirtd" in md
    assert f"Moved {first}: `from {A} to {B}: libvirtd is gone`" in md


def test_two_hosts_in_one_topology_are_refused(fixture_copy):
    run_dir = fixture_copy("scale")
    manifest, first = hosted(run_dir)
    counted = [i for i, r in enumerate(manifest["runs"])
               if r["topology"] == first and not r["superseded"]]
    manifest["runs"][counted[-1]]["host"] = A
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    out = run_report(run_dir)
    assert out.returncode == 2
    assert out.stderr.strip() == (
        f"{run_dir}/manifest.json: runs[{counted[-1]}].host: {A}: topology "
        f"{first} also ran on {B}; figures of two hosts are never pooled")
