"""What the launcher reads on the guest console (ttyS0).

Only liveness and progress: disks attached so far, the kernel reaching
init, a panic.  Results never come from the console.  The disk lines are
the 6.1 printk formats:

  drivers/scsi/sd.c         sd 0:0:1:2: [sdb] Attached SCSI disk
                            (also "Attached SCSI removable disk")
  drivers/block/virtio_blk.c  virtio_blk virtio3: [vda] 2048 512-byte
                            logical blocks (1.05 MB/1.00 MiB)
                            (a later resize prints "new size: ")
  drivers/block/null_blk    null_blk: disk nullb0 created

With the quiet console (loglevel=5) the kernel prints none of these; the
guest's own "blkscale: settle: N/M disks" lines, once a second while
/init waits for the disks, count them instead.  Before /init, a SCSI
disk's first command still prints a warning the quiet console keeps,

  drivers/scsi/scsi_lib.c   sd 0:0:1:2: Power-on or device reset occurred

(the unit attention QEMU's and scsi_debug's LUNs report once): counted
once per address, it shows the SCSI probe's progress while nothing else
does.
"""

import re
from collections import deque

PANIC = "Kernel panic - not syncing"
_SCSI = re.compile(rb"\] Attached SCSI (?:removable )?disk\s*$")
_VIRTIO = re.compile(rb"virtio_blk virtio\d+: \[vd[a-z]+\] \d+ \d+-byte "
                     rb"logical blocks")
_NULLB = re.compile(rb"null_blk: disk nullb\d+ created")
_RESET = re.compile(rb"sd (\d+:\d+:\d+:\d+): Power-on or device reset occurred")
_SETTLE = re.compile(rb"blkscale: settle: (\d+)/\d+ disks")
_INIT = re.compile(rb"Run \S+ as init process")
_BLKSCALE = re.compile(rb"blkscale: ([a-z_-]+):")
# The kernel's answer to the launcher's NMI (session/backtrace.py):
# arch/x86/kernel/nmi.c's line for an NMI no handler claims, then the
# panic's dump of the CPU that took it ("CPU: 0 PID: 57 Comm: udevd ..."),
# whose registers begin with where it was ("RIP: 0010:func+0x1a/0x40").
_NMI = re.compile(rb"NMI received for unknown reason")
_NMI_TASK = re.compile(rb"CPU: (\d+) (?:UID: \d+ )?PID: (\d+) Comm: (\S+)")
_NMI_RIP = re.compile(rb"RIP: [0-9a-f]{4}:(\S+)")
# A long step's own progress: "blkscale: fio: batch 3 of 20 at 61.2 s".
_DETAIL = re.compile(rb"blkscale: ([a-z_-]+): (.+?)(?: at [0-9.]+ s)?\s*$")


# A panic's tail: the lines that led to it and the panic line, then a
# few after it.  After the panic line the kernel may print every other
# CPU's stack (panic_print=0x40), which would push the cause out of a
# plain tail; the console log keeps everything.
PANIC_BEFORE = 25
PANIC_AFTER = 5


