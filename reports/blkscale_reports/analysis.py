"""Everything the report shows, computed once from the loaded run: the
tables, the fitted models and the data behind each plot."""

import statistics
from dataclasses import dataclass, field

from blkscale.figures import clockfloor
from blkscale.results.runresults import Results

from . import (blktests, bootcurve, everydisk, fit, limits, multipath,
               predict, profile, repeats, series, summary, udev)
from .series import num
from .table import Table, fmt, pct

# The seeds' counts, then past 10,000 up to the most blkscale claims
# (topologies/dev_t-65536.toml): measured where a run has the count.
PLAN_DISKS = (1000, 4000, 5000, 10000, 20000, 65536)
PLAN_TOP = max(PLAN_DISKS)
KIB_PER_MIB = 1024


@dataclass
class Analysis:
    run: object
    tables: dict = field(default_factory=dict)
    notes: dict = field(default_factory=dict)      # section -> sentence
    boot: dict = field(default_factory=dict)       # (key, variant) -> Choice
    memory: dict = field(default_factory=dict)     # (key, variant) -> Choice
    curve_topology: dict = field(default_factory=dict)  # section -> name
    section_plots: dict = field(default_factory=dict)   # section -> [ids]
    bootcurve: object = None       # the bench's BootCurve, or None
    summary: list = field(default_factory=list)  # summary.Block per topology
    runs_line: str = ""            # how the runs ended, in one sentence


def pick_topology(run, section):
    """The topology with the most disks where every variant that ran it
    has the section (so that variants are compared on the same disks)."""
    best = None
    for topo in run.topologies:
        entries = [run.entry(topo, v) for v in run.variants]
        entries = [e for e in entries if e]
        if not entries or not all(e.doc.get(section) for e in entries):
            continue
        disks = max(e.disks or 0 for e in entries)
        if best is None or disks > best[0]:
            best = (disks, topo)
    return best[1] if best else None


def _runs_table(run):
    hosts = any(e.host for e in run.entries)
    t = Table("runs", "Runs", ["Topology", "Variant"]
              + (["Host"] if hosts else []) +
              ["Disks found", "Disks expected", "Outcome", "Kernel",
               "Accelerator", "vCPUs", "Wall (s)"])
    # A sweep over hosts: each host's runs together.
    order = [h.get("uri") for h in (run.meta or {}).get("hosts") or []]
    entries = sorted(run.entries, key=lambda e: order.index(e.host)
                     if e.host in order else len(order))
    for e in entries:
        d = Results.of(e.doc)
        t.rows.append([e.topology, e.variant]
                      + ([e.host or "-"] if hosts else []) + [fmt(e.disks),
                       fmt(d.disks_expected_total),
                       e.outcome + (f": {e.message}" if e.outcome != "ok"
                                    and e.message else ""),
                       d.kernel_release or "-",
                       d.accelerator or "-",
                       fmt(d.vcpus),
                       fmt(d.boot_figure("wall_s"), 1)])
    return t


def _census_table(run):
    t = Table("census", "Disk census",
              ["Topology", "Variant", "Disks expected", "Disks found",
               "dev_t all unique", "Largest minor", "Disks with minor > 255",
               "Disks read", "Census took (s)"])
    for e in run.with_results():
        c = e.doc.section("census")
        if not c:
            continue
        t.rows.append([e.topology, e.variant,
                       fmt(num(c.get("disks_expected"))),
                       fmt(num(c.get("disks_found"))),
                       fmt(c.get("devt_unique")) if isinstance(
                           c.get("devt_unique"), bool) else "-",
                       fmt(num(c.get("max_minor"))),
                       fmt(num(c.get("disks_minor_over_255"))),
                       fmt(num(c.get("read_ok"))),
                       fmt(num(c.get("duration_s")), 2)])
    return t


def _ranges(ranges):
    if not isinstance(ranges, list):
        return "-"
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in ranges)


