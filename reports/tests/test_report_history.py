"""`blkscale report --history`: the committed nights side by side, the
nights a gated figure's verdict changed with the commit, the blktests
tests flaky on more than one night; the history file is written once
per night and read back line by line."""

import json
import re
import shutil

import pytest

from blkscale.paths import REPO
from blkscale.results import history
from blkscale_reports.errors import ReportError
from blkscale_reports import trend
from conftest import read_tables, run_report

EVIDENCE = REPO / "evidence"
NIGHTS = [EVIDENCE / n for n in ("20261204-nightly-judged",
                                 "20261203-221318-default",
                                 "20261204-nightly-verify")]
BLKTESTS_NIGHT = EVIDENCE / "20261205-blktests-reruns" / "run"


@pytest.fixture(scope="module")
def trend_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("history") / "page"
    done = run_report(*NIGHTS, "--history", "--out", str(out),
                      "--blktests-night", str(BLKTESTS_NIGHT))
    assert done.returncode == 0, done.stderr
    html = (out / "index.html").read_text()
    return {"out": out, "html": html, "tables": read_tables(html),
            "stdout": done.stdout}


def test_nights_in_date_order(trend_page):
    nights = trend_page["tables"]["nights"]
    assert [r[1] for r in nights] == ["20261203-221318-default",
                                      "20261204-nightly-verify",
                                      "20261204-nightly-judged"]
    assert [r[4] for r in nights] == ["PASS", "PASS", "INCONCLUSIVE"]
    assert [r[2] for r in nights] == ["d62d2e9418", "e1f2fe8126",
                                      "557f0603a5"]
    assert "3 nights" in trend_page["stdout"]


def test_verdict_change_names_the_night_and_commit(trend_page):
    rows = trend_page["tables"]["changes"]
    row = next(r for r in rows if r[0] == "oracle-4000-verify" and
               r[2].startswith("boot: kernel start to census complete (s), "
                               "ratio to stock"))
    # Its ceiling's check changed alike: one row says both.
    assert row[2].endswith("(and against its ceiling)")
    assert len(rows) == 8
    assert row[1] == "patched"
    assert row[3].startswith("pass: 0.9735 [0.7816-0.9881]")
    assert row[5].startswith("inconclusive: 1.293 [0.8537-1.767]")
    assert row[6] == "20261204-nightly-judged" and row[7] == "557f0603a5"
    # Every change is between nights that judged the same figure: the
    # first night (other topologies) has none.
    assert all(r[4] != "20261203-221318-default" for r in rows)


def test_each_topology_drawn_and_its_plot_written(trend_page):
    out, html = trend_page["out"], trend_page["html"]
    drawn = re.findall(r'<img src="([^"]+)"', html)
    assert drawn == ["trend-stress-1000.png", "trend-oracle-4000-verify.png",
                     "trend-ibm-5000-verify.png"]
    for name in drawn:
        assert (out / name).read_bytes()[:4] == b"\x89PNG"
    # smoke and ci-small were judged on one night only: not drawn.
    assert 'id="smoke"' in html and "trend-smoke.png" not in html
    lines = history.read(out / "nightly-history.jsonl")
    assert {x["night"] for x in lines} == {n.name for n in NIGHTS}


def test_flaky_on_one_night_is_not_named_as_more(trend_page):
    assert "flaky" not in trend_page["tables"]
    assert "flaky on one: scsi/007 (20261205-010749)" in trend_page["html"]


def test_flaky_on_two_nights_is_named(tmp_path):
    """The same blktests night as two nights: scsi/007 flaky on both."""
    nights = []
    for name in ("20261205-010749", "20261206-010749"):
        d = tmp_path / "blktests-nightly" / name
        shutil.copytree(BLKTESTS_NIGHT, d)
        summary = json.loads((d / "summary.json").read_text())
        summary["run"] = name
        (d / "summary.json").write_text(json.dumps(summary))
        nights.append(str(d))
    # A night whose guests died (one kernel's results missing) is no
    # night: it neither counts nor stops the page.
    dead = tmp_path / "blktests-nightly" / "20261207-010749"
    shutil.copytree(BLKTESTS_NIGHT, dead)
    (dead / "patched-blktests" / "results.json").unlink()
    nights.append(str(dead))
    out = tmp_path / "page"
    done = run_report(NIGHTS[0], "--history", "--out", str(out),
                      *[a for n in nights for a in ("--blktests-night", n)])
    assert done.returncode == 0, done.stderr
    flaky = read_tables((out / "index.html").read_text())["flaky"]
    assert flaky == [["scsi/007", "-", "stock-blktests / patched-blktests",
                      "2", "20261205-010749, 20261206-010749"]]


def test_history_file_keeps_one_copy_of_a_night(tmp_path):
    import blkscale.results.read as read
    path = tmp_path / history.FILENAME
    for night in NIGHTS[1:]:
        lines = history.night_lines(
            read.read_manifest(night),
            json.loads((night / "nightly.json").read_text()))
        history.record(path, lines)
        history.record(path, lines)
    kept = history.read(path)
    assert {x["night"] for x in kept} == {n.name for n in NIGHTS[1:]}
    assert len(kept) == len({(x["night"], x["topology"], x["variant"],
                              x["figure"], json.dumps(x["limit"]))
                             for x in kept})
    # The file reads back as the page's input.
    out = tmp_path / "page"
    done = run_report(path, "--history", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "2 nights" in done.stdout


def test_bad_history_line_names_file_and_line(tmp_path):
    path = tmp_path / history.FILENAME
    path.write_text('{"night": "a"}\n')
    done = run_report(path, "--history", "--out", str(tmp_path / "p"))
    assert done.returncode == 2
    assert f"{path}: line 1: missing date, commit" in done.stderr
    assert not (tmp_path / "p").exists()


def test_a_night_never_judged_is_refused(tmp_path):
    night = tmp_path / "night"
    shutil.copytree(EVIDENCE / "20261204-041653-nightly", night)
    with pytest.raises(ReportError, match="nightly.json: missing"):
        trend.read([str(night)])
