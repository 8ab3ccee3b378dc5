"""The boot curve part of the sweep's closing table (bootcurve.py): one
block per series, then the goals with their verdicts."""

from .bootcurve import GUEST, WALL

COL_W = 12


def _row(label, cells):
    return (label, cells)


def _format(rows):
    """Text lines of a block: a title line (a string), then (label,
    cells) rows aligned on the longest label."""
    width = max(len(r[0]) for r in rows if isinstance(r, tuple)) + 4
    return [r if isinstance(r, str) else
            (f"  {r[0]}".ljust(width)
             + "".join(c.rjust(COL_W) for c in r[1])).rstrip()
            for r in rows]


def _seconds(point):
    if point is None:
        return "-"
    return f"{point.seconds:,.2f}" + ("*" if point.figure == GUEST else "")


def _times(value):
    return "-" if value is None else f"{value:.2f}x"


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
        out.append(_row(f"{name}: per disk, most/fewest",
                        [c for cv in curves for c in ("", _times(cv.growth))]))
    ratios = [r for r in result.ratios if r.series == s["name"]]
    for n in sorted({r.disks for r in ratios}):
        cells = []
        for v in variants:
            r = next((r for r in ratios if r.disks == n and r.variant == v),
                     None)
            cells += [_times(r.ratio if r else None), ""]
        out.append(_row(f"before/after, {n:,}", cells))
    return _format(out)


def _value(v):
    if v.value is None:
        return "-"
    return f"{v.value:,.2f} {v.unit}" if v.unit == "s" else \
        f"{v.value:.2f}x"


def _limit(v):
    limit = v.goal["max"]
    return f"{limit:g} s" if v.unit == "s" else f"{limit:g}x"


def _goals(result):
    if not result.verdicts:
        return []
    name_w = max(len(v.goal["name"]) for v in result.verdicts) + 2
    var_w = max(len(v.variant) for v in result.verdicts) + 2
    out = ["", "goals".ljust(name_w + 2) + "variant".ljust(var_w)
           + "value".rjust(11) + "limit".rjust(9) + "  verdict  figure"]
    for v in result.verdicts:
        out.append("  " + v.goal["name"].ljust(name_w)
                   + v.variant.ljust(var_w) + _value(v).rjust(11)
                   + _limit(v).rjust(9) + f"  {v.verdict:7}  {v.figure}")
    return out


def lines(result, variants):
    """Text lines, or [] for a sweep without series or goals."""
    if not result.series and not result.verdicts:
        return []
    out = ["", f"boot curve: seconds from QEMU's start to the census record "
           f"({WALL}; * = {GUEST}, the guest's uptime, when the wall time "
           "is missing), ms/disk = that time / disks found"]
    for s in result.series:
        out += _series_block(result, s, variants)
    return out + _goals(result)