def _majors_table(run):
    t = Table("majors", "Dynamic major capacity",
              ["Topology", "Variant", "Dynamic block majors",
               "Block majors handed out", "Assigned in devices.txt",
               "Dynamic char majors", "Block stopped with"])
    for e in run.with_results():
        blk = e.doc.block_majors
        if not blk:
            continue
        t.rows.append([e.topology, e.variant,
                       fmt(e.doc.figure("block_dynamic_capacity")),
                       _ranges(e.doc.block_major_ranges),
                       fmt(e.doc.figure("block_static_collisions")),
                       fmt(e.doc.figure("char_dynamic_capacity")),
                       blk.get("stop_error") or "-"])
    return t


def _ns(value, floor):
    """A ns figure, with the clock's floor beside it when it is within
    10x of it (blkscale/figures/clockfloor.py)."""
    return fmt(value, 0) + clockfloor.note(value, floor)


def _floor_legend(t):
    if any("(clock floor" in c for row in t.rows for c in row):
        t.note += "; " + clockfloor.LEGEND
    return t


def _cost_table(run, topo):
    t = Table("major_cost", "Register and lookup cost",
              ["Variant", "Majors registered (max)",
               "register p50, median over the curve (ns)",
               "register p50 at the fullest bucket (ns)",
               "lookup p50, median (ns)",
               "lookup p50 at the most registered (ns)"],
              note=f"topology {topo}")
    for v in run.variants:
        e = run.entry(topo, v)
        if not e:
            continue
        reg, look = series.curve(e.doc, "register"), \
            series.curve(e.doc, "lookup")
        # register is timed by the module in the kernel, lookup around
        # open() in user space: each against its own clock's floor
        floors = clockfloor.floors(e.doc)
        kernel, user = floors[clockfloor.KERNEL], floors[clockfloor.USER]
        t.rows.append([v, fmt(e.doc.figure("block_dynamic_capacity")),
                       _ns(series.curve_median(e.doc, "register"), kernel),
                       _ns(reg[-1][1] if reg else None, kernel),
                       _ns(series.curve_median(e.doc, "lookup"), user),
                       _ns(look[-1][1] if look else None, user)])
    return _floor_legend(t)


def _procdev_table(run, topo):
    t = Table("procdevices", "/proc/devices generation",
              ["Variant", "Block majors listed", "Added by procdevbench",
               "Full read (ns)", "Per line (ns)", "Lines",
               "Lists exactly what is registered"],
              note=f"topology {topo}; median of full reads through one "
                   "open file")
    for v in run.variants:
        e = run.entry(topo, v)
        if not e:
            continue
        # one sample is a whole read timed in user space; a per-line
        # figure is that read over its lines, and so is its floor
        user = clockfloor.floors(e.doc)[clockfloor.USER]
        for blk, reg, ns, per_line, lines, ok in \
                series.procdev_points(e.doc):
            t.rows.append([v, fmt(blk), fmt(reg), _ns(ns, user),
                           fmt(per_line, 1) + clockfloor.note(
                               per_line, clockfloor.per_line(user, lines)),
                           fmt(lines), fmt(ok)])
    return _floor_legend(t)


def _points(run, variant, extract):
    return [(e.disks, extract(e.doc)) for e in run.with_results()
            if e.variant == variant and e.disks]


def _fits_table(tid, title, choices, labels, unit):
    t = Table(tid, title, ["Figure", "Variant", "Model", "Formula (n disks)",
                           "Degrees of freedom", f"Residual std error ({unit})",
                           f"Max |residual| ({unit})", "RMS relative error",
                           "Verdict"])
    for (key, variant), choice in choices.items():
        # What was not fitted is said once, in the section's note.
        for f in choice.candidates:
            if f is choice.chosen:
                verdict = "chosen"
            elif f.refused:
                verdict = f"refused: {f.refused}"
            else:
                verdict = "larger residual error"
            t.rows.append([labels[key], variant, f.model, f.formula or "-",
                           fmt(f.dof), fmt(f.stderr, 3) if f.ok else "-",
                           fmt(f.max_abs_residual, 3) if f.points else "-",
                           pct(f.rms_relative) if f.points else "-",
                           verdict])
    return t


