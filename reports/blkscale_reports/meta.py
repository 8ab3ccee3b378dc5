"""The run's metadata as (label, value) lines for the page header."""


def _qemu(version):
    return version or "-"


def clock_console(run):
    """Each variant's guest clocksource and kernel console as its runs
    recorded them ("patched: tsc, quiet"): the simulator's own costs a
    reader must know before comparing boot times."""
    seen = {}
    for e in run.with_results():
        clock, console = e.doc.clocksource, e.doc.kernel_console
        if clock or console:
            # Runs older than these fields record neither: left out.
            seen.setdefault(e.variant, {})[
                f"{clock or '-'}, {console or '-'}"] = None
    return "; ".join(f"{v}: {' / '.join(pairs)}"
                     for v, pairs in seen.items()) or "-"


def lines(run):
    m = run.meta
    git = m.get("git") or {}
    commit = git.get("commit") or "-"
    if git.get("dirty"):
        commit += " (with uncommitted changes)"
    kernels = ", ".join(f"{v}: {r or '-'}" for v, r in
                        (m.get("kernels") or {}).items()) or "-"
    vcpus = ", ".join(f"{t}: {n}" for t, n in
                      (m.get("vcpus") or {}).items() if n is not None) or "-"
    command = m.get("command")
    out = [
        ("Run", f"{m.get('run') or '-'} ({run.layout}, {m.get('status')})"),
        ("Date", f"{m.get('started') or '-'} to {m.get('finished') or '-'}"),
        ("Command", " ".join(command) if command else "-"),
        ("Project commit", commit),
        ("Kernels", kernels),
        ("QEMU", _qemu(m.get("qemu_version"))),
        ("Accelerator", m.get("accelerator") or "-"),
        ("Host CPU", f"{m.get('host_cpu') or '-'} "
                     f"({m.get('host_cpus') or '?'} CPUs)"),
        ("Guest vCPUs", vcpus),
        ("Guest clock and console", clock_console(run)),
    ]
    for h in m.get("hosts") or []:
        # A sweep over libvirt hosts: each host's own facts.
        state = "not used: " + str(h.get("problem")) if not h.get("usable") \
            else "failed: " + h["failed"] if h.get("failed") else "ok"
        out.append((f"Host {h.get('uri')}",
                    f"{h.get('cpu_model') or '-'} ({h.get('cpus') or '?'} "
                    f"CPUs), {_qemu(h.get('qemu_version'))}, libvirt "
                    f"{h.get('libvirt_version') or '-'}, accelerator "
                    f"{h.get('accelerator') or '-'}, units "
                    f"{', '.join(h.get('units') or []) or '-'}; {state}"))
    for mv in m.get("moves") or []:
        out.append((f"Moved {mv.get('unit')}",
                    f"from {mv.get('from')} to {mv.get('to') or 'nowhere (failed)'}"
                    f": {mv.get('reason')}"))
    return out


def partial(run):
    """A warning sentence when the run did not complete, else None."""
    m = run.meta
    if m.get("status") == "complete":
        return None
    reason = m.get("partial_reason") or "it never finished"
    return f"This run is {m.get('status')}: {reason}. Figures cover only " \
           "the runs that brought results."
