"""The sweep's closing table: figures per topology and variant, and each
variant's ratio to the reference variant from the same sweep."""

from blkscale.figures import clockfloor, hostload, metrics
from blkscale.figures.stats import Summary, paired_ratio, ratio_text


def _short_qemu(version):
    if not version:
        return "QEMU ?"
    words = version.split()
    return "QEMU " + words[3] if len(words) > 3 and \
        words[:3] == ["QEMU", "emulator", "version"] else version


def _qemu_text(manifest):
    """The runs' QEMU: its version, with its kind and path when it is
    not the distro's; without a sweep-wide choice, the kinds the
    topologies chose when one is not the distro's."""
    chosen = manifest.get("qemu")
    if chosen:
        text = _short_qemu(chosen.get("version"))
        if chosen.get("kind") != "distro":
            text += f" ({chosen.get('kind')}, {chosen.get('path')})"
        return text
    kinds = sorted({(r.get("qemu") or {}).get("kind") or "distro"
                    for r in manifest.get("runs") or []})
    if kinds and kinds != ["distro"]:
        return "QEMU as each topology chose (" + ", ".join(kinds) + ")"
    return _short_qemu(manifest.get("qemu_version"))


def header(manifest):
    kernels = ", ".join(f"{v} {r or '?'}" for v, r in
                        (manifest.get("kernels") or {}).items())
    git = manifest.get("git") or {}
    commit = (git.get("commit") or "?")[:12]
    if git.get("dirty"):
        commit += " (uncommitted changes)"
    if manifest.get("hosts"):
        # Each host's own facts head its tables (host_line).
        first = (f"sweep {manifest['run']} ({manifest['status']}) over "
                 f"{len(manifest['hosts'])} libvirt hosts, one table "
                 "group per host: figures of two hosts are never pooled")
    else:
        first = (f"sweep {manifest['run']} ({manifest['status']}): "
                 f"accelerator {manifest.get('accelerator') or '?'}, "
                 f"{_qemu_text(manifest)}, "
                 f"host {manifest.get('host_cpu') or '?'} "
                 f"x{manifest.get('host_cpus')}")
    return [
        first,
        f"kernels: {kernels}; project commit {commit}",
    ]


def _cell(value, fmt):
    """A figure: a stats.Summary (median and spread) or a plain number."""
    if isinstance(value, Summary):
        return value.text(fmt)
    return fmt(value) if value is not None else "-"


def _ratio_text(r):
    return f"{r:.2f}x"


def _median(value):
    return value.median if isinstance(value, Summary) else value


def _floor_note(metric, value, floors):
    """The clock floor beside a ns figure within 10x of it
    (clockfloor.py); floors: {source: ns or None} of the variant."""
    source = clockfloor.SOURCE.get(metric.name)
    if source is None or not floors:
        return ""
    return clockfloor.note(_median(value), floors.get(source))


def lines(manifest, figures, floors=None):
    """The table as text lines (empty topologies are left out).  Each
    cell is the median of the repeats, with [min-max] (or the 95%
    interval of the median from 5 repeats on); a ratio is taken per
    repeat and summarised the same way (blkscale.figures.stats).  floors
    (clockfloor.sweep_floors) puts the clock's floor beside a ns figure
    within 10x of it."""
    sweep = manifest.get("sweep") or {}
    variants = sweep.get("variants") or []
    ref = sweep.get("reference", "stock")
    others = [v for v in variants if v != ref] if ref in variants else []
    out = header(manifest)
    repeat = sweep.get("repeat", 1)
    if repeat > 1:
        out.append(f"{repeat} repeats per topology and variant, interleaved:"
                   " median [min-max and how often that range holds the "
                   "median], or [95% interval of the median] from 5 "
                   "repeats; ratios per repeat, \"cannot tell\" when "
                   "their interval holds 1")
    else:
        out.append("one run per topology and variant: no figure or ratio "
                   "has a spread (--repeat 3 or more to judge them)")
    if manifest.get("partial_reason"):
        out.append(f"PARTIAL: {manifest['partial_reason']}")
    label_w = max(len(f"{m.label} ({m.unit})") for m in metrics.METRICS) + 2
    topologies = list(sweep.get("topologies") or {})
    blocks = []
    if manifest.get("hosts"):
        for host, names in by_host(manifest, topologies):
            out.append("")
            out.append(host_line(host))
            for topo in names:
                blocks.append(_block(manifest, figures, topo, variants, ref,
                                     others, label_w, floors))
                out += blocks[-1][0]
    else:
        for topo in topologies:
            blocks.append(_block(manifest, figures, topo, variants, ref,
                                 others, label_w, floors))
            out += blocks[-1][0]
    if any(floored for _, floored in blocks):
        out.append("")
        out.append(clockfloor.LEGEND)
    runs = [r for r in manifest.get("runs") or [] if not r.get("superseded")]
    moves = manifest.get("moves") or []
    if moves:
        out.append("")
        for m in moves:
            out.append(f"{m['unit']}: moved from {m['from']} to {m['to']}: "
                       f"{m['reason']}" if m.get("to") else
                       f"{m['unit']}: FAILED: {m['reason']}")
    failed = [r for r in runs if r["outcome"] != "ok"]
    if failed:
        out.append("")
        for r in failed:
            out.append(f"{r['topology']} {r['variant']}{_repeat(r, repeat)}"
                       f": {r['outcome']}: {r['message']}")
    loaded = [(r, hostload.mark(r)) for r in runs if hostload.mark(r)]
    if loaded:
        out.append("")
        for r, note in loaded:
            out.append(f"{r['topology']} {r['variant']}{_repeat(r, repeat)}"
                       f": {note}; its figures may be slow")
    return out