def _boot(run, a):
    labels = dict(series.BOOT_SERIES)
    for key, _ in series.BOOT_SERIES:
        for v in run.variants:
            pts = [(n, y) for n, y in _points(
                run, v, lambda d, k=key: series.boot_value(d, k))
                if y is not None]
            if pts:
                a.boot[(key, v)] = fit.choose(pts)
    fits = _fits_table("boot_fits", "Boot time models", a.boot, labels,
                       "s")
    if fits.rows:
        a.tables["boot_fits"] = fits
    t = Table("boot_points", "Boot time: measured and modelled",
              ["Figure", "Variant", "Disks", "Measured (s)",
               "Model (s)", "Residual (s)"])
    for (key, v), choice in a.boot.items():
        chosen = choice.chosen
        pts = chosen.points if chosen else \
            [(n, y, None) for n, y in _points(
                run, v, lambda d, k=key: series.boot_value(d, k))
             if y is not None]
        for n, y, f in pts:
            t.rows.append([labels[key], v, fmt(n), fmt(y, 2),
                           fmt(f, 2), fmt(None if f is None else y - f, 2)])
    a.tables["boot_points"] = t


def _memory(run, a):
    labels = {k: label for k, label, _ in series.MEMORY_SERIES}
    for key, _, extract in series.MEMORY_SERIES:
        for v in run.variants:
            pts = [(n, y) for n, y in _points(run, v, extract)
                   if y is not None]
            if pts:
                a.memory[(key, v)] = fit.choose(pts, models=("linear",))
    t = Table("memory", "Memory per disk",
              ["Topology", "Variant", "Disks", "Guest slab (KiB)",
               "Guest slab per disk (KiB)", "Guest RAM in use (KiB)",
               "QEMU peak RSS (KiB)", "QEMU RSS per disk (KiB)"])
    for e in run.with_results():
        rss = e.doc.qemu_peak_rss_kib
        t.rows.append([e.topology, e.variant, fmt(e.disks),
                       fmt(e.doc.guest_slab_kib),
                       fmt(e.doc.guest_slab_kib_per_disk, 2),
                       fmt(e.doc.guest_used_kib), fmt(rss),
                       fmt(rss / e.disks if rss and e.disks else None, 1)])
    a.tables["memory"] = t
    t = Table("memory_fits", "Memory models: cost of one more disk",
              ["Figure", "Variant", "Per disk (KiB)", "Fixed (KiB)",
               "Residual std error (KiB)", "RMS relative error", "Verdict"])
    for (key, v), choice in a.memory.items():
        f = choice.chosen
        if f is None:
            continue            # said once, in the boot section's note
        t.rows.append([labels[key], v, fmt(f.params["b"], 2),
                       fmt(f.params["a"], 0), fmt(f.stderr, 1),
                       pct(f.rms_relative), "linear fit"])
    if t.rows:
        a.tables["memory_fits"] = t


def _io_table(run):
    t = Table("io", "fio and LVM",
              ["Topology", "Variant", "fio disks", "fio ok", "fio failed",
               "fio verified data", "LVM ok", "PVs", "Majors held",
               "pvcreate (s)", "vgcreate (s)", "lvcreate (s)",
               "fio verify on LV (s)", "remove (s)"])
    for e in run.with_results():
        fio, lvm = e.doc.section("fio"), e.doc.section("lvm")
        if not fio and not lvm:
            continue
        t.rows.append([e.topology, e.variant, fmt(num(fio.get("disks"))),
                       fmt(num(fio.get("ok"))), fmt(num(fio.get("failed"))),
                       fmt(fio.get("verify")) if fio else "-",
                       fmt(lvm.get("ok")) if lvm else "-",
                       fmt(num(lvm.get("pvs"))),
                       fmt(num(lvm.get("majors_held"))),
                       *[fmt(num(lvm.get(k)), 2) for k in
                         ("pvcreate_s", "vgcreate_s", "lvcreate_s",
                          "fio_verify_s", "remove_s")]])
    return t


def probe_choice(a, variant):
    """The boot model the capacity plan uses: census when it was fitted,
    else kernel-to-init (disks are probed before init)."""
    for key, label in series.BOOT_SERIES:
        choice = a.boot.get((key, variant))
        if choice and choice.chosen:
            return key, label, choice
    return None, None, None


def _interval(choice, n, digits=1):
    """The 95% prediction interval of a chosen model at n, as text."""
    iv = predict.interval(choice.chosen, n) if choice and choice.chosen \
        else None
    return "-" if iv is None else f"{fmt(iv[0], digits)} to {fmt(iv[1], digits)}"


