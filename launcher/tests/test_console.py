"""Console lines as guest 6.1 prints them: disk counts, init, panic."""

from blkscale.guestlink.console import (PANIC_AFTER, PANIC_BEFORE,
                                        ConsoleWatcher)

# Taken from the console of a real ci-small boot (stock 6.1.192).
BOOT = b"""\
[    2.198835] virtio_blk virtio2: 2/0/0 default/read/poll queues\r
[    2.204422] virtio_blk virtio2: [vda] 131072 512-byte logical blocks (67.1 MB/64.0 MiB)\r
[    2.221435] virtio_blk virtio3: [vdb] 131072 512-byte logical blocks (67.1 MB/64.0 MiB)\r
[    2.301000] virtio_blk virtio40: [vdaf] 131072 512-byte logical blocks (67.1 MB/64.0 MiB)\r
[    2.340000] sd 0:0:1:0: [sdc] 65536 512-byte logical blocks: (33.6 MB/32.0 MiB)\r
[    2.354886] sd 0:0:1:0: [sdc] Attached SCSI disk\r
[    2.355513] sd 0:0:0:1: [sdb] Attached SCSI disk\r
[    2.356000] sd 2:0:0:0: [sdaaa] Attached SCSI removable disk\r
[    2.360000] null_blk: disk nullb0 created\r
[    2.360001] null_blk: module loaded\r
[    2.400000] Run /init as init process\r
blkscale: settle: 8/8 disks at 2.61 s\r
"""


def test_counts_disks_by_kind():
    w = ConsoleWatcher()
    w.feed(BOOT)
    assert (w.virtio, w.scsi, w.nullb) == (3, 3, 1)
    # the guest's own count of /sys/block, once it says, is the larger
    assert w.settled == 8 and w.disks == 8
    assert w.reached_init
    assert w.last_phase == "settle"
    assert w.panic is None


def test_lines_split_across_reads():
    w = ConsoleWatcher()
    for i in range(0, len(BOOT), 7):
        w.feed(BOOT[i:i + 7])
    assert (w.virtio, w.scsi, w.nullb, w.settled) == (3, 3, 1, 8)


def test_resize_is_not_a_new_disk():
    w = ConsoleWatcher()
    w.feed(b"[ 9.0] virtio_blk virtio2: [vda] new size: 262144 512-byte "
           b"logical blocks (134 MB/128 MiB)\n")
    assert w.virtio == 0


def test_panic_and_tail():
    w = ConsoleWatcher(tail_lines=3)
    w.feed(b"[ 1.0] a\n[ 1.1] b\n[ 1.2] Kernel panic - not syncing: VFS: "
           b"Unable to mount root fs\n[ 1.3] no newline yet")
    assert w.panic == ("[ 1.2] Kernel panic - not syncing: VFS: Unable to "
                       "mount root fs")
    # the tail's lines up to the panic line, then what follows it
    assert w.tail().splitlines() == [
        "[ 1.0] a", "[ 1.1] b", "[ 1.2] Kernel panic - not syncing: VFS: "
        "Unable to mount root fs", "[ 1.3] no newline yet"]


def test_a_panic_tail_keeps_its_cause():
    """After the panic line the kernel prints every other CPU's stack
    (panic_print=0x40): the tail keeps what led to the panic and only the
    first lines after it."""
    w = ConsoleWatcher(tail_lines=40)
    w.feed(b"".join(b"[ 1.%d] before %d\n" % (i, i) for i in range(30)))
    w.feed(b"[ 2.0] sysrq: Trigger a crash\n"
           b"[ 2.1] Kernel panic - not syncing: sysrq triggered crash\n")
    w.feed(b"".join(b"[ 3.%d] other CPU %d\n" % (i, i) for i in range(60)))
    lines = w.tail().splitlines()
    assert len(lines) == PANIC_BEFORE + PANIC_AFTER
    panic = lines.index("[ 2.1] Kernel panic - not syncing: sysrq "
                        "triggered crash")
    assert panic == PANIC_BEFORE - 1
    assert lines[panic - 1] == "[ 2.0] sysrq: Trigger a crash"
    assert lines[-1] == "[ 3.%d] other CPU %d" % (PANIC_AFTER - 1,
                                                   PANIC_AFTER - 1)


