"""A per-call cost judged against a kernel built from other patches.

Under TCG the cost of one kernel call moves with the kernel's layout,
not only with the code it runs: v4 of the series made register_blkdev
cost 1.21x [1.17-1.24] what v3 did, with the same code for it and every
function it calls, and 1 KiB of text moved elsewhere changed nothing
(evidence/20261206-register-v3-v4).  So a per-call ratio between two
kernels whose patches differ says that this binary is slower here, not
that the code timed is.  The verdict stands (a slower binary is slower);
its message says which it could be and what settles it: compare the
timed functions between the two series, and if they are the same,
accept the cost by making the baseline again (its series then becomes
today's, and the next night compares like with like).
"""

from . import metrics

NOTE = ("; the kernels' patches differ ({diff}): under TCG a change of "
        "layout alone moved a per-call cost 1.21x "
        "(evidence/20261206-register-v3-v4); if the timed code is the "
        "same in both series, accept it with make baseline")


def patch_ids(doc):
    """The patch ids of a results document's kernel, in order; None when
    it records none (an older run, a prebuilt kernel)."""
    patches = ((doc or {}).get("kernel") or {}).get("patches")
    if patches is None:
        return None
    return [p.get("patch_id") for p in patches]


def _ids_of(docs, topology, variant):
    by_repeat = docs.get((topology, variant)) or {}
    for repeat in sorted(by_repeat):
        ids = patch_ids(by_repeat[repeat])
        if ids is not None:
            return ids
    return None


def difference(mine, theirs):
    """'N patches only in X, M only in Y' of two lists of patch ids."""
    only_mine = len([p for p in mine if p not in theirs])
    only_theirs = len([p for p in theirs if p not in mine])
    if not only_mine and not only_theirs:
        return "the same patches in another order"
    return f"{only_mine} only in this kernel, {only_theirs} only in the other"


def annotate(checks, docs):
    """Append NOTE to each per-call check (metrics.CALL) that compares
    its variant with another (METRIC_vs_OTHER) whose kernel was built
    from other patches; docs: repeats.load()'s
    {(topology, variant): {repeat: doc}}."""
    for c in checks:
        if c.kind != metrics.CALL or "_vs_" not in c.metric:
            continue
        other = c.metric.split("_vs_", 1)[1]
        mine = _ids_of(docs, c.topology, c.variant)
        theirs = _ids_of(docs, c.topology, other)
        if mine is None or theirs is None or mine == theirs:
            continue
        c.message += NOTE.format(diff=difference(mine, theirs))
    return checks
