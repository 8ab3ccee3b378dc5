"""The virtqueues of a guest about to be stopped as hung, read from both
sides: QEMU's own count (x-query-virtio-queue-status) and the guest's
rings in its memory (HMP xp).  A guest whose every vCPU is halted waits
for an interrupt; this says whether a device owes it one:

- completions past the guest's used_event with QEMU's signalled index
  already at its used index: the guest asked to hear of them, QEMU
  decided no interrupt was due (a lost notification: the one-vCPU TCG
  race, evidence/20261205-one-vcpu-hang);
- requests the guest made available that QEMU has not taken (a lost
  kick);
- requests QEMU took and has not answered (a backend that stalled).

Only the disks' request queues are judged (every virtio-blk queue,
virtio-scsi's control and request queues), where the guest keeps
callbacks on while it waits: a receive or event queue holds buffers QEMU
has no reason to take, and a transmit queue's completions are reclaimed
without an interrupt (the guest turns it off), so neither state means
anything there.  Only queues in trouble are named; the rest are counted.
"""

import re
import time

# The split ring's layout (virtio 1.x, 2.7): avail = flags, idx,
# ring[num], used_event; used = flags, idx, ring[num] of 8 bytes.
AVAIL_IDX = 2
USED_IDX = 2
EVENT_IDX_FEATURE = "VIRTIO_RING_F_EVENT_IDX"
# Reading every queue of a large topology takes a few commands each: a
# hang report must not wait minutes for it.
BUDGET_S = 20.0

# Which queues of a device carry requests the guest waits on: virtio-scsi's
# queue 1 is its event queue (virtio 1.x, 5.6.2).
REQUEST_QUEUES = {"virtio-blk": lambda n: True,
                  "virtio-scsi": lambda n: n != 1}

_XP = re.compile(r":\s*0x([0-9a-fA-F]+)")


def _u16_after(a, b):
    """How far index a is past b, modulo 2^16 (ring indices wrap)."""
    return (a - b) & 0xFFFF


def read_u16(hmp, address):
    """A little-endian 16-bit word of guest physical memory."""
    m = _XP.search(hmp(f"xp /1hx {address:#x}"))
    if m is None:
        raise ValueError(f"guest memory at {address:#x} could not be read")
    return int(m.group(1), 16)


def judge(q, event_idx, guest):
    """What is wrong with one queue, or None.  q: QEMU's queue status;
    guest: {"avail_idx", "used_idx", "used_event"} read from the rings."""
    used = q["used-idx"]
    found = []
    if event_idx and q.get("signalled-used-valid") and \
            q["signalled-used"] == used:
        past = _u16_after(used, guest["used_event"])
        if 0 < past < 0x8000:
            found.append(
                f"{past} completions past the guest's used_event "
                f"{guest['used_event']} (used idx {used}, QEMU signalled "
                f"at {q['signalled-used']}): no interrupt will come "
                "(a lost notification)")
    unseen = _u16_after(guest["avail_idx"], q["last-avail-idx"])
    if 0 < unseen < 0x8000:
        found.append(f"{unseen} requests the guest made available that "
                     f"QEMU has not taken (avail idx {guest['avail_idx']}, "
                     f"QEMU's last {q['last-avail-idx']}): a lost kick")
    if q["inuse"]:
        found.append(f"{q['inuse']} requests QEMU took and has not "
                     "answered")
    if guest["used_idx"] != used:
        found.append(f"the used idx in guest memory is {guest['used_idx']}, "
                     f"QEMU's {used}")
    return "; ".join(found) or None


def snapshot(qmp, hmp, budget_s=BUDGET_S):
    """Lines naming the queues in trouble, and one counting the rest.
    qmp(name, **arguments) -> the command's return; hmp(text) -> its
    output."""
    end = time.monotonic() + budget_s
    devices = [d for d in qmp("x-query-virtio")
               if d["name"] in REQUEST_QUEUES]
    lines = []
    checked = 0
    read = len(devices)
    for i, dev in enumerate(devices):
        if time.monotonic() > end:
            read = i
            break
        path = dev["path"]
        status = qmp("x-query-virtio-status", path=path)
        event_idx = EVENT_IDX_FEATURE in " ".join(
            status.get("guest-features", {}).get("transports", []))
        for n in range(status.get("num-vqs", 0)):
            if not REQUEST_QUEUES[dev["name"]](n):
                continue
            q = qmp("x-query-virtio-queue-status", path=path, queue=n)
            if not q.get("vring-avail"):
                continue        # not set up by the guest
            checked += 1
            num = q["vring-num"]
            guest = {
                "avail_idx": read_u16(hmp, q["vring-avail"] + AVAIL_IDX),
                "used_event": read_u16(hmp, q["vring-avail"] + 4 + 2 * num),
                "used_idx": read_u16(hmp, q["vring-used"] + USED_IDX),
            }
            trouble = judge(q, event_idx, guest)
            if trouble:
                lines.append(f"virtio {dev['name']} {path} queue {n}: "
                             f"{trouble}")
    whole = "" if read == len(devices) else \
        f" (stopped after {read} of {len(devices)} devices: {budget_s:.0f} s)"
    lines.append(f"virtio: {checked} request queues of {read} disk "
                 f"controllers read, "
                 f"{len(lines)} in trouble{whole}")
    return lines