def test_the_kernels_answer_to_an_nmi():
    """Where the first CPU that dumped its state after an NMI was: its
    task line (6.1's, and 6.12's with UID) and its first registers."""
    for task in (b"CPU: 0 PID: 83 Comm: dd Not tainted 6.1.192 #3",
                 b"CPU: 0 UID: 0 PID: 83 Comm: dd Not tainted 6.12.1 #1"):
        w = ConsoleWatcher()
        w.feed(b"[ 8.1] RIP: 0010:before_the_nmi+0x1/0x2\n"
               b"[ 8.2] Uhhuh. NMI received for unknown reason 21 on CPU 0.\n"
               b"[ 8.3] Kernel panic - not syncing: NMI: Not continuing\n"
               b"[ 8.4] NMI backtrace for cpu 0\n[ 8.5] " + task + b"\n"
               b"[ 8.6] RIP: 0010:clear_user_rep_good+0xe/0x30\n"
               b"[ 8.7] CPU: 1 PID: 0 Comm: swapper/1\n"
               b"[ 8.8] RIP: 0010:default_idle+0x1/0x2\n")
        assert w.nmi_seen
        assert w.nmi_where == "CPU 0 (dd) in clear_user_rep_good+0xe/0x30"
    quiet = ConsoleWatcher()
    quiet.feed(b"[ 1.0] CPU: 0 PID: 1 Comm: sh\n[ 1.1] RIP: 0010:f+0x1/0x2\n")
    assert (quiet.nmi_seen, quiet.nmi_where) == (False, None)


def test_a_long_step_says_how_far_it_is():
    w = ConsoleWatcher()
    w.feed(b"blkscale: step: fio\r\n"
           b"blkscale: fio: batch 3 of 20 at 61.25 s\r\n")
    assert w.last_phase == "fio"
    assert w.detail_of("fio") == "batch 3 of 20"
    assert w.detail_of("lvm") is None
    w.feed(b"blkscale: lvm: pvcreate of 1024 PVs at 148.50 s\n")
    assert w.detail_of("lvm") == "pvcreate of 1024 PVs"
    assert w.detail_of("fio") is None


def test_quiet_console_counts_from_the_guests_lines():
    """With loglevel=5 no disk line is printed: /init's settle lines say
    how many disks there are so far."""
    w = ConsoleWatcher()
    w.feed(b"blkscale: init: kernel 6.1.192-patched (patched) at 1.10 s\n")
    assert w.disks == 0
    w.feed(b"blkscale: settle: 1234/4096 disks\n")
    assert w.disks == 1234
    w.feed(b"blkscale: settle: 4096/4096 disks at 9.61 s\n")
    assert w.disks == 4096 and w.detail_of("settle") == "4096/4096 disks"


def test_quiet_console_counts_scsi_disks_by_their_unit_attention():
    """Before /init the quiet console shows a SCSI disk only by the
    power-on warning of its first command: one per address, however
    often it repeats; "Attached" lines, where printed, count alone."""
    w = ConsoleWatcher()
    w.feed(b"[   44.391525] sd 39:0:9:2: Power-on or device reset occurred\r\n"
           b"[   44.392197] sd 39:0:9:1: Power-on or device reset occurred\r\n"
           b"[   45.000000] sd 39:0:9:1: Power-on or device reset occurred\r\n")
    assert w.disks == 2
    w.feed(b"[   46.0] sd 0:0:1:0: [sdc] Attached SCSI disk\r\n")
    assert w.disks == 2
    w.feed(b"blkscale: settle: 9000/10000 disks\n")
    assert w.disks == 9000
