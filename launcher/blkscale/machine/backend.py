"""What a session asks of a running machine, stated once.

qemu/machine.py:Machine (QEMU started directly) and
libvirt/domain.py:Domain (a transient libvirt domain) both provide it;
session/variant.py watches either through it alone.
"""

from typing import Callable, Optional, Protocol


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
