"""The guest kernel's profile of each run that was sampled (`blkscale run
--profile`): how much of the kernel's time went to the simulated clock
and console, and its busiest functions, so that a later run that brings
either back, or a new hot spot, shows on the page."""

from .series import num
from .table import Table, fmt

# Functions shown per run, of the ten results.json keeps.
TOP = 5


def _top(rows):
    return ", ".join(f"{r.get('symbol')} {fmt(num(r.get('percent')), 1)}%"
                     for r in (rows or [])[:TOP]) or "-"


def tables(run):
    t = Table("profile", "Guest kernel profile",
              ["Topology", "Variant", "Repeat", "Kernel samples",
               "Clocksource", "Console", "Busiest (self)",
               "Busiest (on the stack)"],
              note="Shares of the samples taken while the vCPU ran kernel "
                   "code; clocksource and console are the simulator's "
                   "costs (an emulated timer read, a byte-by-byte UART), "
                   "not a real machine's. Every sample is in each run's "
                   "profile.json and profile.txt.")
    for e in run.with_results():
        p = e.doc.section("profile")
        if not p:
            continue
        shares = p.get("shares") or {}
        t.rows.append([e.topology, e.variant, fmt(e.repeat),
                       fmt(num(p.get("kernel_samples"))),
                       f"{fmt(num(shares.get('clocksource')), 1)}%",
                       f"{fmt(num(shares.get('console')), 1)}%",
                       _top(p.get("self")), _top(p.get("inclusive"))])
    return {"profile": t} if t.rows else {}
