"""Every disk: how many of the disks each run expected were identified
(serial, size, sector-0 signature) by the census and written and verified
by fio, per kind of disk and kernel variant, with the time each took; and
lvm2's phases against the number of physical volumes.

Figures come from results.json: census.identity (by_kind), census.by_kind
(expected), fio.jobs (each disk's verdict; vd* disks are virtio, sd* SCSI)
and fio.not_run, the census and fio steps' guest times, and the lvm
section's phase times."""

from .series import num
from .table import Table, fmt

KINDS = (("virtio", "vd"), ("scsi", "sd"))


def _fio_by_kind(fio, prefix):
    """(verified, planned) fio disks of one kind, or (None, None)."""
    jobs = [j for j in fio.get("jobs") or [] if isinstance(j, dict)
            and str(j.get("disk") or "").startswith(prefix)]
    if not jobs:
        return None, None
    verified = sum(1 for j in jobs if j.get("ok") and j.get("verified"))
    return verified, len(jobs)


def _ratio(done, total):
    if total is None:
        return "-"
    return f"{fmt(done)}/{fmt(total)}"


def disks_table(run):
    t = Table("everydisk", "Every disk: identified and verified",
              ["Topology", "Variant", "Kind", "Expected", "Identified",
               "fio verified", "Signatures ok (all kinds)",
               "fio not run (all kinds)", "Census (s)", "fio (s)",
               "Verdict"])
    for e in run.with_results():
        ident, fio = e.doc.census_identity, e.doc.section("fio")
        if not ident and not fio.get("jobs"):
            continue
        census_s = e.doc.step_seconds("census")
        fio_s = e.doc.step_seconds("fio")
        signatures = _ratio(num(ident.get("signatures_ok")),
                            num(ident.get("signatures_checked")))
        not_run = len(fio.get("not_run") or []) if fio else None
        for kind, prefix in KINDS:
            expected = e.doc.census_expected(kind)
            if not expected:
                continue
            by_kind = (ident.get("by_kind") or {}).get(kind) or {}
            identified = num(by_kind.get("ok"))
            verified, planned = _fio_by_kind(fio, prefix)
            proven = (identified == expected and not not_run and
                      (planned is None or verified == planned))
            t.rows.append([e.topology, e.variant, kind, fmt(expected),
                           _ratio(identified, expected) if by_kind else "-",
                           _ratio(verified, planned), signatures,
                           fmt(not_run), fmt(census_s, 1), fmt(fio_s, 1),
                           "every disk" if proven else "NOT all"])
    return t


def lvm_table(run):
    t = Table("lvm_phases", "lvm2 phases against physical volumes",
              ["Topology", "Variant", "PVs", "Stripes", "pvcreate (s)",
               "vgcreate (s)", "lvcreate (s)", "fio verify on LV (s)",
               "remove (s)", "pvcreate ms/PV", "vgcreate ms/PV"])
    rows = []
    for e in run.with_results():
        lvm = e.doc.section("lvm")
        if not lvm.get("ok"):
            continue
        rows.append((num(lvm.get("pvs")) or 0, [
            e.topology, e.variant, fmt(num(lvm.get("pvs"))),
            fmt(num(lvm.get("stripes"))),
            *[fmt(num(lvm.get(k)), 2) for k in
              ("pvcreate_s", "vgcreate_s", "lvcreate_s", "fio_verify_s",
               "remove_s", "pvcreate_ms_per_pv", "vgcreate_ms_per_pv")]]))
    t.rows = [r for _, r in sorted(rows, key=lambda x: x[0])]
    return t


def tables(run):
    """The section's tables, or {} when no run checked identities."""
    disks, lvm = disks_table(run), lvm_table(run)
    if not disks.rows and not lvm.rows:
        return {}
    return {"everydisk": disks, "lvm_phases": lvm}
