"""The report's PNG plots (matplotlib, Agg backend: no display needed).

Each function draws one figure from the analysis and returns its file
name, or None when the run has nothing to draw (the page says so).
"""

import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from blkscale.figures import clockfloor  # noqa: E402

from . import analysis, bootcurve, fit, predict, series  # noqa: E402

DPI = 100
STYLES = {"stock": ("tab:red", "o"), "patched": ("tab:blue", "s")}
OTHER = [("tab:green", "^"), ("tab:purple", "D"), ("tab:orange", "v")]


def _style(run, variant):
    if variant in STYLES:
        return STYLES[variant]
    others = [v for v in run.variants if v not in STYLES]
    return OTHER[others.index(variant) % len(OTHER)]


def _save(fig, out_dir, name):
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=DPI)
    plt.close(fig)
    return name


def capacity(a, out_dir):
    run = a.run
    topo = a.curve_topology.get("majors")
    if not topo:
        return None
    groups = [("dynamic block majors", "block_dynamic_capacity"),
              ("dynamic char majors", "char_dynamic_capacity"),
              ("block majors assigned\nin devices.txt",
               "block_static_collisions")]
    variants = [v for v in run.variants if run.entry(topo, v)]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.8 / len(variants)
    x = np.arange(len(groups))
    for i, v in enumerate(variants):
        doc = run.entry(topo, v).doc
        values = [doc.figure(name) or 0 for _, name in groups]
        color, _ = _style(run, v)
        bars = ax.bar(x + (i - (len(variants) - 1) / 2) * width, values,
                      width, label=v, color=color)
        ax.bar_label(bars, fmt="%d", fontsize=8)
    ax.set_xticks(x, [g for g, _ in groups])
    ax.set_ylabel("majors")
    ax.set_title(f"Dynamic major capacity ({topo})")
    ax.legend()
    return _save(fig, out_dir, "capacity.png")


def major_cost(a, out_dir):
    run = a.run
    topo = a.curve_topology.get("majors")
    if not topo:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    # register is timed in the kernel, lookup in user space: each panel
    # shows its own clock's floor (clockfloor.py)
    for ax, name, title, source in (
            (axes[0], "register", "register_blkdev(0, ...)",
             clockfloor.KERNEL),
            (axes[1], "lookup", "open() of a registered major",
             clockfloor.USER)):
        for v in run.variants:
            e = run.entry(topo, v)
            pts = series.curve(e.doc, name) if e else []
            if not pts:
                continue
            color, marker = _style(run, v)
            xs = [p[0] for p in pts]
            ax.plot(xs, [p[1] for p in pts], marker=marker, markersize=3,
                    color=color, label=f"{v} p50")
            if all(p[2] is not None for p in pts):
                ax.plot(xs, [p[2] for p in pts], linestyle=":", color=color,
                        label=f"{v} p90")
            floor = clockfloor.floors(e.doc)[source]
            if floor is not None:
                ax.axhline(floor, linestyle="--", linewidth=0.8, color=color,
                           label=f"{v} clock floor")
        ax.set_xlabel("dynamic majors already registered")
        ax.set_ylabel("ns per call")
        ax.set_title(title)
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=8)
    fig.suptitle(f"Cost against registered majors ({topo})")
    return _save(fig, out_dir, "major_cost.png")


def procdevices(a, out_dir):
    run = a.run
    topo = a.curve_topology.get("procdevices")
    if not topo:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for v in run.variants:
        e = run.entry(topo, v)
        pts = series.procdev_points(e.doc) if e else []
        if not pts:
            continue
        color, marker = _style(run, v)
        xs = [p[0] if p[0] is not None else p[1] for p in pts]
        axes[0].plot(xs, [p[2] / 1000 for p in pts], marker=marker,
                     color=color, label=v)
        axes[1].plot(xs, [p[3] for p in pts], marker=marker, color=color,
                     label=v)
    axes[0].set_ylabel("µs per full read")
    axes[1].set_ylabel("ns per line")
    for ax in axes:
        ax.set_xlabel("block majors registered")
        ax.set_ylim(bottom=0)
        ax.legend()
    fig.suptitle(f"/proc/devices generation ({topo})")
    return _save(fig, out_dir, "procdevices.png")


