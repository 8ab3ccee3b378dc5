"""A sweep puts every run at results/<run>/<topology>/<variant>/ and the
manifest records how the figures were made."""

import os


def test_sweep_layout_and_manifest(bench_env):
    out = bench_env.run("bench")
    assert out.returncode == 0, out.stderr
    run_dir = bench_env.results / "r1"
    for topo in ("small", "big"):
        for variant in ("stock", "patched"):
            d = run_dir / topo / variant
            assert (d / "results.json").is_file()
            assert (d / "launcher.log").is_file()
    assert not (run_dir / ".launcher").exists(), "staging left behind"
    m = bench_env.manifest()
    assert m["status"] == "complete" and m["partial_reason"] is None
    assert [(r["topology"], r["variant"]) for r in m["runs"]] == [
        ("small", "stock"), ("small", "patched"),
        ("big", "stock"), ("big", "patched")]
    assert all(r["outcome"] == "ok" and r["exit_status"] == 0
               for r in m["runs"])
    assert m["runs"][0]["results"] == "small/stock/results.json"
    assert m["command"][1:3] == ["bench", "--sweep"]
    assert m["kernels"] == {"stock": "6.1.0-stock",
                            "patched": "6.1.0-patched"}
    assert m["qemu_version"] == "QEMU emulator version 7.2.99"
    assert m["accelerator"] == "tcg"
    assert m["vcpus"] == {"small": 2, "big": 2}
    assert m["host_cpus"] == os.cpu_count() and m["host_cpu"]
    assert len(m["git"]["commit"]) == 40
    assert m["started"] and m["finished"]
    assert m["runs"][0]["command"][1] == "run"


def test_accelerator_of_first_run_is_kept(bench_env):
    """accel auto: the first run decides, the others are told tcg."""
    out = bench_env.run("bench")
    assert out.returncode == 0, out.stderr
    runs = [c for c in bench_env.calls() if c.startswith("run ")]
    assert len(runs) == 4
    assert "--accel auto" in runs[0]
    assert all("--accel tcg" in c for c in runs[1:])
