"""The guest's own backtrace of a hang, asked for with an NMI.

A guest stopped as hung while one of its vCPUs still runs is in a loop,
not waiting: the registers the launcher reads say where only when the
variant's System.map names the address (Debian's own kernel has none,
and a module's text is in no System.map).  The kernel itself knows: an
NMI reaches a CPU even with its interrupts off, and the guest runs with
unknown_nmi_panic (machine/guest.py, NMI_ARGS), so the kernel panics on
it and prints the CPU's stack with the function it was in, and with
panic_print=0x40 asks the other CPUs for theirs.  The panic reboots the
guest and QEMU exits (-no-reboot); until then its console is read.
"""

import time

from ..qemu.qmp import QmpError

# How long the guest gets to print its stacks and reboot after the NMI:
# a panic waits up to 10 s for the other CPUs' backtraces.
WAIT_S = 20.0
POLL_S = 0.2


def ask(machine, watcher, drain, backend, wait_s=WAIT_S):
    """Send the NMI and read the console until QEMU exits or wait_s
    passes.  The lines for the hang report, and where the CPU that
    answered was ("CPU 0 (udevd) in func+0x1a/0x40") or None."""
    try:
        if not backend.ask_backtrace(machine):
            return [], None
    except (QmpError, OSError) as e:
        return [f"NMI: could not be sent: {e}"], None
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline and machine.exitcode() is None:
        drain()
        time.sleep(POLL_S)
    drain()
    if watcher.nmi_where:
        return [f"NMI: the guest's kernel answered: {watcher.nmi_where} "
                "(its stacks are on the console)"], watcher.nmi_where
    if watcher.nmi_seen:
        return ["NMI: the guest's kernel took it but printed no stack"], None
    return [f"NMI: the guest printed nothing within {wait_s:.0f} s"], None
