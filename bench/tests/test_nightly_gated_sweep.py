"""The nightly's gated part: today's patched kernel beside the kernel its
baseline was measured on (bench/sweeps/nightly-gated.toml, the variant
patched-baseline of kernel/variants.toml).  It holds the limits the A/A
pair and the canary prove both ways, and judges as they do: the
committed A/A night with its kernels named as the gated part names them
passes, the committed canary night so named is a REGRESSION naming each
cost."""

import json
import shutil
import subprocess

import pytest

from blkscale import kernels, seriesrev
from blkscale.errors import InputError
from blkscale.paths import REPO
from blkscale_bench import sweepfile
from blkscale_bench.judging import baseline

from test_nightly_at_par import AA_14, CANARY
from test_nightly_canary_aa import SWEEPS, _judge, _renamed

GATED = "nightly-gated.toml"
REF = "patched-baseline"


def _limits(name):
    """A sweep's thresholds and ceilings, the reference's name taken out
    of the metrics and its topology's of the ceilings."""
    sweep = sweepfile.load(SWEEPS / name)
    suffix = f"_vs_{sweep.reference}"
    thresholds = {k.replace(suffix, "_vs_REF"): v
                  for k, v in sweep.thresholds.items()}
    ceilings = sorted((c["metric"], c.get("max"), c.get("min"))
                      for c in sweep.ceilings)
    return (thresholds, ceilings, [t.name for t in sweep.topologies],
            sweep.gate_times, sweep.max_repeat, sweep.repeat,
            sweep.schedule)


@pytest.mark.parametrize("proof", ["nightly-aa.toml", "nightly-canary.toml"])
def test_the_gated_part_holds_the_limits_its_proofs_were_run_with(proof):
    assert _limits(GATED) == _limits(proof)


def test_the_gated_sweep_judges_patched_beside_its_baselines_kernel():
    sweep = sweepfile.load(SWEEPS / GATED)
    assert sweep.variants == [REF, "patched"] and sweep.reference == REF
    assert sweep.baselines == {REF: "patched"}
    v = kernels.get(REF)
    assert v.patches == kernels.get("patched").patches
    assert v.series_at == "bench/baselines/patched.json"


def _shallow():
    out = subprocess.run(["git", "-C", str(REPO), "rev-parse",
                          "--is-shallow-repository"], capture_output=True,
                         text=True, check=False)
    return out.stdout.strip() == "true"


@pytest.mark.skipif(_shallow(), reason="a shallow clone holds no history "
                    "to find the baseline's series in")
def test_the_baselines_commit_holds_the_series_its_kernel_carried():
    doc = json.loads((REPO / "bench/baselines/patched.json").read_text())
    commit = kernels.series_commit(kernels.get(REF))
    assert commit == doc["source"]["series_commit"]
    ids = seriesrev.patch_ids_at(commit, "kernel/patches")
    listed = subprocess.run(
        ["git", "-C", str(REPO), "show", f"{commit}:kernel/patches/series"],
        capture_output=True, text=True, check=True).stdout
    patches = [ln for ln in (line.split("#")[0].strip()
                             for line in listed.splitlines()) if ln]
    # every patch of the series at that commit, none left out
    assert ids == doc["source"]["series"] and len(ids) == len(patches) > 0
    assert baseline.series_commit("patched", ids) == commit
    # a series no commit holds: none is recorded, and the variant says so
    assert baseline.series_commit("patched", ids[:-1] + ["0" * 40]) is None
    assert baseline.series_commit("stock", []) is None


def test_a_baseline_without_a_commit_is_refused_naming_file_and_field(
        tmp_path, monkeypatch):
    doc = json.loads((REPO / "bench/baselines/patched.json").read_text())
    doc["source"]["series_commit"] = None
    (tmp_path / "bench/baselines").mkdir(parents=True)
    (tmp_path / "bench/baselines/patched.json").write_text(json.dumps(doc))
    monkeypatch.setattr(kernels.paths, "REPO", tmp_path)
    with pytest.raises(InputError) as e:
        kernels.series_commit(kernels.Variant(
            REF, "linux-source-6.1", (), "kernel/patches",
            series_at="bench/baselines/patched.json"))
    assert str(e.value).startswith(
        "bench/baselines/patched.json: source.series_commit: no commit "
        "recorded")


def _as_gated(src, dst, judged):
    """A committed night with its reference named patched-baseline and
    its judged kernel patched, as the gated part names them."""
    first = _renamed(src, dst.with_name(dst.name + "-1"), REF,
                     source="patched")
    run = _renamed(first, dst, "patched", source=judged)
    shutil.rmtree(first)
    path = run / "manifest.json"
    doc = json.loads(path.read_text())
    doc["sweep"]["reference"] = REF
    path.write_text(json.dumps(doc))
    return run


def test_the_a_a_night_as_the_gated_part_passes(tmp_path):
    run = _as_gated(AA_14, tmp_path / "aa", "patched-again")
    out, doc = _judge(run, GATED, SWEEPS)
    assert out.returncode == 0, out.stdout + out.stderr
    assert doc["verdict"] == "PASS"
    judged = {c["metric"] for c in doc["checks"] if c["variant"] ==
              "patched" and c["metric"].endswith(f"_vs_{REF}")
              and c["status"] == "pass"}
    assert {"kernel_to_init_s_vs_patched-baseline",
            "register_p50_ref_vs_patched-baseline"} <= judged


def test_the_canary_night_as_the_gated_part_names_every_cost(tmp_path):
    run = _as_gated(CANARY, tmp_path / "canary", "canary")
    out, doc = _judge(run, GATED, SWEEPS)
    assert out.returncode == 1, out.stdout + out.stderr
    failed = {c["metric"] for c in doc["checks"]
              if c["variant"] == "patched" and c["status"] == "regression"}
    assert {"kernel_to_init_s_vs_patched-baseline",
            "census_complete_s_vs_patched-baseline",
            "register_p50_ref_vs_patched-baseline",
            "guest_slab_kib_per_disk_vs_patched-baseline"} <= failed


def test_without_the_generalised_pairing_the_ratios_would_go_unjudged(
        tmp_path):
    """The gated sweep with `baselines` taken out: the reference is then
    judged by a baseline of its own name, which does not exist, and the
    run fails for that reason: the pairing is what makes it judge."""
    text = (SWEEPS / GATED).read_text().replace(
        'baselines = {patched-baseline = "patched"}\n', "")
    sweep = tmp_path / "gated-unpaired.toml"
    sweep.write_text(text)
    run = _as_gated(AA_14, tmp_path / "aa", "patched-again")
    out = subprocess.run([str(REPO / "blkscale"), "nightly", "--sweep",
                          str(sweep), "--compare", str(run)],
                         capture_output=True, text=True, cwd=REPO,
                         timeout=300)
    assert out.returncode == 1, out.stdout + out.stderr
    doc = json.loads((run / "nightly.json").read_text())
    assert any(c["variant"] == REF and c["metric"] == "baseline"
               for c in doc["checks"])
