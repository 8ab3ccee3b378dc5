"""`blkscale report` on the committed sweep fixture writes the page, the
Markdown and every plot as a real PNG of a sensible size."""

import struct

PLOTS = ["capacity.png", "major_cost.png", "procdevices.png",
         "boot_model.png", "memory.png"]


def _png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_every_plot_written(sweep_report):
    report = sweep_report["report"]
    assert sorted(p.name for p in report.iterdir()) == sorted(
        PLOTS + ["index.html", "report.md", "summary.csv", "summary.json"])
    for name in PLOTS:
        w, h = _png_size(report / name)
        assert w >= 600 and h >= 300, (name, w, h)
        assert f'<img src="{name}"' in sweep_report["html"]
        assert f"]({name})" in sweep_report["md"]
    assert "5 plots" in sweep_report["stdout"]
    assert "No plot" not in sweep_report["html"]


def test_markdown_has_the_same_rows(sweep_report):
    """report.md carries every row of every table of the page."""
    md = sweep_report["md"]
    for key, rows in sweep_report["tables"].items():
        if isinstance(key, tuple) or key.startswith("summary-"):
            continue            # test_report_summary.py checks those
        for row in rows:
            line = "| " + " | ".join(c.replace("|", "\\|") for c in row) \
                + " |"
            assert line in md, (key, line)
