"""The hang report's virtqueue reading: what each state of a ring is
called, from QEMU's count and the guest's memory."""

import pytest

from blkscale.qemu import virtqueues


def _q(used, signalled, last_avail, inuse=0, valid=True):
    return {"used-idx": used, "signalled-used": signalled,
            "signalled-used-valid": valid, "last-avail-idx": last_avail,
            "inuse": inuse, "vring-num": 256, "vring-avail": 0x1000,
            "vring-used": 0x2000}


def test_the_one_vcpu_hang_is_a_lost_notification():
    # evidence/20261205-one-vcpu-hang: controller 3's request
    # queue, everything answered, the guest's used_event 93 behind
    said = virtqueues.judge(_q(3954, 3954, 3954), True,
                            {"avail_idx": 3954, "used_idx": 3954,
                             "used_event": 3861})
    assert said.startswith("93 completions past the guest's used_event 3861")
    assert "lost notification" in said


def test_a_guest_that_saw_everything_is_not_in_trouble():
    assert virtqueues.judge(_q(4608, 4608, 4608), True,
                            {"avail_idx": 4608, "used_idx": 4608,
                             "used_event": 4608}) is None


def test_indices_wrap():
    # used idx wrapped past 65535: 3 completions past used_event 65534
    said = virtqueues.judge(_q(1, 1, 1), True,
                            {"avail_idx": 1, "used_idx": 1,
                             "used_event": 65534})
    assert said.startswith("3 completions")
    # the guest asked for an event ahead of the used index: fine
    assert virtqueues.judge(_q(65535, 65535, 65535), True,
                            {"avail_idx": 65535, "used_idx": 65535,
                             "used_event": 65535}) is None


def test_an_interrupt_qemu_still_owes_is_not_a_lost_one():
    # QEMU has not signalled up to its used index: its next notify will
    assert virtqueues.judge(_q(10, 8, 10), True,
                            {"avail_idx": 10, "used_idx": 10,
                             "used_event": 8}) is None
    # without event index the guest's used_event means nothing
    assert virtqueues.judge(_q(10, 10, 10), False,
                            {"avail_idx": 10, "used_idx": 10,
                             "used_event": 2}) is None


def test_a_lost_kick_and_a_stalled_backend():
    said = virtqueues.judge(_q(116, 116, 116), True,
                            {"avail_idx": 120, "used_idx": 116,
                             "used_event": 116})
    assert said == ("4 requests the guest made available that QEMU has not "
                    "taken (avail idx 120, QEMU's last 116): a lost kick")
    said = virtqueues.judge(_q(116, 116, 120, inuse=4), True,
                            {"avail_idx": 120, "used_idx": 116,
                             "used_event": 116})
    assert said == "4 requests QEMU took and has not answered"


class FakeQemu:
    """Two devices: a healthy virtio-blk and a virtio-scsi whose request
    queue lost a notification, whose control queue was never set up and
    whose event queue holds buffers QEMU has not taken (as it should); a
    virtio-serial whose receive queue does the same is not judged."""

    def __init__(self):
        self.mem = {0x1002: 50, 0x1000 + 4 + 2 * 256: 50, 0x2002: 50,
                    0x3002: 9, 0x3000 + 4 + 2 * 256: 5, 0x4002: 9}
        self.queues = {
            "/blk": [dict(_q(50, 50, 50))],
            "/scsi": [dict(_q(0, 0, 0), **{"vring-avail": 0}),
                      dict(_q(0, 0, 0), **{"vring-avail": 0x5000,
                                           "vring-used": 0x6000}),
                      dict(_q(9, 9, 9), **{"vring-avail": 0x3000,
                                           "vring-used": 0x4000})],
            "/serial": [dict(_q(0, 0, 0), **{"vring-avail": 0x5000,
                                             "vring-used": 0x6000})]}
        # event and receive buffers: 8 made available, none taken
        self.mem.update({0x5002: 8, 0x5000 + 4 + 2 * 256: 0, 0x6002: 0})

    def qmp(self, name, **args):
        if name == "x-query-virtio":
            return [{"name": "virtio-blk", "path": "/blk"},
                    {"name": "virtio-scsi", "path": "/scsi"},
                    {"name": "virtio-serial", "path": "/serial"}]
        if name == "x-query-virtio-status":
            return {"num-vqs": len(self.queues[args["path"]]),
                    "guest-features": {"transports": [
                        "VIRTIO_RING_F_EVENT_IDX: Used & avail. event "
                        "fields enabled"]}}
        return self.queues[args["path"]][args["queue"]]

    def hmp(self, text):
        address = int(text.split()[-1], 16)
        return f"{address:016x}: {self.mem[address]:#06x}\r\n"


def test_snapshot_names_the_queue_in_trouble_and_counts_the_rest():
    fake = FakeQemu()
    lines = virtqueues.snapshot(fake.qmp, fake.hmp)
    assert lines == [
        "virtio virtio-scsi /scsi queue 2: 4 completions past the guest's "
        "used_event 5 (used idx 9, QEMU signalled at 9): no interrupt will "
        "come (a lost notification)",
        "virtio: 2 request queues of 2 disk controllers read, 1 in trouble"]


def test_snapshot_stops_at_its_budget():
    fake = FakeQemu()
    lines = virtqueues.snapshot(fake.qmp, fake.hmp, budget_s=-1)
    assert lines == ["virtio: 0 request queues of 0 disk controllers read, "
                     "0 in trouble (stopped after 0 of 2 devices: -1 s)"]


def test_unreadable_guest_memory_is_an_error_not_a_verdict():
    with pytest.raises(ValueError, match="0x1002"):
        virtqueues.read_u16(lambda text: "Cannot access memory\r\n", 0x1002)
