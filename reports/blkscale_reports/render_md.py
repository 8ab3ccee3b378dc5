"""report.md: the same sections and tables as the page, in Markdown."""

from . import meta, summary
from .sections import SECTIONS, plot_ids


def _cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(t):
    out = [f"**{t.title}**" + (f" ({t.note})" if t.note else ""), ""]
    if not t.rows:
        return out + ["No data for this table in this run.", ""]
    out.append("| " + " | ".join(_cell(c) for c in t.columns) + " |")
    out.append("|" + "|".join("---" for _ in t.columns) + "|")
    for row in t.rows:
        out.append("| " + " | ".join(_cell(c) for c in row) + " |")
    return out + [""]


def _summary(a):
    """The page's summary: a table per topology (each cell the median and
    spread, then the ratio to the reference and the verdict), and the
    sentences."""
    out = [a.runs_line, ""]
    for b in a.summary:
        out += [f"**{summary.caption(b)}**", ""]
        out.append("| Figure | " + " | ".join(
            v + (" (reference)" if v == b.reference else "")
            for v in b.variants) + " |")
        out.append("|" + "|".join("---" for _ in range(len(b.variants) + 1))
                   + "|")
        for row in b.rows:
            cells = []
            for v in b.variants:
                c = row.cells[v]
                text = b.value_text(c.value, row.fmt)
                if c.ratio is not None and c.ratio.n:
                    text += "; " + b.ratio_text(c.ratio)
                if c.verdict:
                    text += "; " + c.verdict
                cells.append(_cell(text))
            out.append(f"| {_cell(row.label)} | " + " | ".join(cells) + " |")
        out += [""] + [f"- {s}" for s in b.sentences] + [""]
    return out


def render(a, plots):
    run = a.run
    out = [f"# blkscale report: {run.meta.get('run') or run.path}", ""]
    warn = meta.partial(run)
    if warn:
        out += [f"**{warn}**", ""]
    out += _summary(a)
    out += ["## How the figures were made", ""]
    out += [f"- {k}: `{v}`" for k, v in meta.lines(run)] + [""]
    for sid, title, plot, tables, intro in SECTIONS:
        out += [f"## {title}", "", intro, ""]
        for pid in plot_ids(a, sid, plot):
            name, alt = plots.get(pid, (None, ""))
            out += [f"![{alt}]({name})" if name else
                    "No plot: this run has no data for it.", ""]
        if sid in a.notes:
            out += [f"*{a.notes[sid]}*", ""]
        for tid in tables:
            if tid in a.tables:
                out += _table(a.tables[tid])
    return "\n".join(out)
