"""The runs of a sweep by repeat: {(topology, variant): {repeat: doc}},
for the figures that show the spread of their repeats (error bars in
the boot curve, the spread column of the boot points).  A sweep made
before repeats existed, or a launcher run without --repeat, has repeat 1
only."""

from blkscale.figures import hostload


def by_repeat(run):
    out = {}
    for e in run.entries:
        if e.doc:
            out.setdefault((e.topology, e.variant), {})[e.repeat] = e.doc
    return out


def loaded_runs(run):
    """[(topology, variant, repeat, note)] of runs made on a loaded host
    (the bench's host_load in the manifest, blkscale/figures/hostload.py).
    """
    runs = (run.meta or {}).get("runs") if run.layout == "sweep" else None
    return [(r.get("topology"), r.get("variant"), r.get("repeat", 1),
             hostload.mark(r)) for r in runs or []
            if hostload.mark(r) and not r.get("superseded")]
