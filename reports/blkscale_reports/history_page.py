"""`blkscale report --history`: the nights side by side as one static
page (index.html), a PNG per topology, and the history it was drawn
from (nightly-history.jsonl), renamed into place whole (build.py).

First the nights (date, commit, kernels, verdict), then the nights a
gated figure's verdict changed and the commit it changed at, then the
blktests tests flaky on more than one night; then per topology each
gated figure that moved across the nights, drawn with its interval,
and a folded table of every value.  A figure that never moved is
listed, not drawn.
"""

import html
import json
import os
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import build as build_dir  # noqa: E402
from . import trend  # noqa: E402
from .render_html import SCRIPT, STYLE, _table  # noqa: E402
from .table import Table  # noqa: E402

VARIANT_COLOURS = ["tab:red", "tab:blue", "tab:purple", "tab:brown",
                   "tab:grey"]
COLUMNS = 3
CEILING = trend.CEILING
BOTH = " (and against its ceiling)"


def _e(text):
    return html.escape(str(text))


def _short(commit):
    return (commit or "-")[:10]


def _nights_table(nights):
    t = Table("nights", "Nights", ["Date", "Night", "Commit", "Kernels",
                                   "Verdict", "Checks with a figure"])
    for n in nights:
        t.rows.append([n.date, n.night, _short(n.commit),
                       ", ".join(f"{v} {r}" for v, r in n.kernels.items()),
                       n.verdict, ", ".join(f"{c} {s}" for s, c in
                                            sorted(n.statuses.items()))])
    return t


def _value(x):
    spread = "" if x["low"] == x["high"] == x["median"] else \
        f" [{x['low']:.4g}-{x['high']:.4g}]"
    return f"{x['median']:.4g}{spread}"


def _changes_table(series):
    t = Table("changes", "Verdict changes",
              ["Topology", "Variant", "Figure", "Before", "Night before",
               "After", "Night it changed", "Changed at commit",
               "Commits between"])
    rows = {}
    for s in series:
        for a, b in s.changes:
            row = [s.topology, s.variant, s.label,
                   f"{a['verdict']}: {_value(a)}", a["night"],
                   f"{b['verdict']}: {_value(b)}", b["night"],
                   _short(b["commit"]),
                   f"{_short(a['commit'])}..{_short(b['commit'])}"]
            # A figure's ceiling check that changed alike shares its row.
            key = tuple(row[:2]) + (row[2].removesuffix(CEILING),) + \
                tuple(row[3:])
            if key in rows:
                rows[key][2] = key[2] + BOTH
            else:
                rows[key] = row
    t.rows = list(rows.values())
    return t


def _flaky_table(flaky):
    t = Table("flaky", "blktests tests flaky on more than one night",
              ["Test", "Disk", "Kernels", "Nights flaky", "Nights"])
    for test, disk, pair, nights in flaky:
        if len(nights) > 1:
            t.rows.append([test, disk or "-", pair, str(len(nights)),
                           ", ".join(nights)])
    return t


def _values_table(topology, series):
    t = Table(f"values-{topology}", f"{topology}: every gated figure, "
              "night by night", ["Variant", "Figure", "Night", "Commit",
                                 "Median [interval]", "Repeats",
                                 "Verdict"])
    for s in series:
        for n, x in s.points:
            t.rows.append([s.variant, s.label, n.night, _short(n.commit),
                           _value(x), str(x["repeats"] or "-"),
                           x["verdict"]])
    return t


def drawn(series):
    """The series worth a panel: on more than one night, moving; a
    ceiling's check of a figure drawn already is not drawn again (its
    verdict changes are in the table)."""
    series = [s for s in series if len(s.points) > 1 and s.varies]
    plain = {(s.topology, s.variant, s.figure) for s in series
             if not s.ceiling}
    return [s for s in series if not s.ceiling or
            (s.topology, s.variant, s.figure) not in plain]


