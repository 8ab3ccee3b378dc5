"""The live progress line on stderr while a guest boots and runs.

On a terminal the line is rewritten in place; in a log (CI) a line is
printed every few seconds and whenever the phase changes, so that the log
shows progress without a line per poll.
"""

import sys
import time

LOG_INTERVAL_S = 10


def _elapsed(seconds):
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds}s"
    return f"{seconds // 60}m{seconds % 60:02d}s"


class Progress:
    def __init__(self, stream=None, enabled=True):
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = enabled and self.stream.isatty()
        self._last_text = None
        self._last_phase = None
        self._last_time = 0.0
        self._width = 0

    def update(self, label, phase, disks, expected, elapsed_s, detail=None):
        """detail: what a long step said of its own progress last."""
        if not self.enabled:
            return
        text = (f"[{label}] {phase:<12} disks {disks}/{expected}  "
                f"elapsed {_elapsed(elapsed_s)}")
        if detail:
            text += f"  {detail}"
        now = time.monotonic()
        if self.tty:
            if text != self._last_text:
                pad = max(0, self._width - len(text))
                self.stream.write("\r" + text + " " * pad)
                self.stream.flush()
                self._width = len(text)
        elif (phase != self._last_phase
              or now - self._last_time >= LOG_INTERVAL_S):
            self.stream.write(text + "\n")
            self.stream.flush()
            self._last_time = now
        self._last_text = text
        self._last_phase = phase

    def message(self, text):
        """A line of its own (ends the in-place line first)."""
        if not self.enabled:
            return
        self.end()
        self.stream.write(text + "\n")
        self.stream.flush()

    def end(self):
        if self.tty and self._width:
            self.stream.write("\n")
            self.stream.flush()
            self._width = 0
            self._last_text = None
