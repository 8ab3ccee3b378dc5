"""run_boot (launchertest.py), which the boot tests of Debian's kernel use:
a run that ends as a hang is kept and made once more, never a third
time, and the second hang is the test's; a run that fails otherwise is
returned as it is, made once.  Against the fake QEMU."""

import json

import pytest

import launchertest
from launchertest import fake_runs, run_boot

TOPO = """
[guest]
variants = ["stock"]
[timeouts]
boot_s = 6
run_s = 60
hang_s = 5
[[virtio_blk]]
id = "vblk"
count = 3
"""


@pytest.fixture
def boot(tmp_path, fake_env, monkeypatch):
    """run_boot of one scenario of the fake QEMU; what it kept goes to
    tmp_path/kept."""
    monkeypatch.setattr(launchertest, "KEPT_FAILURES", tmp_path / "kept")
    topo = tmp_path / "fake.toml"
    topo.write_text(TOPO)
    results = tmp_path / "results"

    def run(scenario):
        return run_boot("run", topo, "--accel", "tcg", "--run-id", "r",
                        "--results-dir", results, results=results,
                        run_id="r", timeout=120,
                        env=dict(fake_env, FAKE_QEMU_SCENARIO=scenario))
    return run


def test_a_hang_is_kept_and_made_once_more(boot, fake_env, tmp_path):
    with pytest.warns(UserWarning, match=r"blkscale run r hung, made "
                      r"again; its console and records are kept in "):
        out = boot("hang")
    assert out.returncode == 4, out.stdout + out.stderr
    assert len(fake_runs(fake_env)) == 2
    kept = list((tmp_path / "kept").iterdir())
    assert len(kept) == 1
    summary = json.loads((kept[0] / "summary.json").read_text())
    assert summary["exit_status"] == 4
    assert summary["variants"]["stock"]["outcome"] == "hang"
    # the second run's own records are where the test reads them
    assert (tmp_path / "results" / "r" / "summary.json").exists()


def test_another_failure_is_made_once(boot, fake_env, tmp_path, recwarn):
    out = boot("step-failed")
    assert out.returncode == 1, out.stdout + out.stderr
    assert len(fake_runs(fake_env)) == 1
    assert not (tmp_path / "kept").exists()
    assert not [w for w in recwarn if "hung" in str(w.message)]