def _repeat_bars(ax, pts, color):
    """Error bars min..max at the median of the values measured at the
    same disk count (the repeats), where there are several."""
    by_n = {}
    for n, y in pts:
        by_n.setdefault(n, []).append(y)
    several = [(n, ys) for n, ys in sorted(by_n.items()) if len(ys) > 1]
    if several:
        meds = [float(np.median(ys)) for _, ys in several]
        ax.errorbar([n for n, _ in several], meds,
                    yerr=[[m - min(ys) for m, (_, ys) in zip(meds, several)],
                          [max(ys) - m for m, (_, ys) in zip(meds, several)]],
                    fmt="none", ecolor=color, capsize=3, linewidth=1)


def _wall_fit(a, v, axes, color):
    """The host wall clock's model beside the guest's: dotted, with its
    prediction band on the extrapolation."""
    choice = a.boot.get(("wall_to_census_s", v))
    f = choice.chosen if choice else None
    if not f:
        return
    pts = [(p[0], p[1]) for p in f.points]
    axes[0].plot([p[0] for p in pts], [p[1] for p in pts], "x",
                 color=color, label=f"{v}: measured (host wall to census)")
    _repeat_bars(axes[0], pts, color)
    xs = np.geomspace(min(p[0] for p in pts), max(analysis.PLAN_DISKS), 200)
    axes[1].plot(xs, [f.predict(x) for x in xs], color=color,
                 linestyle=":", label=f"{v}: host wall, {f.model}")
    _band(axes[1], f, xs, color)


def _band(ax, f, xs, color):
    """The 95% prediction band of a fit over xs (predict.py)."""
    band = predict.band(f, xs)
    if band:
        floor = 1e-3
        ax.fill_between([b[0] for b in band],
                        [max(b[1], floor) for b in band],
                        [max(b[2], floor) for b in band],
                        color=color, alpha=0.15, linewidth=0)


def _fitted(choices):
    return any(c.chosen for c in choices.values())


def _dots(a, out_dir, names, title, filename):
    """Without a curve (fewer disk counts than a fit needs): one panel
    per figure of the summary (summary.py), each kernel's median at each
    topology with its interval as an error bar, the reference first."""
    panels = []
    for name in names:
        rows = [(b, r) for b in a.summary for r in b.rows
                if r.metric.name == name]
        if any(r.cells[v].value.n for _, r in rows for v in r.cells):
            panels.append(rows)
    if not panels:
        return None
    fig, axes = plt.subplots(1, len(panels), figsize=(
        max(8, 5.5 * len(panels)), 4), squeeze=False)
    for ax, rows in zip(axes[0], panels):
        ticks, labels = [], []
        x = 0
        for b, r in rows:
            order = sorted(b.variants, key=lambda v: v != b.reference)
            for v in order:
                s = r.cells[v].value
                if not s.n:
                    continue
                color, marker = _style(a.run, v)
                low, high = s.bounds
                ax.errorbar([x], [s.median], yerr=[[s.median - low],
                                                   [high - s.median]],
                            fmt=marker, color=color, capsize=4)
                ticks.append(x)
                labels.append(v + (f"\n{b.topology}" if len(rows) > 1
                                   else ""))
                x += 1
            x += 1              # a gap between topologies
        ax.set_xticks(ticks, labels, fontsize=8)
        ax.set_ylabel(rows[0][1].label)
        ax.set_title(rows[0][1].name + (f" ({rows[0][0].disks:,.0f} disks)"
                                        if len(rows) == 1 else ""))
        ax.grid(True, axis="y", linewidth=0.3)
    fig.suptitle(title)
    alt = (f"{title}, each kernel: no curve, a fit needs "
           f"{fit.MIN_COUNTS} disk counts")
    return _save(fig, out_dir, filename), alt