def measured_at(run, variant, disks, key):
    """'median (min-max)' of a boot figure over the runs of a variant that
    found exactly `disks` disks (the run's own and those added with
    --measured), or '-' when none did."""
    values = sorted(v for v in (series.boot_value(e.doc, key)
                                for e in run.with_results() + run.measured
                                if e.variant == variant and e.disks == disks)
                    if v is not None)
    if not values:
        return "-"
    med = statistics.median(values)
    if len(values) == 1:
        return f"{fmt(med, 1)} (1 run)"
    return f"{fmt(med, 1)} ({fmt(values[0], 1)}-{fmt(values[-1], 1)})"


def _beyond(largest):
    if largest >= PLAN_TOP:
        return "measured"
    return f"{PLAN_TOP / largest:.1f}x the largest measured"


def _plan(run, a):
    t = Table("capacity_plan", "Capacity planning",
              ["Disks", "Variant", "Guest slab (MiB)",
               "Guest RAM in use (MiB)", "Host QEMU RSS (MiB)",
               "Probe time (s)", "Probe time figure",
               "Probe time, 95% prediction interval (s)",
               "QEMU start to census, host wall (s)",
               "Host wall, 95% prediction interval (s)",
               "Probe time measured at this count (s)",
               "Host wall measured at this count (s)"],
              note="A prediction interval is where one more run at that "
                   "disk count should land with 95% probability if the "
                   "model is right: t quantile x residual error x "
                   "sqrt(1 + leverage), from the fit's degrees of "
                   "freedom (predict.py). Where the run (or a run given "
                   "with --measured) booted exactly that many disks, the "
                   "last two columns give what it measured: median "
                   "(min-max) over its repeats.")
    err = Table("capacity_error", "Error of the capacity models on the "
                "measured points",
                ["Variant", "Figure", "Model", "Disk counts measured",
                 "RMS relative error", "Max |residual|",
                 f"Extrapolation to {PLAN_TOP} disks", "Points fitted",
                 "Degrees of freedom",
                 f"95% prediction interval at {PLAN_TOP} disks"])
    largest = {}
    for v in run.variants:
        key, label, probe = probe_choice(a, v)
        mem = {k: a.memory.get((k, v)) for k, _, _ in series.MEMORY_SERIES}
        if probe is None and not any(c and c.chosen for c in mem.values()):
            continue            # no model of this variant: the note says why
        for n in PLAN_DISKS:
            cells = [fmt(n), v]
            for k in ("guest_slab_kib", "guest_used_kib",
                      "qemu_peak_rss_kib"):
                c = mem.get(k)
                cells.append(fmt(c.chosen.predict(n) / KIB_PER_MIB, 0)
                             if c and c.chosen else "-")
            cells.append(fmt(probe.chosen.predict(n), 1) if probe else "-")
            cells.append(f"{label} ({probe.chosen.model})" if probe else
                         "no model")
            cells.append(_interval(probe, n))
            wall = a.boot.get(("wall_to_census_s", v))
            cells.append(fmt(wall.chosen.predict(n), 1)
                         if wall and wall.chosen else "-")
            cells.append(_interval(wall, n))
            cells.append(measured_at(run, v, n, key) if key else "-")
            cells.append(measured_at(run, v, n, "wall_to_census_s"))
            t.rows.append(cells)
        named = [(k, lbl, a.memory.get((k, v)), "KiB")
                 for k, lbl, _ in series.MEMORY_SERIES]
        named.append((key, label, probe, "s"))
        wall_label = dict(series.BOOT_SERIES)["wall_to_census_s"]
        if key != "wall_to_census_s":
            named.append(("wall_to_census_s", wall_label,
                          a.boot.get(("wall_to_census_s", v)), "s"))
        for k, lbl, c, unit in named:
            if not c:
                continue
            f = c.chosen
            counts = ", ".join(str(n) for n in c.counts)
            if f:
                largest[v] = max(c.counts)
                err.rows.append([v, lbl, f.model, counts,
                                 pct(f.rms_relative),
                                 f"{fmt(f.max_abs_residual, 2)} {unit}",
                                 _beyond(max(c.counts)),
                                 fmt(len(f.points)), fmt(f.dof),
                                 _interval(c, PLAN_TOP, 1 if unit == "s"
                                           else 0) + f" {unit}"])
    if t.rows:
        a.tables["capacity_plan"] = t
    if err.rows:
        a.tables["capacity_error"] = err
    if not largest:
        a.notes["plan"] = (
            "No capacity model: the run needs at least "
            f"{fit.MIN_COUNTS} different disk counts (a sweep such as "
            "bench/sweeps/scale.toml); Boot time above says what it has.")
    else:
        top = max(largest.values())
        a.notes["plan"] = (
            f"Models fitted on {top} disks at most: every row above "
            f"{top} disks is an extrapolation, and the further it goes the "
            "less the residuals on the measured points say about it."
            if top < PLAN_TOP else
            f"Models fitted up to {top} disks: every row is within the "
            "measured range.")
        a.notes["plan"] += (" For another disk count: blkscale report "
                            "RUN_DIR --disks N.")


