"""The nightly's own tests, rehearsed on the committed run's real noise
before any canary kernel boots: the judged run's patched kernel renamed
`patched-again` (an A/A pair against the patched baseline) must not be
a regression, and renamed `canary` with the canary's costs laid on its
figures (register_blkdev 1.46x, 8 KiB more slab per disk) must be one
that names the injected figures.  Each sweep file names the baseline its
variant is judged against (`baselines`); without it the variant has
none and fails for that reason alone."""

import json
import os
import shutil
import subprocess

import pytest

from blkscale.paths import REPO

# A night of the A/A pair at stress-500 (stock and patched-again), judged
# against baselines from another run (20261205-stress500-baseline).
EVIDENCE = REPO / "evidence" / "20261205-nightly-gates" / \
    "20261205-154211-aa"
SOURCE = "patched-again"
# The baselines these committed runs were judged with, before the night
# of 2026-12-06 refreshed bench/baselines (147 dynamic char majors, v4).
BASELINES = REPO / "evidence" / "20261206-night" / "baselines-before"
SWEEPS = REPO / "bench" / "sweeps"
# The sweep files as those nights ran them, stock the reference.
NIGHT_SWEEPS = REPO / "evidence" / "20261205-nightly-gates" / "sweeps"
# The canary's ballast: one 8 KiB allocation per disk added.
SLAB_KIB = 8.0
# Its register cost as a night measured it: 1.46x stock's
# (evidence/20261205-nightly-gates, night 2).
REGISTER_COST = 1.46


def _renamed(src, dst, name, edit=None, source=SOURCE):
    """A copy of the judged run with variant `source` called `name`
    everywhere (manifest, directories, results), each results document
    of it passed through edit."""
    shutil.copytree(src, dst)
    for f in ("nightly.json", "nightly.xml"):
        (dst / f).unlink(missing_ok=True)
    path = dst / "manifest.json"
    release = f"6.1.192-{source}"
    doc = json.loads(path.read_text())
    sweep = doc["sweep"]
    sweep["variants"] = [name if v == source else v
                         for v in sweep["variants"]]
    for c in sweep["ceilings"]:
        if c.get("variant") == source:
            c["variant"] = name
    doc["kernels"][name] = doc["kernels"].pop(source).replace(
        source, name)
    for entry in doc["runs"]:
        if entry["variant"] != source:
            continue
        entry["variant"] = name
        for key in ("results", "console", "launcher_log"):
            if entry.get(key):
                entry[key] = entry[key].replace(f"/{source}/", f"/{name}/")
        entry["command"] = [name if a == source else
                            a.replace(f".{source}.", f".{name}.")
                            for a in entry["command"]]
        if entry.get("kernel_release"):
            entry["kernel_release"] = release.replace(source, name)
    path.write_text(json.dumps(doc))
    for topo in sweep["topologies"]:
        old, new = dst / topo / source, dst / topo / name
        if old.exists():
            os.rename(old, new)
        for results in new.glob("*/results.json"):
            d = json.loads(results.read_text())
            d["kernel"]["variant"] = name
            d["kernel"]["release"] = release.replace(source, name)
            d["run"]["id"] = d["run"]["id"].replace(f".{source}.",
                                                    f".{name}.")
            if edit:
                edit(d)
            results.write_text(json.dumps(d))
    return dst


def _judge(run, sweep, sweeps=NIGHT_SWEEPS):
    out = subprocess.run([str(REPO / "blkscale"), "nightly", "--sweep",
                          str(sweeps / sweep), "--compare", str(run),
                          "--baselines", str(BASELINES)],
                         capture_output=True, text=True, cwd=REPO,
                         timeout=300)
    doc = json.loads((run / "nightly.json").read_text())
    return out, doc


def _failed(doc, variant):
    return {(c["topology"], c["metric"]) for c in doc["checks"]
            if c["variant"] == variant and
            c["status"] in ("regression", "missing", "run-failed")}


def test_the_a_a_pair_is_not_a_regression(tmp_path):
    run = _renamed(EVIDENCE, tmp_path / "aa", "patched-again")
    out, doc = _judge(run, "nightly-aa.toml")
    assert out.returncode in (0, 3), out.stdout + out.stderr
    assert doc["verdict"] in ("PASS", "INCONCLUSIVE")
    # the patched baseline, whose stress-500 figures came from that run
    base = json.loads((BASELINES / "patched.json").read_text())
    assert doc["baselines"]["patched-again"]["run"] == base["source"]["run"]
    assert base["topologies"]["stress-500"]["source"]["run"] == \
        "20261205-stress500-baseline"
    assert not _failed(doc, "patched-again")


def test_without_its_baseline_mapping_the_variant_has_none(tmp_path):
    run = _renamed(EVIDENCE, tmp_path / "aa", "patched-again")
    out, doc = _judge(run, "nightly.toml", SWEEPS)
    assert out.returncode == 1
    assert ("stress-500", "baseline") in _failed(doc, "patched-again")


def _canary_costs(doc):
    block = (doc.get("majors") or {}).get("block") or {}
    for point in block.get("register") or []:
        point["p50_ns"] *= REGISTER_COST
    doc["memory"]["guest_slab_kib_per_disk"] += SLAB_KIB


def test_the_canary_costs_are_named(tmp_path):
    """Register cost 1.46x and 8 KiB more slab per disk (about 18%), on
    the real repeats: both named, whatever the loaded boot times say."""
    run = _renamed(EVIDENCE, tmp_path / "canary", "canary", _canary_costs)
    out, doc = _judge(run, "nightly-canary.toml")
    assert out.returncode == 1, out.stdout
    failed = _failed(doc, "canary")
    assert ("stress-500", "register_p50_ns_vs_stock") in failed
    assert ("stress-500", "guest_slab_kib_per_disk") in failed
    assert not any(m == "baseline" or m.startswith("run repeat")
                   for _, m in failed)


@pytest.mark.parametrize("sweep, variant", [("nightly-canary.toml",
                                             "canary"),
                                            ("nightly-aa.toml",
                                             "patched-again")])
def test_the_sweep_files_name_a_variant_kernel_variants_declares(sweep,
                                                                 variant):
    text = (SWEEPS / sweep).read_text()
    assert f'variants = ["patched", "{variant}"]' in text
    out = subprocess.run([str(REPO / "blkscale"), "variants", "--shell",
                          variant], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
