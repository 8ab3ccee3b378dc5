"""The page's sections, in order, shared by the HTML and Markdown output:
(id, title, plot id or None, table ids, one sentence on what it shows).
A section may also draw plots that depend on the run (one per boot curve
series): the analysis lists them in section_plots."""

SECTIONS = [
    ("runs", "Runs", None, ["runs", "census"],
     "Every topology and kernel variant of the run, how it ended, and the "
     "guest's census of its disks and their device numbers."),
    ("capacity", "Dynamic major capacity", "capacity", ["majors"],
     "How many block majors register_blkdev(0, ...) hands out before the "
     "kernel refuses, and how many of them devices.txt assigns to real "
     "drivers."),
    ("cost", "Register and lookup cost", "major_cost", ["major_cost"],
     "Time of one register_blkdev (in the kernel) and of an open() of a "
     "registered major (from user space) as more majors are registered."),
    ("procdevices", "/proc/devices generation", "procdevices",
     ["procdevices"],
     "Cost of reading /proc/devices in full as majors are registered."),
    ("boot", "Boot time against disk count", "boot_model",
     ["boot_fits", "boot_points"],
     "Guest time from kernel start until every disk is there, with the "
     "least-squares model chosen by residual error and its extrapolation."),
    ("bootcurve", "Boot curve", None,
     ["bootcurve_points", "bootcurve_growth", "bootcurve_ratios",
      "bootcurve_goals"],
     "Disks against boot-to-census time and per-disk cost for each series "
     "of the sweep, before and after on the same axes, and the sweep's "
     "goals judged from this run."),
    ("memory", "Memory per disk", "memory", ["memory", "memory_fits"],
     "Guest slab and RAM in use, and host QEMU resident memory, against "
     "the number of disks; the slope is what one more disk costs."),
    ("io", "fio and LVM", None, ["io"],
     "Whether the disks carried I/O (fio) and a striped LVM volume with "
     "verified data, and how long LVM took."),
    ("everydisk", "Every disk", None, ["everydisk", "lvm_phases"],
     "Disks identified by the census (serial, size, and the signature in "
     "sector 0 of file-backed disks) and written and verified by fio, over "
     "the disks expected, per kind and kernel, with the guest time of each "
     "step; lvm2's phase times against the number of physical volumes."),
    ("udev", "udev in the guest", None, ["udev"],
     "Debian's systemd-udevd in the guest (guest.udev): events handled, "
     "the time from the last disk's uevent until udev settled, udev's CPU "
     "per disk, each disk's latency from its uevent to udev's, the by-id "
     "and by-path links found against the disks, and udev's failures."),
    ("limits", "Limits hit", None, ["limits"],
     "What each kernel refused because of the number of devices (sg's and "
     "bsg's minor ranges, sd's names, a kernel log too small for the "
     "boot): how many devices lost it and the first of them, from the "
     "guest kernel's own log."),
    ("multipath", "Multipath", None, ["multipath"],
     "dm-multipath over LUNs seen on several paths (virtio_scsi[].paths): "
     "maps built against the LUNs, paths active, the time multipathd took "
     "to build every map, its memory and CPU; and where a path was "
     "removed under fio (plan.pathfail), the time multipath took to drop "
     "it and to take it back, and the maps fio verified through it."),
    ("blktests", "blktests", None, ["blktests_summary", "blktests"],
     "The block layer's own regression suite on each kernel: every test "
     "side by side, regressions (passed on the reference kernel, failed on "
     "another) and other differences first, then failures and tests not "
     "run, with their reasons."),
    ("profile", "Guest kernel profile", None, ["profile"],
     "Where the guest kernel spent its time in the runs that were "
     "profiled: the simulated clock's and console's shares and the "
     "busiest functions of each run."),
    ("plan", "Capacity planning", None, ["capacity_plan", "capacity_error"],
     "What 1000, 4000, 5000 and 10000 disks should cost according to the "
     "models above, with the models' error on the measured points."),
]


def plot_ids(a, sid, plot):
    """The plots a section shows: its fixed one, then the run's own."""
    return ([plot] if plot else []) + a.section_plots.get(sid, [])
