"""How many SCSI disks the libvirt backend attaches live, and attaching
them (libvirt/livedisks.py), without a daemon: fakes of libvirt's calls."""

import json
import threading
import xml.etree.ElementTree as ET

import pytest

from blkscale.libvirt import livedisks


def test_the_estimate_moves_the_fewest_last_disks():
    assert livedisks.late_by_estimate(100, [10] * 5, budget=150) == 0
    assert livedisks.late_by_estimate(100, [10] * 5, budget=149) == 1
    # The last disks go first: a long one late saves more.
    assert livedisks.late_by_estimate(100, [10, 10, 10, 10, 40],
                                      budget=150) == 1
    assert livedisks.late_by_estimate(100, [10] * 5, budget=100) == 5
    assert livedisks.late_by_estimate(101, [10] * 5, budget=100) is None


def _libvirt_like(per_disk, bare, disks):
    calls = []

    def size_of(n):
        calls.append(n)
        return bare + per_disk * (disks - n)
    return size_of, calls


def test_a_low_estimate_is_corrected_by_libvirt_s_own_size():
    """libvirt spells disks longer than estimated: more go late until its
    own command line fits."""
    size_of, calls = _libvirt_like(700, 5000, 1000)
    n, size = livedisks.late_count(size_of, 100, 1000, budget=400_000)
    assert size <= 400_000 and size == size_of(n)
    assert size_of(n - 9) > 400_000     # not many more than needed
    assert calls[0] == 100


def test_a_right_estimate_costs_one_question():
    size_of, calls = _libvirt_like(700, 5000, 1000)
    n, _ = livedisks.late_count(size_of, 500, 1000, budget=400_000)
    assert n == 500 and calls == [500]


def test_nothing_fits_when_the_bare_command_line_does_not():
    size_of, _ = _libvirt_like(700, 500_000, 1000)
    n, size = livedisks.late_count(size_of, 10, 1000, budget=400_000)
    assert n is None and size == 500_000


def test_an_xml_past_what_libvirt_s_rpc_carries_moves_disks_too():
    budget = livedisks.BUDGET
    assert livedisks.limited_size(1000, livedisks.XML_MAX) == budget
    assert livedisks.limited_size(1000, livedisks.XML_MAX + 1) > budget
    assert livedisks.limited_size(budget + 5, 10) == budget + 5


class FakeLibvirt:
    VIR_DOMAIN_AFFECT_LIVE = 1

    class libvirtError(Exception):
        def get_error_message(self):
            return str(self)


class FakeDomain:
    def __init__(self, refuse_at=None):
        self.attached, self.refuse_at = [], refuse_at

    def attachDeviceFlags(self, text, flags):
        assert flags == FakeLibvirt.VIR_DOMAIN_AFFECT_LIVE
        if len(self.attached) == self.refuse_at:
            raise FakeLibvirt.libvirtError("unit 3 already in use")
        self.attached.append(ET.fromstring(text).findtext("serial"))


def _late(native=3, monitor=2):
    late = livedisks.Late()
    for i in range(native):
        late.add_native(f"<disk><serial>n{i}</serial></disk>")
    for i in range(monitor):
        late.add_monitor([f"driver=null-co,node-name=m{i},read-zeroes=on,"
                          "size=512"],
                         {"driver": "scsi-hd", "drive": f"m{i}",
                          "scsi-id": i, "lun": 0})
    return late


def test_every_disk_is_attached_in_order_and_counted():
    sent = []

    def monitor(_dom, text, _flags):
        sent.append(json.loads(text))
        return json.dumps({"return": {}})
    dom, seen = FakeDomain(), []
    late = _late()
    done = livedisks.attach(FakeLibvirt, monitor, dom, late,
                            threading.Event(), seen.append)
    assert done == late.disks == 5 and seen[-1] == 5
    assert dom.attached == ["n0", "n1", "n2"]
    assert [c["execute"] for c in sent] == ["blockdev-add", "device_add"] * 2
    # blockdev-add is typed as QMP wants it.
    assert sent[0]["arguments"]["size"] == 512
    assert sent[0]["arguments"]["read-zeroes"] is True


def test_a_refused_disk_stops_attaching_and_says_which():
    def monitor(_dom, text, _flags):
        command = json.loads(text)
        if command["execute"] == "device_add":
            return json.dumps({"error": {"class": "GenericError",
                                         "desc": "LUN is already in use"}})
        return json.dumps({"return": {}})
    with pytest.raises(livedisks.AttachError, match="unit 3 already in use"):
        livedisks.attach(FakeLibvirt, monitor, FakeDomain(refuse_at=1),
                         _late(), threading.Event())
    with pytest.raises(livedisks.AttachError,
                       match="QEMU refused device_add .*LUN is already"):
        livedisks.attach(FakeLibvirt, monitor, FakeDomain(), _late(),
                         threading.Event())


def test_a_cancelled_run_attaches_nothing_more():
    cancel = threading.Event()
    cancel.set()
    dom = FakeDomain()
    assert livedisks.attach(FakeLibvirt, None, dom, _late(), cancel) == 0
    assert dom.attached == []


def test_what_is_shown_keeps_the_document_valid_xml():
    late = livedisks.Late()
    late.add_native('<disk><source file="/tmp/a--b.img"/></disk>')
    late.add_monitor(["driver=null-co,node-name=x,size=512"],
                     {"driver": "scsi-hd", "drive": "x"})
    text = "<domain/>\n" + late.shown()
    ET.fromstring(text)         # comments only after the root element
    assert "2 SCSI disks (1 with virDomainAttachDeviceFlags, 1 through " \
        "QEMU's monitor)" in text
    assert livedisks.Late().shown() == ""
