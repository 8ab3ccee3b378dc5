"""RUN_DIR/report/: index.html, report.md, the PNG plots, and the
summary as summary.csv and summary.json."""

import os
import shutil
import tempfile

from . import analysis, load, plots, render_html, render_md, summary_files

OUT = "report"


def build(run_dir, out_dir=None, measured=()):
    """Write the report; returns (output directory, analysis, plots).

    measured: other run directories whose boots the capacity plan shows
    as measured points (load.add_measured).

    Written into a temporary directory first and renamed into place, so
    a failed report never leaves half a directory behind.
    """
    run = load.load(run_dir)
    for other in measured:
        load.add_measured(run, load.load(other))
    a = analysis.analyse(run)
    out_dir = out_dir or os.path.join(run_dir, OUT)
    drawn = {}

    def fill(tmp):
        drawn.update(plots.draw_all(a, tmp))
        with open(os.path.join(tmp, "index.html"), "w") as f:
            f.write(render_html.render(a, drawn))
        with open(os.path.join(tmp, "report.md"), "w") as f:
            f.write(render_md.render(a, drawn))
        summary_files.write(a, tmp)

    into_place(out_dir, fill)
    return out_dir, a, drawn


def into_place(out_dir, fill):
    """fill(directory) a temporary directory beside out_dir, then rename
    it into place: a failed report never leaves half a directory."""
    parent = os.path.dirname(os.path.abspath(out_dir))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".report-", dir=parent)
    try:
        fill(tmp)
        os.chmod(tmp, 0o755)
        if os.path.isdir(out_dir):
            shutil.rmtree(out_dir)
        os.rename(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
