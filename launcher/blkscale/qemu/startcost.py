"""How long QEMU takes to start with a topology's disks, predicted from
measured starts (startcost.json, made by bench's startcost.py from the
evidence logs it names) with the boot curves' robust quadratic fit
(figures/marginal.py).

The measured starts had every disk on the command line: disks added over
QMP cost differently and are not predicted.  Below the fewest disks
measured the fit is not used either (a quadratic through three points
can turn up there); start-up only grows with the disks, so the smallest
point bounds it from above.
"""

import json
import statistics
from pathlib import Path

from ..figures.marginal import robust_quadratic
from .. import qemubinary as binary

DATA = Path(__file__).with_name("startcost.json")


def load(path=DATA):
    with open(path) as f:
        return json.load(f)


def predict(kind, disks, data=None):
    """{seconds, disks, how, measured: [fewest, most], evidence} of a
    start with `disks` on the command line, or None for a kind not
    measured.  how: "fit", "extrapolated" (past the most disks measured)
    or "at most" (fewer than the fewest)."""
    data = data or load()
    points = [(n, s) for n, s, _ in data["start_s"].get(kind) or []]
    if not points:
        return None
    fewest, most = points[0][0], points[-1][0]
    if disks < fewest:
        seconds, how = points[0][1], "at most"
    else:
        fit = robust_quadratic(points)
        seconds = fit["a"] + fit["b"] * disks + fit["c"] * disks * disks
        how = "fit" if disks <= most else "extrapolated"
    return {"seconds": round(seconds, 2), "disks": disks, "how": how,
            "measured": [fewest, most], "evidence": data["evidence"],
            "method": data["method"]}


def _qmp_note(qmp_disks, record, data):
    """What is known of the disks that go over QMP: not this fit; runs
    measured with this very binary (its kind and patches), if any,
    cited by their median."""
    runs = [r for r in data["qmp_runs"] if r["kind"] == record["kind"]
            and r.get("patches", []) == record["patches"]]
    note = (f"the {qmp_disks:,} disks added over QMP are not covered by "
            "this fit")
    by_size = {}
    for r in runs:
        by_size.setdefault((r["disks"], r["log"]), []).append(r)
    cited = []
    for (disks, log), same in sorted(by_size.items()):
        start = statistics.median(r["start_s"] for r in same)
        qmp = statistics.median(r["hotplug_s"] for r in same)
        count = "once" if len(same) == 1 else f"{len(same)} times, median"
        cited.append(f"{disks:,} disks started in {start:.1f} s, {qmp:.1f} "
                     f"s of it over QMP, measured {count}: {log}")
    if cited:
        note += " (" + "; ".join(cited) + ")"
    return note


def describe(record, cmdline_disks, qmp_disks, data=None):
    """plan's view of QEMU's start: {binary, start, qmp_note}, start
    None where nothing was measured for this binary."""
    data = data or load()
    start = predict(record["kind"], cmdline_disks, data) \
        if record["kind"] in binary.CHOICES else None
    return {"binary": record, "start": start,
            "qmp_note": _qmp_note(qmp_disks, record, data)
            if qmp_disks else None}


def lines(view):
    """The plan's text lines of describe()'s view."""
    b, start = view["binary"], view["start"]
    out = [f"QEMU binary: {b['kind']} {b['path']}, "
           f"{b['version'] or 'version unknown'}"
           + (f", {len(b['patches'])} patches on {b['base']}"
              if b["patches"] else "")]
    if start is None:
        out.append(f"QEMU start: no measured cost for a {b['kind']} binary "
                   "(startcost.json measures distro and patched)")
    else:
        out.append("QEMU start: " + _start_text(b["kind"], start))
    if view["qmp_note"]:
        out.append(f"  {view['qmp_note']}")
    return out


def _start_text(kind, start):
    fewest, most = start["measured"]
    where = ", ".join(start["evidence"])
    measured = f"{fewest:,}-{most:,} measured disks, {where}"
    if start["how"] == "at most":
        return (f"at most {start['seconds']} s for {start['disks']:,} disks "
                f"on the command line ({kind} binary; {fewest:,} disks took "
                f"that, fewer were not measured; {where})")
    extra = ", extrapolated" if start["how"] == "extrapolated" else ""
    return (f"about {start['seconds']} s for {start['disks']:,} disks on "
            f"the command line ({kind} binary; fit to {measured}{extra})")
