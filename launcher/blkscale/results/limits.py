"""Limits a kernel hit because of the number of devices, read from its
log (dmesg.log, which the guest sends after its last step).

Each refusal the kernel prints when an index or a minor range runs out:
sg's SG_MAX_DEVS and bsg's BSG_MAX_DEVS (32,768 each on 6.1, raised in
2023), sd's disk index and names; and a ring buffer too small to hold
the boot, which hides every other line.  Per limit: the subsystem, how
many devices it refused, the first of them, the limit the kernel named
and its words.  A run that hits one fails unless the topology expects
it (guest.limits_expected).

Some refusals cost the disk itself, and the log shows only the first
of what was lost: on 6.1, scsi_sysfs_add_sdev() returns bsg's error,
the scan of that target stops there, and the LUNs behind it never
appear (65,536 LUNs on a kernel with bsg: 128 refusals logged, 32,768
disks missing).  The census's count of missing disks is put on the
first such refusal (attribute()).
"""

import re

# Where a SCSI device's line names it: "sd 2:0:0:7: ..." or
# "scsi 2:0:0:7: ...".
_SDEV = r"(?:\S+ )?(\d+:\d+:\d+:\d+): "
# (subsystem, pattern, whether group 2 is the kernel's last index):
# group 1 is the device.
PATTERNS = (
    ("sg", re.compile(_SDEV + r"Unable to attach sg device type=\d+, "
                      r"minor number exceeds (\d+)"), True),
    ("bsg", re.compile(_SDEV + r"bsg: too many bsg devices"), False),
    # The same refusal as scsi_sysfs reports it (ENOSPC from bsg, or
    # what else bsg's registration returned): group 2 is an errno.
    ("bsg", re.compile(_SDEV + r"Failed to register bsg queue, "
                       r"errno=(-?\d+)"), False),
    ("sd", re.compile(_SDEV + r"sd_probe: memory exhausted"), False),
    ("sd", re.compile(_SDEV + r"SCSI disk \(sd\) name length exceeded"),
     False),
)
SUBSYSTEMS = ("sg", "bsg", "sd", "kernel-log")
# The refusals after which the device is not there: bsg's (above) and
# sd's (no disk without a name).  sg's leaves the disk: the driver core
# ignores what a class interface's add_dev returns.
LOSES_DEVICE = ("bsg", "sd")
_STAMP = re.compile(r"^\[\s*(\d+\.\d+)\]\s?(.*)$")


def _lines(text):
    for raw in text.splitlines():
        m = _STAMP.match(raw)
        yield (float(m.group(1)), m.group(2)) if m else (None, raw)


def of(dmesg):
    """The limits hit, in the order the log first shows them; None
    without a log."""
    if dmesg is None:
        return None
    if isinstance(dmesg, bytes):
        dmesg = dmesg.decode("utf-8", "replace")
    found = {}
    first_stamp = None
    for stamp, line in _lines(dmesg):
        if first_stamp is None and stamp is not None:
            first_stamp = stamp
        for subsystem, pattern, names_limit in PATTERNS:
            m = pattern.search(line)
            if not m:
                continue
            hit = found.setdefault(subsystem, {
                "subsystem": subsystem, "devices": set(), "first": m.group(1),
                "first_s": stamp, "limit": None, "message": line.strip()})
            hit["devices"].add(m.group(1))
            if names_limit and hit["limit"] is None:
                hit["limit"] = int(m.group(2)) + 1
            break
    out = [dict(h, devices=len(h["devices"])) for h in found.values()]
    # The ring buffer wrapped: its first line is not the kernel's first.
    if first_stamp is not None and first_stamp > 0.0:
        out.insert(0, {"subsystem": "kernel-log", "devices": None,
                       "first": None, "first_s": first_stamp, "limit": None,
                       "message": "the ring buffer (log_buf_len) kept the "
                                  f"log from {first_stamp:.3f} s only: "
                                  "earlier lines, and any limit they "
                                  "showed, are lost"})
    return out


def attribute(hits, expected_total, found_total):
    """Put the disks the census did not find on the first refusal that
    loses its device (disks_missing); the hits, changed in place."""
    missing = (expected_total or 0) - (found_total or 0)
    losing = [h for h in hits or () if h["subsystem"] in LOSES_DEVICE]
    if missing > 0 and losing:
        first = min(losing, key=lambda h: (h["first_s"] is None,
                                           h["first_s"] or 0.0))
        first["disks_missing"] = missing
        first["disks_expected"] = expected_total
    return hits


def unexpected(hits, expected):
    """The hits the topology does not expect."""
    return [h for h in hits or () if h["subsystem"] not in expected]


def expected_lost(hits, expected):
    """The hits the topology expects that lost disks (attribute())."""
    return [h for h in hits or () if h["subsystem"] in expected
            and h.get("disks_missing")]


def summary(hits):
    """One line: 'sg refused 32768 devices from 2:0:0:0, ...'."""
    parts = []
    for h in hits:
        if h["subsystem"] == "kernel-log":
            parts.append(f"kernel log from {h['first_s']:.3f} s only")
        else:
            text = (f"{h['subsystem']} refused {h['devices']} "
                    f"device{'s' if h['devices'] != 1 else ''} from "
                    f"{h['first']}")
            if h.get("disks_missing"):
                text += (f" ({h['disks_missing']} of "
                         f"{h['disks_expected']} disks missing)")
            parts.append(text)
    return "; ".join(parts)
