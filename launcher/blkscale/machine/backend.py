"""What the launcher asks of a backend and of a running machine, stated
once.

Starter: qemu/backend.py:QemuBackend and libvirt/backend.py:
LibvirtBackend, the one object each backend exposes; commands/run.py,
commands/plan.py, commands/xml.py and session/variant.py use a backend
through it alone.

Backend: the running machine a Starter makes, qemu/machine.py:Machine
(QEMU started directly) or libvirt/domain.py:Domain (a transient libvirt
domain); session/variant.py watches either through it alone.
"""

from dataclasses import dataclass
from typing import Callable, Optional, Protocol


@dataclass(frozen=True)
class Accelerator:
    """The accelerator of a run, why, and the host that runs the guest
    (results.json records it)."""
    accel: str                  # tcg or kvm
    reason: str
    qemu_version: str
    host_cpu: str


class Starter(Protocol):
    name: str                   # "qemu" or "libvirt", as results.json says

    def check(self, planned, variants=(), profile=False):
        """Refuse (TopologyError, UsageError) what this backend cannot
        start, before anything is started; QEMU's StartPlan or None."""

    def ready(self) -> None:
        """Make the host ready (a daemon started) or say why not."""

    def accelerator(self, requested, kernel, progress=None) -> Accelerator:
        ...

    def dry_accel(self, requested, kernel) -> str:
        """The accelerator --dry-run shows: no probe boot."""

    def render(self, planned, variant, accel) -> str:
        """What --dry-run prints for one variant."""

    def machine(self, planned, files, variant, accel, tmp) -> "Backend":
        """The configured running machine of one run, not yet launched."""

    def profiler(self, variant, interval_s):
        """The guest profiler of --profile, if the backend has one."""

    def vcpu_snapshot(self, machine, variant) -> "VcpuSnapshot":
        """Lines saying where each vCPU of a machine about to be stopped
        as hung is (halted, or the kernel functions on its stack); none
        where the backend cannot read its registers."""

    def ask_backtrace(self, machine) -> bool:
        """Send the guest an NMI, on which its kernel prints where its
        CPUs are and panics (machine/guest.py, NMI_ARGS); False where the
        backend cannot."""


@dataclass(frozen=True)
class VcpuSnapshot:
    """What vcpu_snapshot() found: the lines of a hang report, and whether
    a vCPU was running (not halted) when last read."""
    lines: list
    busy: bool = False


class Backend(Protocol):
    argv: list              # QEMU's command line, as it ran
    spawned_at: float       # time.monotonic() when the start began

    def shown(self) -> str:
        """What --show-command prints: the command line or the XML."""

    def launch(self, timeout: float,
               tick: Optional[Callable[[], None]] = None) -> Optional[float]:
        """Start; the start-up time in seconds (None: no time measured)."""

    def is_running(self) -> bool: ...

    def exitcode(self) -> Optional[int]:
        """None while running; 0 for a clean end, else how it failed."""

    def sample_rss(self) -> int:
        """QEMU's peak resident memory so far, KiB."""

    def qemu_log(self, limit: int = 4000) -> str:
        """The tail of QEMU's own log (its stderr)."""

    def shutdown(self, hard: bool = False, timeout: float = 10): ...

    def __enter__(self): ...

    def __exit__(self, *exc): ...
