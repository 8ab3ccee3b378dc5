"""The summary leads the page: on the committed five-kernel sweep it is
the first table, every figure has its interval and every kernel its
ratio to the reference, as `blkscale bench --show` printed them; one
disk count draws no curve and no "no fit" row; the CSV and JSON beside
the page carry the same figures."""

import csv
import json
import re

from blkscale.figures import metrics
from conftest import KERNELS_SWEEP, read_tables, run_report

VARIANTS = ["debian", "stock", "patched", "stock-6.12", "patched-6.12"]


def _cells(html):
    """[(variant, {attribute: value})] of the summary cells, in order."""
    return [(v, dict(re.findall(r'([\w-]+)="([^"]*)"', attrs)))
            for v, attrs in re.findall(
                r'<td data-variant="([^"]+)"([^>]*)>', html)]


def test_summary_is_the_first_table(kernels_report):
    html = kernels_report["html"]
    first = re.search(r"<table [^>]*id=\"([^\"]+)\"", html).group(1)
    assert first == "summary-oracle-4000"
    # Before the header's details and every section.
    assert html.index('id="summary"') < html.index('id="provenance"') \
        < html.index('id="runs"')
    assert [v for v, _ in _cells(html)[:len(VARIANTS)]] == VARIANTS


def test_every_figure_has_its_interval_and_ratio(kernels_report):
    cells = _cells(kernels_report["html"])
    rows = kernels_report["tables"]["summary-oracle-4000"]
    assert len(rows) == 9 and len(cells) == 9 * len(VARIANTS)
    for v, attrs in cells:
        assert "data-low" in attrs and "data-high" in attrs, (v, attrs)
        assert float(attrs["data-low"]) <= float(attrs["data-median"]) \
            <= float(attrs["data-high"])
        assert ("data-ratio-low" in attrs) == (v != "stock"), (v, attrs)


def test_ratios_are_the_bench_tables(kernels_report):
    """Each ratio reads as in `blkscale bench --show` of the same sweep
    (committed beside it), less the coverage the caption states."""
    shown = (KERNELS_SWEEP.parent / "oracle-4000-5.txt").read_text()
    doc = json.loads((kernels_report["report"] / "summary.json").read_text())
    checked = 0
    for r in doc["topologies"][0]["figures"]:
        if r["ratio_text"] is None or r["figure"] == "block_static_collisions":
            continue
        label = metrics.BY_NAME[r["figure"]].label
        line = next(x for x in shown.splitlines()
                    if x.strip().startswith(label + " ("))
        assert r["ratio_text"] in line, (r["figure"], r["variant"], line)
        checked += 1
    assert checked == 8 * 4


def test_single_count_has_no_curve_and_no_fit_rows(kernels_report):
    html, report = kernels_report["html"], kernels_report["report"]
    assert "no fit" not in html
    assert not (report / "boot_model.png").exists()
    assert (report / "boot_dots.png").is_file()
    assert (report / "memory_dots.png").is_file()
    assert "boot_fits" not in kernels_report["tables"]
    assert "capacity_plan" not in kernels_report["tables"]
    assert html.count("a fit needs at least 3") == 1
    # The per-run tables are still there, folded.
    assert len(kernels_report["tables"]["runs"]) == 25
    runs = html.index('<table id="runs"')
    assert html.rfind("<details>", 0, runs) > html.rfind("</details>", 0, runs)


def test_sentence_per_kernel(kernels_report):
    sentences = re.findall(r"<li>([^<]*)</li>", kernels_report["html"])
    assert [s.split(" ")[0] for s in sentences] == [
        "stock", "debian", "patched", "stock-6.12", "patched-6.12"]
    patched = sentences[2]
    assert "dynamic block majors 3,762 against 235" in patched
    assert "/proc/devices read, 0 added majors 0.23x [0.23-0.24]" in patched
    assert "cannot tell:" in patched and "open() of a registered major" \
        in patched.split("cannot tell:")[1]


def test_csv_and_json_carry_the_table(kernels_report):
    report = kernels_report["report"]
    with open(report / "summary.csv") as f:
        rows = list(csv.DictReader(f))
    doc = json.loads((report / "summary.json").read_text())
    assert rows and len(rows) == len(doc["topologies"][0]["figures"]) == 45
    cells = _cells(kernels_report["html"])
    for row, (v, attrs) in zip(rows, cells):
        assert row["variant"] == v
        assert float(row["median"]) == float(attrs["data-median"])
        assert float(row["low"]) == round(float(attrs["data-low"]), 6)


def test_verdicts_of_a_judged_night(tmp_path):
    """A night's report shows each figure's verdict from its
    nightly.json; a broken nightly.json is an error naming the file."""
    import shutil
    from blkscale.paths import REPO
    run_dir = tmp_path / "night"
    shutil.copytree(REPO / "evidence" / "20261204-nightly-judged",
                    run_dir)
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    html = (run_dir / "report" / "index.html").read_text()
    cells = dict(((v, i), a) for i, (v, a) in enumerate(_cells(html)))
    verdicts = [a.get("data-verdict") for a in cells.values()]
    assert None not in verdicts
    assert {"pass", "inconclusive"} <= set(verdicts)
    # The row of patched's boot time on oracle-4000-verify, from the
    # nightly's own check.
    tables = read_tables(html)
    boot = tables["summary-oracle-4000-verify"][0]
    assert boot[0].startswith("boot:") and boot[2].endswith("inconclusive")
    (run_dir / "nightly.json").write_text(json.dumps(
        {"schema": {"name": "blkscale-nightly", "version": 2},
         "checks": 3}))
    out = run_report(run_dir)
    assert out.returncode != 0
    assert "nightly.json: checks: missing or not a list" in out.stderr


def test_markdown_leads_with_the_summary(kernels_report):
    md = kernels_report["md"]
    first_table = md.index("\n| ")
    assert md[first_table:].startswith("\n| Figure | debian | stock "
                                       "(reference) | patched |")
    assert first_table < md.index("## How the figures were made") \
        < md.index("## Runs")
    assert "| dynamic block majors (majors) | 235; 1.00x | 235 | 3,762; " \
        "16.01x |" in md
