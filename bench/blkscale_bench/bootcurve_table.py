"""The boot curve part of the sweep's closing table (bootcurve.py): one
block per series, then the goals with their verdicts."""

from blkscale.figures.bootcurve import GUEST, WALL

COL_W = 12


def _row(label, cells):
    return (label, cells)


def _format(rows):
    """Text lines of a block: a title line (a string), then (label,
    cells) rows aligned on the longest label."""
    table = [r for r in rows if isinstance(r, tuple)]
    width = max(len(r[0]) for r in table) + 4
    # A column is as wide as its widest cell (a median with its spread
    # can be wider than COL_W), and never touches its neighbour.
    cols = max(len(r[1]) for r in table)
    col_w = [max([COL_W] + [len(r[1][i]) + 2 for r in table
                            if i < len(r[1])]) for i in range(cols)]
    return [r if isinstance(r, str) else
            (f"  {r[0]}".ljust(width)
             + "".join(c.rjust(w) for c, w in zip(r[1], col_w))).rstrip()
            for r in rows]


def _seconds(point):
    if point is None:
        return "-"
    return point.summary.text(lambda x: f"{x:,.2f}") + \
        ("*" if point.figure == GUEST else "")


def _times(value):
    """A ratio: a number, or a stats.Summary with its spread."""
    if value is None:
        return "-"
    if hasattr(value, "text"):
        return value.text(lambda x: f"{x:.2f}x") if value.n else "-"
    return f"{value:.2f}x"


def _ms(summary):
    return summary.text(lambda x: f"{x:,.2f}") if summary.n else "-"


def _share(fit):
    if fit is None or fit["quadratic_share"] is None:
        return "-"
    return f"{100 * max(fit['quadratic_share'], 0):.0f}%"


def _series_block(result, s, variants):
    title = s["name"] + (f": {s['title']}" if s.get("title") else "")
    out = ["", title,
           _row("curve, disks", [h for v in variants
                                 for h in (f"{v} s", "ms/disk")])]
    for spec in s["curves"]:
        curves = [result.curve(s["name"], spec["role"], v) for v in variants]
        disks = sorted({p.disks for c in curves for p in c.points})
        name = spec["label"] if spec["role"] == "curve" else \
            f"{spec['role']}: {spec['label']}"
        for n in disks:
            cells = []
            for c in curves:
                p = next((p for p in c.points if p.disks == n), None)
                cells += [_seconds(p),
                          "-" if p is None else f"{p.per_disk_ms:,.2f}"]
            out.append(_row(f"{name}, {n:,}", cells))
        if not disks:
            out.append(_row(f"{name}: no point measured", []))
        segs = [{(a, b): s for a, b, s in cv.segments} for cv in curves]
        for a, b in sorted({k for seg in segs for k in seg}):
            out.append(_row(f"{name}: ms per added disk, {a:,}->{b:,}",
                            [c for seg in segs for c in
                             ("", _ms(seg[(a, b)]) if (a, b) in seg
                              else "-")]))
        if any(len(seg) >= 2 for seg in segs):
            out.append(_row(f"{name}: added-disk cost, last/first",
                            [c for cv in curves for c in
                             ("", _times(cv.marginal_growth))]))
            out.append(_row(f"{name}: quadratic share at most disks",
                            [c for cv in curves for c in
                             ("", _share(cv.quadratic))]))
    ratios = [r for r in result.ratios if r.series == s["name"]]
    for n in sorted({r.disks for r in ratios}):
        cells = []
        for v in variants:
            r = next((r for r in ratios if r.disks == n and r.variant == v),
                     None)
            cells += [_times(r.summary if r else None), ""]
        out.append(_row(f"before/after, {n:,}", cells))
    return _format(out)


def _value(v):
    if v.value is None:
        return "-"
    if v.unit == "x":
        return v.spread.text(lambda x: f"{x:.2f}x")
    return v.spread.text(lambda x: f"{x:,.2f}") + f" {v.unit}"


def _limit(v):
    limit = v.goal["max"]
    return f"{limit:g}x" if v.unit == "x" else f"{limit:g} {v.unit}"


def _goals(result):
    if not result.verdicts:
        return []
    name_w = max(len(v.goal["name"]) for v in result.verdicts) + 2
    var_w = max(len(v.variant) for v in result.verdicts) + 2
    val_w = max([11] + [len(_value(v)) + 2 for v in result.verdicts])
    out = ["", "goals".ljust(name_w + 2) + "variant".ljust(var_w)
           + "value".rjust(val_w) + "limit".rjust(9)
           + "  verdict       figure"]
    for v in result.verdicts:
        out.append("  " + v.goal["name"].ljust(name_w)
                   + v.variant.ljust(var_w) + _value(v).rjust(val_w)
                   + _limit(v).rjust(9) + f"  {v.verdict:12}  {v.figure}")
    if any(v.verdict == "INCONCLUSIVE" for v in result.verdicts):
        out.append("  INCONCLUSIVE: the repeats' range (or the 95% interval"
                   " from 5 repeats) straddles the limit; run more repeats")
    return out


def lines(result, variants):
    """Text lines, or [] for a sweep without series or goals."""
    if not result.series and not result.verdicts:
        return []
    out = ["", f"boot curve: seconds from QEMU's start to the census record "
           f"({WALL}; * = {GUEST}, the guest's uptime, when the wall time "
           "is missing), ms/disk = that time / disks found; ms per added "
           "disk = the time between adjacent points over the disks between "
           "them; quadratic share = c n^2 / (b n + c n^2) of a robust "
           "quadratic fit at the most disks"]
    for s in result.series:
        out += _series_block(result, s, variants)
    return out + _goals(result)