def boot_model(a, out_dir):
    run = a.run
    if not a.boot:
        return None
    if not _fitted(a.boot):
        return _dots(a, out_dir, ["census_complete_s", "kernel_to_init_s"],
                     "Boot time at the disk counts measured: median and "
                     "interval of the repeats",
                     "boot_dots.png")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    drawn = False
    for v in run.variants:
        key, label, choice = analysis.probe_choice(a, v)
        if choice is None:
            # No model: still show the measured points of the first figure.
            for k, lbl in series.BOOT_SERIES:
                if (k, v) in a.boot:
                    key, label, choice = k, lbl, a.boot[(k, v)]
                    break
        if choice is None:
            continue
        color, marker = _style(run, v)
        pts = [(n, y) for n, y in (
            (e.disks, series.boot_value(e.doc, key))
            for e in run.with_results() if e.variant == v) if y is not None]
        for ax in axes:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker,
                    color=color, label=f"{v}: measured ({label})")
            _repeat_bars(ax, pts, color)
        drawn = True
        f = choice.chosen
        if f:
            top = max(p[0] for p in pts)
            xs = np.linspace(min(p[0] for p in pts), top, 100)
            axes[0].plot(xs, [f.predict(x) for x in xs], color=color,
                         label=f"{v}: {f.model} fit")
            xs = np.geomspace(min(p[0] for p in pts),
                              max(analysis.PLAN_DISKS), 200)
            axes[1].plot(xs, [f.predict(x) for x in xs], color=color,
                         linestyle="--", label=f"{v}: {f.model}, "
                         f"extrapolated, 95% prediction band")
            _band(axes[1], f, xs, color)
        if key != "wall_to_census_s":
            _wall_fit(a, v, axes, color)
    if not drawn:
        plt.close(fig)
        return None
    axes[0].set_title("measured range")
    axes[0].set_ylim(bottom=0)
    axes[1].set_title(f"extrapolation to {analysis.PLAN_TOP} disks "
                      "(log-log), 95% prediction bands")
    axes[1].set_xscale("log")
    axes[1].set_yscale("log")
    for n in analysis.PLAN_DISKS:
        axes[1].axvline(n, color="grey", linewidth=0.5)
    for ax in axes:
        ax.set_xlabel("disks")
        ax.set_ylabel("seconds (kernel start; x: QEMU start)")
        ax.legend(fontsize=7)
    fig.suptitle("Boot to census against disk count")
    return _save(fig, out_dir, "boot_model.png")


def memory(a, out_dir):
    run = a.run
    panels = [("guest_slab_kib", "guest slab (MiB)"),
              ("qemu_peak_rss_kib", "host QEMU peak RSS (MiB)")]
    if not a.memory:
        return None
    if not _fitted(a.memory):
        return _dots(a, out_dir, ["guest_slab_kib_per_disk",
                                  "qemu_rss_kib_per_disk"],
                     "Memory per disk at the disk counts measured: median "
                     "and interval of the repeats",
                     "memory_dots.png")
    extract = {k: f for k, _, f in series.MEMORY_SERIES}
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for ax, (key, ylabel) in zip(axes, panels):
        for v in run.variants:
            pts = [(e.disks, extract[key](e.doc)) for e in run.with_results()
                   if e.variant == v and e.disks]
            pts = [(n, y) for n, y in pts if y is not None]
            if not pts:
                continue
            color, marker = _style(run, v)
            choice = a.memory.get((key, v))
            f = choice.chosen if choice else None
            label = v + (f": {f.params['b']:.1f} KiB per disk" if f else "")
            ax.plot([p[0] for p in pts], [p[1] / 1024 for p in pts], marker,
                    color=color, label=label)
            if f:
                xs = np.linspace(0, max(p[0] for p in pts), 50)
                ax.plot(xs, [f.predict(x) / 1024 for x in xs], color=color,
                        linewidth=1)
        ax.set_xlabel("disks")
        ax.set_ylabel(ylabel)
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=8)
    fig.suptitle("Memory against disk count (slope: cost of one more disk)")
    return _save(fig, out_dir, "memory.png")