def _block(manifest, figures, topo, variants, ref, others, label_w,
           floors=None):
    """One topology's table: a line per figure, a column per variant and
    per ratio; and whether a clock floor note is in it."""
    by_variant = figures.get(topo)
    if not by_variant:
        return [], False
    floored = False
    vcpus = (manifest.get("vcpus") or {}).get(topo)
    title = topo + (f" ({vcpus} vCPUs)" if vcpus else "")
    cols = list(variants) + [f"{v}/{ref}" for v in others]
    rows = []
    for m in metrics.METRICS:
        if not m.summary:
            continue
        values = [by_variant.get(v, {}).get(m.name) for v in variants]
        if all(v is None or (isinstance(v, Summary) and not v.n)
               for v in values):
            continue
        notes = [_floor_note(m, val, ((floors or {}).get(topo) or {})
                             .get(v)) for v, val in zip(variants, values)]
        floored = floored or any(notes)
        cells = [_cell(val, m.format) + n for val, n in zip(values, notes)]
        for v in others:
            mine = by_variant.get(v, {}).get(m.name)
            theirs = by_variant.get(ref, {}).get(m.name)
            if isinstance(mine, Summary) and mine.n > 1:
                # "cannot tell" when the ratio's interval holds 1.
                cells.append(ratio_text(paired_ratio(mine, theirs)))
            elif isinstance(mine, Summary):
                cells.append(_cell(paired_ratio(mine, theirs), _ratio_text))
            else:
                r = metrics.ratio(mine, theirs)
                cells.append(_ratio_text(r) if r is not None else "-")
        rows.append((f"  {m.label} ({m.unit})", cells))
    col_w = max([12] + [len(c) + 2 for c in cols] +
                [len(c) + 2 for _, cells in rows for c in cells])
    out = ["", title.ljust(label_w) + "".join(c.rjust(col_w) for c in cols)]
    out += [label.ljust(label_w) + "".join(c.rjust(col_w) for c in cells)
            for label, cells in rows]
    return out, floored


def by_host(manifest, topologies):
    """[(host entry, [topology])]: where the runs that count were made,
    in the manifest's order of hosts (a topology runs on one host)."""
    ran_on = {}
    for r in manifest.get("runs") or []:
        if not r.get("superseded") and r.get("host"):
            ran_on.setdefault(r["topology"], r["host"])
    return [(h, [t for t in topologies if ran_on.get(t) == h["uri"]])
            for h in manifest.get("hosts") or []]


def host_line(host):
    what = [f"{host.get('cpu_model') or '?'} x{host.get('cpus') or '?'}",
            _short_qemu(host.get("qemu_version")),
            f"libvirt {host.get('libvirt_version') or '?'}",
            f"accelerator {host.get('accelerator') or '?'}",
            f"{host.get('slots', 1)} slot(s)"]
    line = f"host {host['uri']}: " + ", ".join(what)
    if not host.get("usable", True):
        line += f"; not used: {host.get('problem')}"
    elif host.get("failed"):
        line += f"; FAILED: {host['failed']}"
    return line


def _repeat(run, repeats):
    return f" #{run.get('repeat', 1)}" if repeats > 1 else ""
