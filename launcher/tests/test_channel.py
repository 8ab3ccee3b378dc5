"""The results-stream parser: good streams parse, broken ones are refused."""

import json

import pytest

from blkscale.guestlink.channel import ChannelError, ResultsParser, parse


def section(name, value, count=None):
    text = json.dumps(value, indent=1) + "\n"
    n = len(text.encode()) if count is None else count
    return f"BLKSCALE-SECTION {name}\n{text}BLKSCALE-END {name} {n}\n"


GOOD = ("BLKSCALE-HELLO 1 6.1.192-stock 2.58\n"
        "BLKSCALE-PHASE settle 2.60\n"
        + section("guest", {"release": "6.1.192-stock", "note": "ünïcode"})
        + section("disks", {"disks": [{"name": "vda", "major": 254}]})
        + "BLKSCALE-PHASE census 2.78\n"
        + section("census", {"ok": True})
        + "BLKSCALE-STEP census ok 2.78 2.80\n"
        + section("majors", [1, 2, 3])
        + "BLKSCALE-STEP majors failed 2.80 3.10 exit 1: capacity 234\n"
        + "BLKSCALE-DONE failed 3.20\n").encode()


def test_good_stream():
    r = parse(GOOD)
    assert (r.protocol, r.release, r.init_uptime_s) == (1, "6.1.192-stock",
                                                        2.58)
    assert r.sections["guest"]["note"] == "ünïcode"
    assert r.sections["disks"]["disks"][0]["name"] == "vda"
    assert r.sections["majors"] == [1, 2, 3]
    assert [p[0] for p in r.phases] == ["settle", "census"]
    assert r.steps[0] == {"name": "census", "verdict": "ok", "start_s": 2.78,
                          "end_s": 2.8, "message": ""}
    assert r.steps[1]["message"] == "exit 1: capacity 234"
    assert (r.done, r.done_uptime_s) == ("failed", 3.2)


def test_fed_one_byte_at_a_time():
    parser = ResultsParser()
    for i in range(len(GOOD)):
        parser.feed(GOOD[i:i + 1])
    assert parser.finish() == parse(GOOD)


def test_phase_follows_the_stream():
    parser = ResultsParser()
    assert parser.phase is None
    parser.feed(b"BLKSCALE-HELLO 1 r 1.0\n")
    assert parser.phase == "init"
    parser.feed(b"BLKSCALE-PHASE census 1.5\n")
    assert parser.phase == "census"
    parser.feed(b"BLKSCALE-DONE ok 2.0\n")
    assert parser.phase == "done" and parser.complete


def broken(data, match):
    with pytest.raises(ChannelError, match=match):
        parse(data if isinstance(data, bytes) else data.encode())


def test_truncated_inside_a_section():
    cut = GOOD.index(b"BLKSCALE-END census")
    broken(GOOD[:cut], "ends inside section census")


def test_truncated_inside_a_line():
    broken(GOOD[:-5], "ends inside a line")


def test_byte_count_too_small():
    stream = ("BLKSCALE-HELLO 1 r 1.0\n" + section("census", {"a": 1}, 3)
              + "BLKSCALE-DONE ok 2.0\n")
    broken(stream, r"section census: \d+ bytes received, 3 announced")


def test_byte_count_too_large():
    stream = ("BLKSCALE-HELLO 1 r 1.0\n" + section("census", {"a": 1}, 999)
              + "BLKSCALE-DONE ok 2.0\n")
    broken(stream, "999 announced")


def test_invalid_json_with_right_count():
    text = "{not json}\n"
    stream = (f"BLKSCALE-HELLO 1 r 1.0\nBLKSCALE-SECTION census\n{text}"
              f"BLKSCALE-END census {len(text)}\nBLKSCALE-DONE ok 2.0\n")
    broken(stream, "section census: invalid JSON")


def test_garbage_line():
    broken(b"BLKSCALE-HELLO 1 r 1.0\n\x00\x01 garbage\n", "not a record")


def test_binary_garbage():
    broken(b"BLKSCALE-HELLO 1 r 1.0\n\xff\xfe\n", "not UTF-8")