# Boot curve: colour and marker by variant; the curve's role by line.
ROLE_LINES = {"curve": "-", "after": "-", "before": "--"}


def _bootcurve_series(a, s, out_dir):
    """One series: seconds (left) and ms per disk (right) against disks,
    every curve of every variant on the same axes."""
    result = a.bootcurve
    curves = [c for c in result.curves if c.series == s["name"] and
              c.points]
    if not curves:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for c in curves:
        color, marker = _style(a.run, c.variant)
        xs = [p.disks for p in c.points]
        label = f"{c.variant}: {bootcurve.curve_label(c)}"
        fill = "none" if c.role == "before" else color
        # Error bars: the spread of the repeats (min-max, or the 95%
        # interval of the median from 5 repeats on).
        lows = [p.summary.bounds[0] for p in c.points]
        highs = [p.summary.bounds[1] for p in c.points]
        for ax, ys, scale in (
                (axes[0], [p.seconds for p in c.points], [1.0] * len(xs)),
                (axes[1], [p.per_disk_ms for p in c.points],
                 [1000.0 / p.disks for p in c.points])):
            ax.errorbar(xs, ys, yerr=[
                [(p.seconds - lo) * k for p, lo, k in
                 zip(c.points, lows, scale)],
                [(hi - p.seconds) * k for p, hi, k in
                 zip(c.points, highs, scale)]],
                linestyle=ROLE_LINES[c.role], marker=marker, color=color,
                markerfacecolor=fill, label=label, capsize=3)
    axes[0].set_ylabel("seconds, QEMU start to census")
    axes[1].set_ylabel("ms per disk")
    top_x = max(p.disks for c in curves for p in c.points)
    tops = (max(p.summary.bounds[1] for c in curves for p in c.points),
            max(1000.0 * p.summary.bounds[1] / p.disks
                for c in curves for p in c.points))
    for ax, top in zip(axes, tops):
        ax.set_xlabel("disks")
        ax.set_xlim(0, top_x * 1.05)
        ax.set_ylim(0, top * 1.1)
        ax.grid(True, linewidth=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"Boot curve: {s['name']}"
                 + (f" ({s['title']})" if s.get("title") else ""))
    return _save(fig, out_dir, f"{bootcurve.plot_id(s['name'])}.png")


def bootcurves(a, out_dir):
    """{plot id: (file name or None, alt text)}, one per series."""
    if a.bootcurve is None:
        return {}
    out = {}
    for s in a.bootcurve.series:
        alt = (f"Boot curve {s['name']}: disks against seconds to census "
               "and ms per disk, each variant"
               + (", before and after" if len(s["curves"]) > 1 else ""))
        out[bootcurve.plot_id(s["name"])] = (
            _bootcurve_series(a, s, out_dir), alt)
    return out


PLOTS = [
    ("capacity", capacity, "Dynamic major capacity, stock and patched"),
    ("major_cost", major_cost, "Register and lookup cost against "
     "registered majors"),
    ("procdevices", procdevices, "/proc/devices generation against "
     "registered majors"),
    ("boot_model", boot_model, "Boot-to-census time against disk count, "
     "with the fitted model and its extrapolation"),
    ("memory", memory, "Guest slab and host QEMU RSS against disk count"),
]


def draw_all(a, out_dir):
    """{plot id: (file name or None, alt text)}; a plot function returns
    its file name, or (file name, alt text) when it drew something else
    than its usual plot (dots instead of a curve)."""
    drawn = {}
    for pid, func, alt in PLOTS:
        name = func(a, out_dir)
        drawn[pid] = name if isinstance(name, tuple) else (name, alt)
    drawn.update(bootcurves(a, out_dir))
    return drawn
