"""index.html: one static page, plots as <img> next to the report.

The summary comes first (summary_html.py); the per-run tables of every
section follow, folded in <details>, under their plots.

A small script marks every image that failed to load (naturalWidth 0)
and shows a banner, so a broken plot is visible to the reader and to the
headless-browser test that reads data-images-broken on <body>; it also
records where the summary ends (data-summary-bottom, in CSS pixels from
the top of the page), so that the test can tell whether the answer fits
the first screen.
"""

import html

from . import meta, summary_html
from .sections import SECTIONS, plot_ids

STYLE = """
body { font-family: sans-serif; margin: 0.5em auto; max-width: 80em;
       padding: 0 0.5em; color: #222; }
h1 { font-size: 130%; margin: 0.3em 0; }
table.summary { font-size: 80%; margin: 0.3em 0 0.5em; }
p.caption { font-size: 80%; color: #555; margin: 0.2em 0; }
table.summary td { vertical-align: top; }
table.summary th { text-align: left; }
.kernel { font-weight: normal; color: #555; }
.ratio.told { font-weight: bold; }
.ratio.untold { color: #777; }
.verdict.pass { color: #060; }
.verdict.inconclusive, .verdict.warn { color: #a60; }
.verdict.regression, .verdict.missing, .verdict.run-failed { color: #c00;
  font-weight: bold; }
ul.quotes { font-size: 80%; margin: 0.3em 0; padding-left: 1.2em; }
p.runs { font-size: 85%; margin: 0.2em 0; }
details { margin: 0.5em 0 1.5em; }
summary { cursor: pointer; color: #036; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 90%; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: right; }
th { background: #eee; }
td:first-child, td:nth-child(2) { text-align: left; }
dl { display: grid; grid-template-columns: max-content auto;
     gap: 0.2em 1em; }
dt { font-weight: bold; }
dd { margin: 0; font-family: monospace; overflow-wrap: anywhere; }
img { max-width: 100%; border: 1px solid #ddd; }
img[data-loaded="no"] { outline: 4px solid red; min-height: 2em; }
.warning { background: #fee; border: 1px solid #c00; padding: 0.5em; }
.note { color: #555; font-style: italic; }
#broken { display: none; }
"""

SCRIPT = """
window.addEventListener("load", function () {
  var imgs = document.querySelectorAll("img");
  var broken = 0;
  imgs.forEach(function (img) {
    var ok = img.complete && img.naturalWidth > 0;
    img.dataset.loaded = ok ? "yes" : "no";
    if (!ok) broken++;
  });
  var top = document.getElementById("summary");
  if (top) {
    document.body.dataset.summaryBottom = String(Math.ceil(
      top.getBoundingClientRect().bottom + window.scrollY));
  }
  document.body.dataset.imagesLoaded = String(imgs.length - broken);
  document.body.dataset.imagesBroken = String(broken);
  if (broken) {
    var b = document.getElementById("broken");
    b.textContent = broken + " plot(s) failed to load.";
    b.style.display = "block";
  }
});
"""


def _e(text):
    return html.escape(str(text))


def _table(t):
    out = [f'<table id="{_e(t.id)}">',
           f"<caption>{_e(t.title)}"
           + (f" ({_e(t.note)})" if t.note else "") + "</caption>",
           "<thead><tr>" + "".join(f"<th>{_e(c)}</th>" for c in t.columns)
           + "</tr></thead>", "<tbody>"]
    for row in t.rows:
        out.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row)
                   + "</tr>")
    out.append("</tbody></table>")
    if not t.rows:
        out.append('<p class="note">No data for this table in this run.</p>')
    return "\n".join(out)


def _folded(tables):
    """A section's tables in one <details>, titled by what it holds."""
    what = ", ".join(f"{t.title} ({len(t.rows)} rows)" for t in tables)
    return ("<details><summary>" + _e(what) + "</summary>\n"
            + "\n".join(_table(t) for t in tables) + "\n</details>")


def render(a, plots):
    run = a.run
    title = f"blkscale report: {run.meta.get('run') or run.path}"
    body = [f"<h1>{_e(title)}</h1>",
            '<p id="broken" class="warning"></p>']
    warn = meta.partial(run)
    if warn:
        body.append(f'<p class="warning" id="partial">{_e(warn)}</p>')
    body.append(summary_html.section(a.summary, a.runs_line))
    body.append('<section id="provenance"><h2>How the figures were made'
                "</h2><dl>" + "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>"
                                      for k, v in meta.lines(run))
                + "</dl></section>")
    for sid, stitle, plot, tables, intro in SECTIONS:
        body.append(f'<section id="{sid}"><h2>{_e(stitle)}</h2>')
        body.append(f"<p>{_e(intro)}</p>")
        for pid in plot_ids(a, sid, plot):
            name, alt = plots.get(pid, (None, ""))
            if name:
                body.append(f'<figure><img src="{_e(name)}" alt="{_e(alt)}">'
                            f"<figcaption>{_e(alt)}</figcaption></figure>")
            else:
                body.append('<p class="note">No plot: this run has no data '
                            "for it.</p>")
        if sid in a.notes:
            body.append(f'<p class="note">{_e(a.notes[sid])}</p>')
        shown = [a.tables[tid] for tid in tables if tid in a.tables]
        if shown:
            body.append(_folded(shown))
        body.append("</section>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(title)}</title><style>{STYLE}</style>"
            f"<script>{SCRIPT}</script></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")
