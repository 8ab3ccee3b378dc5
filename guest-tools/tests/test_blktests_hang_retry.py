"""blktestsrun.run(retry_hang=True), which make test's quick blktests
checks use: a run that ends as a hang (exit 4) is kept and made once
more, never a third time; without retry_hang (the nightly's suites) the
hang is returned as it is.  The launcher is replaced by a stand-in that
exits as told, so nothing boots."""

import subprocess
from pathlib import Path

import pytest

import blktestsrun


@pytest.fixture
def launcher(tmp_path, monkeypatch):
    """Each call of ./blkscale run exits with the next status given, after
    writing its run directory; the calls are counted."""
    calls = []
    statuses = []

    def fake_run(cmd, **kwargs):
        calls.append(cmd)
        run_dir = tmp_path / "results" / "bt"
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "summary.json").write_text(f"{{\"call\": {len(calls)}}}")
        return subprocess.CompletedProcess(cmd, statuses[len(calls) - 1],
                                           "", "")
    monkeypatch.setattr(blktestsrun.subprocess, "run", fake_run)
    monkeypatch.setattr(blktestsrun.fuzzrun, "require_built",
                        lambda variant: None)
    monkeypatch.setattr(blktestsrun, "KEPT_HANGS", tmp_path / "kept")

    def run(*exits, retry_hang=True):
        statuses[:] = exits
        status, _, _ = blktestsrun.run(Path("blktests.toml"), ["stock"],
                                       tmp_path, {}, 10,
                                       retry_hang=retry_hang)
        return status, len(calls)
    return run


def test_a_hang_is_kept_and_made_once_more(launcher, tmp_path):
    with pytest.warns(UserWarning, match="blkscale run bt hung, made "
                      "again; kept in "):
        assert launcher(4, 0) == (0, 2)
    kept = list((tmp_path / "kept").iterdir())
    assert len(kept) == 1
    assert (kept[0] / "summary.json").read_text() == '{"call": 1}'


def test_a_second_hang_is_the_tests(launcher):
    with pytest.warns(UserWarning):
        assert launcher(4, 4, 0) == (4, 2)


def test_without_retry_a_hang_is_returned(launcher, tmp_path):
    assert launcher(4, 0, retry_hang=False) == (4, 1)
    assert not (tmp_path / "kept").exists()


def test_another_failure_is_not_made_again(launcher):
    assert launcher(1, 0) == (1, 1)