class ConsoleWatcher:
    """Fed console bytes; keeps counts, the panic state and a tail."""

    def __init__(self, tail_lines=40):
        self.scsi = 0
        self.scsi_reset = set()     # addresses of SCSI disks that said UA
        self.virtio = 0
        self.nullb = 0
        self.settled = 0            # the guest's own count, while it waits
        self.reached_init = False
        self.panic = None           # the panic line, once seen
        self.last_phase = None      # from "blkscale: <phase>:" lines
        self.detail = None          # (step, its last progress text)
        self.nmi_seen = False       # the kernel said it took an NMI
        self.nmi_where = None       # "CPU 0 (udevd) in func+0x1a/0x40"
        self._nmi_task = None
        self._tail = deque(maxlen=tail_lines)
        self._panic_tail = None     # PANIC_BEFORE lines, then PANIC_AFTER
        self._partial = b""

    @property
    def disks(self):
        scsi = max(self.scsi, len(self.scsi_reset))
        return max(scsi + self.virtio + self.nullb, self.settled)

    def feed(self, data):
        data = self._partial + data
        lines = data.split(b"\n")
        self._partial = lines.pop()
        for line in lines:
            self._line(line.rstrip(b"\r"))

    def _line(self, line):
        text = line.decode("utf-8", "replace")
        self._tail.append(text)
        if self._panic_tail is not None and \
                len(self._panic_tail) < self._panic_end:
            self._panic_tail.append(text)
        if _SCSI.search(line):
            self.scsi += 1
        elif _VIRTIO.search(line) and b"new size:" not in line:
            self.virtio += 1
        elif _NULLB.search(line):
            self.nullb += 1
        elif (r := _RESET.search(line)):
            self.scsi_reset.add(r.group(1))
        elif _INIT.search(line):
            self.reached_init = True
        elif PANIC.encode() in line and self.panic is None:
            self.panic = text.strip()
            self._panic_tail = list(self._tail)[-PANIC_BEFORE:]
            self._panic_end = len(self._panic_tail) + PANIC_AFTER
        self._nmi_line(line)
        s = _SETTLE.search(line)
        if s:
            self.settled = int(s.group(1))
        m = _BLKSCALE.search(line)
        if m:
            self.last_phase = m.group(1).decode()
            d = _DETAIL.search(line)
            if d and d.group(1) != b"step":
                self.detail = (d.group(1).decode(),
                               d.group(2).decode("utf-8", "replace"))

    def _nmi_line(self, line):
        """After an NMI: the first CPU that dumped its state, and where it
        was (the first register dump after its task line)."""
        if not self.nmi_seen:
            # one substring test a line until the kernel says it took one
            if b"NMI" in line and _NMI.search(line):
                self.nmi_seen = True
            return
        if self.nmi_where is not None:
            return
        task = _NMI_TASK.search(line)
        if task and self._nmi_task is None:
            self._nmi_task = (task.group(1).decode(),
                              task.group(3).decode("utf-8", "replace"))
        rip = _NMI_RIP.search(line)
        if rip and self._nmi_task is not None:
            cpu, comm = self._nmi_task
            self.nmi_where = (f"CPU {cpu} ({comm}) in "
                              f"{rip.group(1).decode('utf-8', 'replace')}")

    def detail_of(self, step):
        """The last progress text the guest printed for `step`, or None."""
        if self.detail and self.detail[0] == step:
            return self.detail[1]
        return None

    def tail(self):
        """The last console lines, including an unterminated one; after a
        panic, the lines around the panic line."""
        if self._panic_tail is not None:
            lines = list(self._panic_tail)
            if self._partial and len(lines) < self._panic_end:
                lines.append(self._partial.decode("utf-8", "replace"))
            return "\n".join(lines)
        lines = list(self._tail)
        if self._partial:
            lines.append(self._partial.decode("utf-8", "replace"))
        return "\n".join(lines[-self._tail.maxlen:])


class Consoles:
    """The kernel's console and, when that is the virtio console, the 8250
    that prints as the boot console until it registers (the kernel then
    drops the boot console and the virtio console goes on from there:
    what the two printed follows one another, nothing is printed twice).
    A panic on either counts."""

    def __init__(self, tail_lines=40):
        self.main = ConsoleWatcher(tail_lines)
        self.boot = ConsoleWatcher(tail_lines)
        self.feed = self.main.feed
        self.feed_boot = self.boot.feed
        self._tail_lines = tail_lines

    @property
    def disks(self):
        return self.main.disks + self.boot.disks

    @property
    def reached_init(self):
        return self.main.reached_init or self.boot.reached_init

    @property
    def panic(self):
        return self.boot.panic or self.main.panic

    @property
    def nmi_seen(self):
        return self.main.nmi_seen or self.boot.nmi_seen

    @property
    def nmi_where(self):
        return self.main.nmi_where or self.boot.nmi_where

    def detail_of(self, step):
        return self.main.detail_of(step)

    def tail(self):
        """The last lines of both, the boot console's first."""
        lines = [t for t in (self.boot.tail(), self.main.tail()) if t]
        most = max(self._tail_lines, PANIC_BEFORE + PANIC_AFTER)
        return "\n".join("\n".join(lines).splitlines()[-most:])
