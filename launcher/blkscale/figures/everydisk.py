"""Every disk proven, judged run by run: checks that need no baseline.

Every run must have found every disk its topology planned.  A run whose
plan identified disks (census.identity) must have found
every planned serial, once, with its size, kind and signature; a run
whose plan wrote and verified disks with fio must have verified every
one.  One bad disk in one repeat is a regression: a median would hide
it.  A planned section that is missing from a run's results is missing,
never a pass.
"""

from collections.abc import Mapping

from ..results.runresults import Results, number
from . import compare

IDENTITY_BAD = ("mismatched", "missing", "duplicated", "unexpected")


def _first_bad(identity):
    bad = identity.get("bad") or []
    if not bad or not isinstance(bad[0], dict):
        return ""
    b = bad[0]
    return (f"; first: {b.get('disk', '?')} ({b.get('serial', '?')}): "
            f"{b.get('problem', b.get('check', ''))}")


def judge_identity(identity):
    """(status, text): pass only when every planned disk was identified."""
    expected = number(identity.get("expected"))
    ok = number(identity.get("ok"))
    if expected is None or ok is None:
        return compare.MISSING, "census.identity has no expected/ok counts"
    counts = {k: number(identity.get(k)) or 0 for k in IDENTITY_BAD}
    sig_checked = number(identity.get("signatures_checked")) or 0
    sig_ok = number(identity.get("signatures_ok")) or 0
    if ok == expected and not any(counts.values()) and sig_ok == sig_checked:
        return compare.PASS, f"{ok:g}/{expected:g} identified"
    said = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
    if sig_ok != sig_checked:
        said += (", " if said else "") + \
            f"signatures {sig_ok:g}/{sig_checked:g}"
    return compare.REGRESSION, \
        f"{ok:g}/{expected:g} identified ({said or 'short'})" + \
        _first_bad(identity)


def judge_fio(fio):
    """(status, text): pass only when fio verified every planned disk."""
    expected = number(fio.get("disks_expected"))
    verified = number(fio.get("disks_verified"))
    if expected is None or verified is None:
        return compare.MISSING, \
            "fio has no disks_expected/disks_verified counts"
    failed = number(fio.get("disks_failed")) or 0
    not_run = fio.get("not_run") or []
    if verified == expected and not failed and not not_run:
        return compare.PASS, f"{verified:g}/{expected:g} verified"
    first = [j.get("disk") or j.get("job") for j in fio.get("jobs") or []
             if isinstance(j, dict) and not j.get("ok")]
    extra = f"; first failed: {first[0]}" if first else ""
    if not_run:
        extra += f"; not run: {len(not_run)} (first {not_run[0]})"
    return compare.REGRESSION, \
        f"{verified:g}/{expected:g} verified, {failed:g} failed{extra}"


def judge_found(results):
    """(status, text): every disk the topology planned was found."""
    expected = results.disks_expected_total
    found = results.disks_found_total
    if expected is None or found is None:
        return compare.MISSING, "disks has no expected/found totals"
    if found == expected:
        return compare.PASS, f"{found:g}/{expected:g} found"
    return compare.REGRESSION, f"{found:g}/{expected:g} found"


def _pci_disks(results):
    """Disks of the topology's PCI groups: the ones that carry serials
    (scsi_debug and null_blk disks have none to check)."""
    expected = results.topology_expected
    return sum(number(expected.get(k)) or 0 for k in ("virtio", "scsi"))


def _combined(topo, variant, name, judged):
    """One check over the repeats: {repeat: (status, text)}."""
    bad = {r: j for r, j in judged.items() if j[0] != compare.PASS}
    if not bad:
        texts = {t for _, t in judged.values()}
        text = texts.pop() if len(texts) == 1 else "every disk"
        return compare.Check(topo, variant, name, compare.PASS,
                             message=f"{name}: {text} in each of "
                             f"{len(judged)} repeats")
    status = compare.REGRESSION if any(
        st == compare.REGRESSION for st, _ in bad.values()) else \
        compare.MISSING
    said = "; ".join(f"repeat {r}: {t}" for r, (_, t) in sorted(bad.items()))
    return compare.Check(topo, variant, name, status,
                         message=f"{name}: {said}")


def checks(docs):
    """One check per topology, variant and kind of proof, over its
    repeats; docs: {(topology, variant): {repeat: results doc}}."""
    out = []
    for (topo, variant), by_rep in sorted(docs.items()):
        ident, fio, found = {}, {}, {}
        for rep, doc in by_rep.items():
            results = Results.of(doc)
            if isinstance(results.get("disks"), Mapping):
                found[rep] = judge_found(results)
            if results.step("census") and _pci_disks(results):
                ident[rep] = judge_identity(results.census_identity)
            if results.step("fio"):
                fio[rep] = judge_fio(results.section("fio"))
        if found:
            out.append(_combined(topo, variant, "every_disk_found", found))
        if ident:
            out.append(_combined(topo, variant, "every_disk_identified",
                                 ident))
        if fio:
            out.append(_combined(topo, variant, "every_disk_verified", fio))
    return out