def no_model_note(a):
    """One sentence on the figures and kernels no model was fitted to,
    and why (fit.Choice.reason), or "" when every one has its model."""
    missing = {}
    for (key, v), choice in list(a.boot.items()) + list(a.memory.items()):
        if choice.chosen is None:
            why = choice.reason or "no model fits without falling with " \
                "more disks"
            missing.setdefault(why, []).append(v)
    if not missing:
        return ""
    parts = []
    for why, variants in missing.items():
        variants = [v for v in a.run.variants if v in variants]
        who = "any kernel" if set(variants) == set(a.run.variants) else \
            ", ".join(variants)
        parts.append(f"no model for {who}: {why}")
    text = "; ".join(parts)
    return (text[0].upper() + text[1:] + ". The plots show each kernel's "
            "median with its interval at the disk counts measured instead "
            "of a curve.")


def analyse(run):
    a = Analysis(run)
    a.summary = summary.blocks(run)
    a.runs_line = summary.runs_line(run)
    a.tables["runs"] = _runs_table(run)
    loaded = repeats.loaded_runs(run)
    if loaded:
        a.notes["runs"] = "Runs made on a loaded host (their times may be " \
            "slow): " + "; ".join(f"{t} {v} repeat {k}: {note}"
                                  for t, v, k, note in loaded) + "."
    a.tables["census"] = _census_table(run)
    a.tables["majors"] = _majors_table(run)
    topo = pick_topology(run, "majors")
    a.curve_topology["majors"] = topo
    if topo:
        a.tables["major_cost"] = _cost_table(run, topo)
    topo = pick_topology(run, "procdevices")
    a.curve_topology["procdevices"] = topo
    if topo:
        a.tables["procdevices"] = _procdev_table(run, topo)
    _boot(run, a)
    a.bootcurve = bootcurve.analyse(run, a)
    _memory(run, a)
    a.tables["io"] = _io_table(run)
    proven = everydisk.tables(run)
    a.tables.update(proven)
    if not proven:
        a.notes["everydisk"] = "No run of this report checked disk " \
            "identities (a census with the plan's disk groups)."
    found = udev.tables(run)
    a.tables.update(found)
    if not found:
        a.notes["udev"] = "No run of this report had udev in the guest " \
            "(guest.udev)."
    found, read, unread = limits.tables(run)
    a.tables.update(found)
    if not found:
        a.notes["limits"] = (
            f"No run hit a limit: the kernel logs of {read} run(s) show no "
            "refusal and held the whole boot." if read else
            "No run of this report brought its kernel log home.") + (
            f" {unread} run(s) brought no kernel log: unknown." if read
            and unread else "")
    found = multipath.tables(run)
    a.tables.update(found)
    if not found:
        a.notes["multipath"] = "No run of this report had LUNs on " \
            "several paths (virtio_scsi[].paths)."
    found = blktests.tables(run)
    a.tables.update(found)
    if not found:
        a.notes["blktests"] = "This run has no blktests results (make blktests)."
    found = profile.tables(run)
    a.tables.update(found)
    if not found:
        a.notes["profile"] = "No run of this report was profiled " \
            "(blkscale run --profile)."
    _plan(run, a)
    why = no_model_note(a)
    if why:
        a.notes["boot"] = why
    return a
