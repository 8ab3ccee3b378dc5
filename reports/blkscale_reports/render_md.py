"""report.md: the same sections and tables as the page, in Markdown."""

from . import meta
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


def render(a, plots):
    run = a.run
    out = [f"# blkscale report: {run.meta.get('run') or run.path}", ""]
    warn = meta.partial(run)
    if warn:
        out += [f"**{warn}**", ""]
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
