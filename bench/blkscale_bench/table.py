"""The sweep's closing table: figures per topology and variant, and each
variant's ratio to the reference variant from the same sweep."""

from . import metrics


def _short_qemu(version):
    if not version:
        return "QEMU ?"
    words = version.split()
    return "QEMU " + words[3] if len(words) > 3 and \
        words[:3] == ["QEMU", "emulator", "version"] else version


def header(manifest):
    kernels = ", ".join(f"{v} {r or '?'}" for v, r in
                        (manifest.get("kernels") or {}).items())
    git = manifest.get("git") or {}
    commit = (git.get("commit") or "?")[:12]
    if git.get("dirty"):
        commit += " (uncommitted changes)"
    return [
        f"sweep {manifest['run']} ({manifest['status']}): accelerator "
        f"{manifest.get('accelerator') or '?'}, "
        f"{_short_qemu(manifest.get('qemu_version'))}, "
        f"host {manifest.get('host_cpu') or '?'} x{manifest.get('host_cpus')}",
        f"kernels: {kernels}; project commit {commit}",
    ]


def lines(manifest, figures):
    """The table as text lines (empty topologies are left out)."""
    sweep = manifest.get("sweep") or {}
    variants = sweep.get("variants") or []
    ref = sweep.get("reference", "stock")
    others = [v for v in variants if v != ref] if ref in variants else []
    out = header(manifest)
    if manifest.get("partial_reason"):
        out.append(f"PARTIAL: {manifest['partial_reason']}")
    label_w = max(len(f"{m.label} ({m.unit})") for m in metrics.METRICS) + 2
    col_w = max([12] + [len(f"{v}/{ref}") + 2 for v in others])
    for topo in sweep.get("topologies") or {}:
        by_variant = figures.get(topo)
        if not by_variant:
            continue
        vcpus = (manifest.get("vcpus") or {}).get(topo)
        title = topo + (f" ({vcpus} vCPUs)" if vcpus else "")
        cols = list(variants) + [f"{v}/{ref}" for v in others]
        out.append("")
        out.append(title.ljust(label_w) + "".join(c.rjust(col_w)
                                                   for c in cols))
        for m in metrics.METRICS:
            if not m.summary:
                continue
            values = [by_variant.get(v, {}).get(m.name) for v in variants]
            if all(v is None for v in values):
                continue
            cells = [m.format(v) for v in values]
            for v in others:
                r = metrics.ratio(by_variant.get(v, {}).get(m.name),
                                  by_variant.get(ref, {}).get(m.name))
                cells.append(f"{r:.2f}x" if r is not None else "-")
            out.append(f"  {m.label} ({m.unit})".ljust(label_w)
                       + "".join(c.rjust(col_w) for c in cells))
    failed = [r for r in manifest.get("runs") or [] if r["outcome"] != "ok"]
    if failed:
        out.append("")
        for r in failed:
            out.append(f"{r['topology']} {r['variant']}: {r['outcome']}: "
                       f"{r['message']}")
    return out
