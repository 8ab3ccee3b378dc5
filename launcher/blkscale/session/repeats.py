"""`blkscale run --repeat N`: the order of the runs and what the summary
says of them.

Repeat k runs every variant once; the order is reversed on every other
repeat (stock, patched, patched, stock, ...), so that a host whose speed
drifts during the run slows both variants alike.  With N > 1 each run has
its own directory, <variant>/<k>/, as a bench sweep lays out its repeats.
A figure is the median of its repeats with min..max (and a 95% interval
of the median from 5 repeats); a variant's ratio to the reference is
taken repeat by repeat, as bench does (blkscale.figures.stats).
"""

from ..errors import worst
from ..results import udevfigures

# The boot figures the summary gives for every variant.
FIGURES = ("qemu_start_s", "kernel_to_init_s", "census_complete_s")
MAX_REPEAT = 50


def order(variants, repeat):
    """[(repeat, variant)] in the order they run."""
    out = []
    for k in range(1, repeat + 1):
        names = variants if k % 2 else list(reversed(variants))
        out += [(k, v) for v in names]
    return out


def out_rel(variant, k, repeat):
    """Where a run's files go under the run directory."""
    return variant if repeat == 1 else f"{variant}/{k}"


def reference(variants):
    return "stock" if "stock" in variants else variants[0]


def figures(runs, variant):
    """{figure: Summary} of one variant over its repeats; runs:
    [(repeat, Outcome)]."""
    from ..figures.stats import Summary
    return {f: Summary.of({k: (o.boot or {}).get(f) for k, o in runs
                           if o.variant == variant and o.kind == "ok"})
            for f in FIGURES}


def ratios(runs, variant, ref):
    """{figure: Summary} of variant/ref, repeat by repeat."""
    from ..figures.stats import paired_ratio
    mine, theirs = figures(runs, variant), figures(runs, ref)
    return {f: paired_ratio(mine[f], theirs[f]) for f in FIGURES}


def udev_figures(runs, variant):
    """{figure: Summary} of udev's figures of one variant over its
    repeats that ran udev (guest.udev), {} without any."""
    from ..figures.stats import Summary
    own = {k: o.udev for k, o in runs
           if o.variant == variant and o.kind == "ok" and o.udev}
    if not own:
        return {}
    return {f: Summary.of({k: u.get(f) for k, u in own.items()})
            for f in udevfigures.NAMES}


def udev_lines(runs, variants):
    """Per variant with udev: the medians of its udev figures with their
    spread."""
    out = []
    for v in variants:
        figs = udev_figures(runs, v)
        if not figs:
            continue
        text = {f: s.text(lambda x: f"{x:.2f}") if s.n else "-"
                for f, s in figs.items()}
        out.append(f"  {v:<8} udev: settled {text['settle_after_last_disk_s']}"
                   f" s after the last disk, {text['cpu_ms_per_disk']} ms CPU"
                   f" per disk, latency median {text['latency_median_ms']} "
                   f"ms, events {text['udev_events']}")
    return out


def variant_entry(runs, variant, ref):
    """The summary's aggregate for one variant."""
    own = [o for _, o in runs if o.variant == variant]
    entry = {
        "outcome": "ok" if all(o.kind == "ok" for o in own) else
        next(o.kind for o in own if o.kind != "ok"),
        "exit_status": worst(o.status for o in own),
        "repeats": len(own),
        "repeats_ok": sum(o.kind == "ok" for o in own),
        "figures": {f: s.to_json() for f, s in figures(runs, variant).items()},
    }
    udev = udev_figures(runs, variant)
    if udev:
        entry["udev"] = {f: s.to_json() for f, s in udev.items()}
    if variant != ref:
        entry["vs_" + ref] = {f: s.to_json() for f, s in
                              ratios(runs, variant, ref).items()}
    return entry


def _seconds(summary):
    return summary.text(lambda x: f"{x:.2f}") + " s" if summary.n else "-"


def report_lines(runs, variants):
    """Lines for stdout: per variant the medians with their spread, then
    each variant's ratios to the reference with theirs."""
    from ..figures.stats import ratio_text
    ref = reference(variants)
    out = []
    for v in variants:
        own = [o for _, o in runs if o.variant == v]
        ok = sum(o.kind == "ok" for o in own)
        figs = figures(runs, v)
        out.append(f"  {v:<8} ok {ok}/{len(own):<10} "
                   f"qemu {_seconds(figs['qemu_start_s'])}, "
                   f"init {_seconds(figs['kernel_to_init_s'])}, "
                   f"census {_seconds(figs['census_complete_s'])}")
    for v in variants:
        if v == ref:
            continue
        parts = []
        for f, s in ratios(runs, v, ref).items():
            if s.n:
                # "cannot tell" when the ratio's interval holds 1.
                parts.append(f"{f} {ratio_text(s, lambda x: f'{x:.3f}')}")
        out.append(f"  {v}/{ref}: " + (", ".join(parts) if parts else
                                       "no repeat where both reached the "
                                       "census"))
    return out
