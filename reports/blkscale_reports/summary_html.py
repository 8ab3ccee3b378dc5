"""The summary tables and sentences as HTML: the page's first screen.

Each cell carries its numbers as data attributes (median, the bounds of
its spread, the ratio's bounds) so that a browser test can check from
the DOM that every figure has its interval.
"""

import html

from blkscale.figures.stats import cannot_tell

from . import summary


def _e(text):
    return html.escape(str(text))


def _num(x):
    return "" if x is None else repr(float(x))


def _cell(b, row, v):
    c = row.cells[v]
    attrs = {"data-variant": v, "data-median": _num(c.value.median)}
    if c.value.n > 1:
        attrs["data-low"], attrs["data-high"] = map(_num, c.value.bounds)
    parts = [f'<span class="value">{_e(b.value_text(c.value, row.fmt))}'
             "</span>"]
    if c.ratio is not None and c.ratio.n:
        if c.ratio.n > 1:
            attrs["data-ratio-low"], attrs["data-ratio-high"] = \
                map(_num, c.ratio.bounds)
        low, high = c.ratio.bounds
        told = "untold" if cannot_tell(c.ratio) or c.ratio.n < 2 else \
            "same" if low == high == 1.0 else "told"
        parts.append(f'<span class="ratio {told}">'
                     f"{_e(b.ratio_text(c.ratio))}</span>")
    if c.verdict:
        attrs["data-verdict"] = c.verdict
        parts.append(f'<span class="verdict {_e(c.verdict)}">'
                     f"{_e(c.verdict)}</span>")
    return "<td " + " ".join(f'{k}="{_e(val)}"' for k, val in attrs.items()) \
        + ">" + "<br>".join(parts) + "</td>"


def _head(b, v):
    kernel = b.kernels.get(v)
    ref = " (reference)" if v == b.reference else ""
    return (f"<th>{_e(v)}{_e(ref)}" + (f'<br><span class="kernel">'
            f"{_e(kernel)}</span>" if kernel else "") + "</th>")


def block(b):
    tid = f"summary-{b.topology}"
    out = [f'<p class="caption">{_e(summary.caption(b))}</p>',
           f'<table id="{_e(tid)}" class="summary">',
           "<thead><tr><th>Figure</th>"
           + "".join(_head(b, v) for v in b.variants) + "</tr></thead>",
           "<tbody>"]
    for row in b.rows:
        out.append(f"<tr><td>{_e(row.label)}</td>"
                   + "".join(_cell(b, row, v) for v in b.variants) + "</tr>")
    out.append("</tbody></table>")
    out.append('<ul class="quotes">' + "".join(
        f"<li>{_e(s)}</li>" for s in b.sentences) + "</ul>")
    return "\n".join(out)


def section(blocks, runs_line):
    """The summary section: a line on the runs, the block of the topology
    with the most headline figures (of those, the most disks), and the
    others folded below it."""
    first = max(blocks, key=lambda b: (len(b.rows), b.disks or 0)) \
        if blocks else None
    out = ['<section id="summary">', f'<p class="runs">{_e(runs_line)}</p>']
    if first:
        out.append(block(first))
    others = [b for b in blocks if b is not first]
    if others:
        out.append("<details><summary>The same at "
                   + _e(", ".join(f"{b.topology} ({b.disks or 0:,.0f} disks)"
                                  for b in others))
                   + "</summary>\n" + "\n".join(block(b) for b in others)
                   + "\n</details>")
    return "\n".join(out + ["</section>"])