def test_missing_done():
    cut = GOOD.index(b"BLKSCALE-DONE")
    broken(GOOD[:cut], "no BLKSCALE-DONE")


def test_empty_stream():
    broken(b"", "no BLKSCALE-HELLO")


def test_record_before_hello():
    broken(b"BLKSCALE-PHASE census 1.0\n", "first record must be")


def test_wrong_protocol_version():
    broken(b"BLKSCALE-HELLO 2 r 1.0\n", "protocol 2, expected 1")


def test_data_after_done():
    broken(GOOD + b"BLKSCALE-PHASE late 9.0\n", "data after BLKSCALE-DONE")


def test_end_closes_another_section():
    stream = ("BLKSCALE-HELLO 1 r 1.0\nBLKSCALE-SECTION a\n{}\n"
              "BLKSCALE-END b 3\n")
    broken(stream, "BLKSCALE-END b closes section a")


def test_section_sent_twice():
    stream = ("BLKSCALE-HELLO 1 r 1.0\n" + section("a", 1) + section("a", 2))
    broken(stream, "section a sent twice")


def test_bad_step_verdict():
    broken(b"BLKSCALE-HELLO 1 r 1.0\nBLKSCALE-STEP census maybe 1 2\n",
           "not a record")


# The kernel's log as the guest sends it: raw bytes, any text, even lines
# that look like records or are not UTF-8.
DMESG = (b"[    0.000000] Linux version 6.1.192\n"
         b"BLKSCALE-DONE ok 1.0\n"
         b"[    1.000000] bad byte \xff and no newline at the end")
# exactly that many bytes: the next record starts right after them
LOG = b"BLKSCALE-LOG dmesg %d\n" % len(DMESG) + DMESG


def with_log(log=LOG):
    return GOOD.replace(b"BLKSCALE-DONE failed", log + b"BLKSCALE-DONE "
                        b"failed")


def test_log_arrives_as_sent():
    r = parse(with_log())
    assert r.logs == {"dmesg": DMESG}
    assert r.done == "failed"


def test_log_fed_one_byte_at_a_time():
    data = with_log()
    parser = ResultsParser()
    for i in range(len(data)):
        parser.feed(data[i:i + 1])
    assert parser.finish().logs == {"dmesg": DMESG}


def test_log_cut_short():
    broken(with_log()[:GOOD.index(b"BLKSCALE-DONE") + 60],
           "ends inside log dmesg")


def test_log_count_too_small():
    # the rest of the log is read as records
    log = b"BLKSCALE-LOG dmesg 10\n" + DMESG
    broken(with_log(log), "not a record")


def test_unknown_log():
    broken(with_log(LOG.replace(b"LOG dmesg", b"LOG secret")),
           "log secret: unknown")


def test_log_sent_twice():
    broken(with_log(LOG + LOG), "log dmesg sent twice")


HELLO = "BLKSCALE-HELLO 1 6.1.192-stock 2.58\n"


def test_asks_are_taken_once_in_order():
    """A step's requests reach the launcher as they arrive, each once."""
    parser = ResultsParser()
    parser.feed((HELLO + "BLKSCALE-PHASE pathfail 3.0\n"
                 "BLKSCALE-ASK paths-down 3.5\n").encode())
    assert parser.take_asks() == [("paths-down", 3.5)]
    assert parser.take_asks() == []
    parser.feed(b"BLKSCALE-ASK paths-up 14.25\nBLKSCALE-DONE ok 20\n")
    assert parser.take_asks() == [("paths-up", 14.25)]
    assert parser.finish().asks == [("paths-down", 3.5), ("paths-up", 14.25)]


@pytest.mark.parametrize("line", ["BLKSCALE-ASK reboot 3.5",
                                  "BLKSCALE-ASK paths-down",
                                  "BLKSCALE-ASK paths-down soon"])
def test_a_request_the_host_does_not_know_breaks_the_channel(line):
    with pytest.raises(ChannelError):
        parse((HELLO + line + "\nBLKSCALE-DONE ok 4\n").encode())
