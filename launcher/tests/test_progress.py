"""The live progress line: in place on a terminal, throttled in a log."""

import io

from blkscale.session import progress as progress_mod
from blkscale.session.progress import Progress


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_terminal_line_is_rewritten_in_place():
    out = Tty()
    p = Progress(out)
    p.update("stock", "kernel", 10, 500, 3)
    p.update("stock", "kernel", 250, 500, 65)
    p.update("stock", "census", 500, 500, 70)
    p.end()
    text = out.getvalue()
    assert text.count("\r") == 3 and text.endswith("\n")
    assert "\r[stock] kernel       disks 250/500  elapsed 1m05s" in text
    assert text.count("\n") == 1


def test_log_gets_a_line_per_phase_and_every_few_seconds(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(progress_mod.time, "monotonic", lambda: now[0])
    out = io.StringIO()
    p = Progress(out)
    for disks in range(0, 60, 5):
        p.update("patched", "kernel", disks, 500, now[0] - 100)
        now[0] += 1
    p.update("patched", "census", 500, 500, 11)
    lines = out.getvalue().splitlines()
    assert "\r" not in out.getvalue()
    # First line, one after LOG_INTERVAL_S, and the phase change.
    assert len(lines) == 3
    assert lines[-1].startswith("[patched] census")


def test_disabled_prints_nothing():
    out = Tty()
    Progress(out, enabled=False).update("stock", "kernel", 1, 2, 3)
    assert out.getvalue() == ""
