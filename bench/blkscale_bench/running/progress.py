"""One line per finished run; on a terminal, a live line while it runs."""

import sys

from ..hosts import label


def _elapsed(seconds):
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds}s"
    return f"{seconds // 60}m{seconds % 60:02d}s"


def _seconds(value):
    return f"{value:.2f} s" if isinstance(value, (int, float)) else "-"


class Progress:
    def __init__(self, total, stream=None, repeats=1):
        self.total = total
        self.repeats = repeats
        self.stream = stream or sys.stdout
        self.tty = self.stream.isatty()
        self._width = 0

    def _prefix(self, index, topo, variant):
        return f"[{index}/{self.total}] {topo} {variant}"

    def running(self, index, topo, variant, elapsed_s):
        if not self.tty:
            return
        text = f"{self._prefix(index, topo, variant)}: running " \
               f"{_elapsed(elapsed_s)}"
        self.stream.write("\r" + text.ljust(self._width))
        self.stream.flush()
        self._width = len(text)

    def finished(self, index, entry):
        text = self.line(index, entry)
        if self.tty and self._width:
            text = "\r" + text.ljust(self._width)
            self._width = 0
        self.stream.write(text + "\n")
        self.stream.flush()

    def line(self, index, entry):
        head = self._prefix(index, entry["topology"], entry["variant"])
        if self.repeats > 1:
            head += f" #{entry.get('repeat')}"
        if entry.get("host"):
            head += f" on {label(entry['host'])}"
        parts = [entry["outcome"]]
        if entry["outcome"] != "ok" and entry.get("message"):
            parts[0] += f" ({entry['message']})"
        found, expected = entry.get("disks_found"), entry.get("disks_expected")
        if found is not None:
            parts.append(f"disks {found}/{expected}")
        boot = entry.get("boot") or {}
        if boot:
            parts.append(f"init {_seconds(boot.get('kernel_to_init_s'))}")
            parts.append(f"census {_seconds(boot.get('census_complete_s'))}")
        parts.append(f"{_elapsed(entry['wall_s'])} wall")
        if (entry.get("host_load") or {}).get("loaded"):
            parts.append("LOADED HOST")
        return f"{head}: " + ", ".join(parts)
