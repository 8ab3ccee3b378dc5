"""The blktests documents of a run directory that a verdict judges
(blkscale/figures/blktests.py): each kernel's results.json, then its
second boot's, checked for what a verdict reads."""

from pathlib import Path

from blkscale.results import runresults
from blkscale.results.record import Unreadable

from .errors import ReportError

SECOND_BOOT = "second-boot"


STATUSES = ("passed", "failed", "not run")


def check(doc, path):
    """Raise ReportError on the first blktests entry a verdict cannot use."""
    section = (doc or {}).get("blktests")
    if section is None or "skipped" in section:
        return
    parts = [("tests", section.get("tests"))]
    runs = (section.get("reruns") or {}).get("runs")
    if section.get("reruns") is not None:
        parts.append(("reruns.runs", runs))
    for where, entries in parts:
        if not isinstance(entries, list):
            raise ReportError(path, f"blktests.{where}", "not a list")
        for i, e in enumerate(entries):
            name = f"blktests.{where}[{i}]"
            if not isinstance(e, dict) or not isinstance(e.get("test"), str):
                raise ReportError(path, f"{name}.test", "missing")
            if e.get("status") not in STATUSES:
                raise ReportError(path, f"{name}.status",
                                  f"{e.get('status')!r} is not passed, "
                                  "failed or not run")


def second_boot(run_dir, variant):
    """The run directory of a variant's second boot, inside the run's."""
    return Path(run_dir) / f"{SECOND_BOOT}-{variant}"


def read_results(directory):
    """The results.json of a variant's directory checked for what a
    verdict reads, or None if absent."""
    path = Path(runresults.path_in(directory))
    if not path.is_file():
        return None
    try:
        # Only its blktests section is read: a document that names no
        # schema is read too.
        doc = runresults.read(path, untagged=True)
    except Unreadable as e:
        raise ReportError(path, "", f"not JSON ({e.reason})") from None
    check(doc, path)
    return doc


def load_run(run_dir, variants):
    """{variant: [results.json, second boot's results.json, ...]} of a
    run directory (missing files are left out)."""
    out = {}
    for x in variants:
        docs = (read_results(Path(run_dir) / x),
                read_results(second_boot(run_dir, x) / x))
        out[x] = [d for d in docs if d is not None]
    return out