def _plot(topology, moved, nights, out_dir):
    """One panel per gated figure of the topology that moved, every
    variant on it: median and interval per night; a night whose verdict
    changed is ringed and named with its commit."""
    figures = list(dict.fromkeys(s.label for s in moved))
    rows = (len(figures) + COLUMNS - 1) // COLUMNS
    fig, axes = plt.subplots(rows, COLUMNS, figsize=(5 * COLUMNS, 3.4 * rows),
                             squeeze=False)
    index = {n.night: i for i, n in enumerate(nights)}
    variants = list(dict.fromkeys(s.variant for s in moved))
    for ax, label in zip(axes.flat, figures):
        for s in (s for s in moved if s.label == label):
            colour = VARIANT_COLOURS[variants.index(s.variant) %
                                     len(VARIANT_COLOURS)]
            xs = [index[n.night] for n, _ in s.points]
            med = [x["median"] for _, x in s.points]
            ax.errorbar(xs, med, yerr=[[m - x["low"] for m, (_, x) in
                                        zip(med, s.points)],
                                       [x["high"] - m for m, (_, x) in
                                        zip(med, s.points)]],
                        color=colour, marker="o", capsize=3, label=s.variant)
            for _, b in s.changes:
                xi = index[b["night"]]
                ax.plot([xi], [b["median"]], "o", markersize=14,
                        markerfacecolor="none", color="black")
                ax.annotate(f"{b['verdict']} at {b['commit'][:7]}",
                            (xi, b["median"]), fontsize=7,
                            textcoords="offset points", xytext=(-40, 10))
        ax.set_title(textwrap.fill(label, 50), fontsize=8)
        ax.set_xticks(range(len(nights)), [n.date[:10] + "\n" +
                                           _short(n.commit)[:7]
                                           for n in nights], fontsize=7)
        ax.set_xlim(-0.5, len(nights) - 0.5)
        ax.grid(True, axis="y", linewidth=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(figures):]:
        ax.set_visible(False)
    fig.suptitle(f"{topology}: gated figures across nights (median and "
                 "interval; ring: the night the verdict changed)")
    fig.tight_layout()
    name = f"trend-{topology}.png"
    fig.savefig(os.path.join(out_dir, name), dpi=90)
    plt.close(fig)
    return name


def _page(nights, series, flaky, blktests_nights, plots):
    body = ["<h1>blkscale: the nights side by side</h1>",
            '<p id="broken" class="warning"></p>']
    body.append(_table(_nights_table(nights)))
    changes = _changes_table(series)
    body.append(_table(changes) if changes.rows else
                '<p class="note">No gated figure changed its verdict from '
                "one night to the next.</p>")
    table = _flaky_table(flaky)
    if not blktests_nights:
        body.append('<p class="note">No blktests nights given '
                    "(--blktests-night): flaky tests not looked for.</p>")
    elif table.rows:
        body.append(_table(table))
    else:
        once = ", ".join(f"{t}{' on ' + d if d else ''} ({n[0]})"
                         for t, d, _, n in flaky)
        body.append(f'<p class="note">No blktests test was flaky on more '
                    f"than one of the {len(blktests_nights)} blktests "
                    "night(s) given" + (f"; flaky on one: {_e(once)}"
                                        if once else "") + ".</p>")
    for topology in dict.fromkeys(s.topology for s in series):
        mine = [s for s in series if s.topology == topology]
        body.append(f'<section id="{_e(topology)}"><h2>{_e(topology)}</h2>')
        if topology in plots:
            body.append(f'<figure><img src="{_e(plots[topology])}" '
                        f'alt="{_e(topology)}: gated figures across nights">'
                        "</figure>")
        still = sorted({s.label for s in mine} -
                       {s.label for s in drawn(mine)})
        if still:
            body.append('<p class="note">Not drawn (one night; the same '
                        "value and verdict every night; or a ceiling's "
                        "check of a figure drawn above): "
                        + _e(", ".join(still)) + ".</p>")
        body.append("<details><summary>Every value, night by night"
                    "</summary>" + _table(_values_table(topology, mine))
                    + "</details></section>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>blkscale: the nights side by side</title>"
            f"<style>{STYLE}</style><script>{SCRIPT}</script></head>\n"
            "<body>\n" + "\n".join(body) + "\n</body></html>\n")


def build(sources, out_dir, blktests_nights=()):
    """Write the trend page of the nights in sources into out_dir;
    returns (nights, series)."""
    lines = trend.read(sources)
    nights = trend.nights(lines)
    series = trend.series(lines)
    flaky = trend.flaky(blktests_nights)

    def fill(tmp):
        plots = {}
        for topology in dict.fromkeys(s.topology for s in series):
            moved = drawn(s for s in series if s.topology == topology)
            if moved:
                plots[topology] = _plot(topology, moved, nights, tmp)
        with open(os.path.join(tmp, "index.html"), "w") as f:
            f.write(_page(nights, series, flaky, blktests_nights, plots))
        with open(os.path.join(tmp, "nightly-history.jsonl"), "w") as f:
            for line in lines:
                f.write(json.dumps(line, sort_keys=True) + "\n")

    build_dir.into_place(out_dir, fill)
    return nights, series
