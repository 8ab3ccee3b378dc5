"""The clock's floor beside a nanosecond figure: within 10x of the floor
the figure carries it, at 11x it does not, and a missing or malformed
floor never raises and never prints a note."""

from blkscale.figures import clockfloor
from blkscale_bench import table
from blkscale.figures.stats import Summary


def _doc(kernel=None, user=None):
    return {"majors": {"clock_empty_kernel_ns": kernel},
            "guest": {"clock_empty_user_ns": user}}


def _empty(median, min_nonzero=None):
    return {"pairs": 2000, "median": median, "min": 0,
            "min_nonzero": median if min_nonzero is None else min_nonzero}


def test_within_10x_gets_the_note_11x_does_not():
    assert clockfloor.note(1200, 120) == " (clock floor 120 ns)"
    assert clockfloor.note(1000, 120) == " (clock floor 120 ns)"
    assert clockfloor.note(1320, 120) == ""
    assert clockfloor.near(10 * 120, 120)
    assert not clockfloor.near(11 * 120, 120)


def test_missing_or_malformed_floor_gives_no_note():
    for floor in (None, 0, -5, "120", True):
        assert clockfloor.note(100, floor) == ""
    assert clockfloor.note(None, 120) == ""
    assert clockfloor.floors({}) == {"kernel": None, "user": None}
    assert clockfloor.floors(None) == {"kernel": None, "user": None}
    assert clockfloor.floors({"majors": None, "guest": "x"}) == \
        {"kernel": None, "user": None}
    for bad in (None, [], {}, {"median": None}, {"median": "1"},
                {"median": -1}, {"median": True}, {"median": 0},
                {"median": 0, "min_nonzero": 0}):
        assert clockfloor.floor_of(bad) is None, bad


def test_floor_by_source_and_coarse_clock():
    f = clockfloor.floors(_doc(_empty(140), _empty(0, 279)))
    # a coarse clock: most regions read 0, its step is what it resolves
    assert f == {"kernel": 140.0, "user": 279.0}


def test_per_line_floor():
    assert clockfloor.per_line(1000, 40) == 25
    assert clockfloor.per_line(None, 40) is None
    assert clockfloor.per_line(1000, 0) is None
    assert clockfloor.per_line(1000, None) is None
    assert clockfloor.note(2.5, clockfloor.per_line(10, 40)) == \
        " (clock floor 0.25 ns)"


def test_sweep_floors_median_of_repeats():
    docs = {("t", "stock"): {1: _doc(_empty(100), _empty(1000)),
                             2: _doc(_empty(300), None),
                             3: _doc(_empty(200), _empty(3000))},
            ("t", "patched"): {1: {}}}
    got = clockfloor.sweep_floors(docs)
    assert got["t"]["stock"] == {"kernel": 200.0, "user": 2000.0}
    assert got["t"]["patched"] == {"kernel": None, "user": None}


def _manifest():
    return {"run": "r1", "status": "complete",
            "sweep": {"variants": ["stock", "patched"],
                      "reference": "stock", "topologies": {"t": {}}},
            "runs": []}


def _figures(register, lookup):
    return {"t": {v: {"register_p50_ns": Summary.of([register[v]]),
                      "lookup_p50_ns": Summary.of([lookup[v]]),
                      "disks_found": Summary.of([8])}
                  for v in ("stock", "patched")}}


def _row(lines, label):
    return next(ln for ln in lines if ln.strip().startswith(label))


def test_table_notes_by_the_figures_own_floor():
    # register is timed in the kernel, lookup in user space: a kernel
    # floor of 100 flags register 1,000 (10x) but not 1,100 (11x); the
    # user floor of 1,000 flags lookup 9,000 but not 11,000.
    figures = _figures({"stock": 1000, "patched": 1100},
                       {"stock": 9000, "patched": 11000})
    floors = {"t": {"stock": {"kernel": 100, "user": 1000},
                    "patched": {"kernel": 100, "user": 1000}}}
    lines = table.lines(_manifest(), figures, floors)
    reg = _row(lines, "register_blkdev median cost")
    assert "1,000 (clock floor 100 ns)" in reg
    assert "1,100 (clock" not in reg and "1,100" in reg
    look = _row(lines, "open() of a registered major")
    assert "9,000 (clock floor 1,000 ns)" in look
    assert "11,000 (clock" not in look
    assert clockfloor.LEGEND in lines
    assert "clock floor" not in _row(lines, "disks found")


def test_table_source_decides_the_floor():
    # only a user floor: the kernel-timed register figure gets no note
    # even though it is within 10x of the user floor
    figures = _figures({"stock": 1000, "patched": 1000},
                       {"stock": 50000, "patched": 50000})
    floors = {"t": {"stock": {"kernel": None, "user": 1000},
                    "patched": {"user": 1000}}}
    lines = table.lines(_manifest(), figures, floors)
    assert "clock floor" not in "\n".join(lines)


def test_table_without_floors():
    figures = _figures({"stock": 1000, "patched": 1000},
                       {"stock": 900, "patched": 900})
    for floors in (None, {}, {"t": None}, {"t": {"stock": None}},
                   {"other": {"stock": {"kernel": 100}}}):
        lines = table.lines(_manifest(), figures, floors)
        assert "clock floor" not in "\n".join(lines)
        assert "1,000" in _row(lines, "register_blkdev median cost")


def test_nightly_messages_carry_the_floor():
    from blkscale.figures import compare
    limit = {"max_ratio": 1.5, "gate": False}
    near = compare.judge("t", "stock", "register_p50_ns", 1000, 1000, limit)
    far = compare.judge("t", "stock", "lookup_p50_ns", 11000, 11000, limit)
    ratio = compare.judge("t", "stock", "register_p50_ns_vs_stock", 1, 1,
                          limit)
    missing = compare.judge("t", "patched", "register_p50_ns", 1000, None,
                            limit)
    floors = {"t": {"stock": {"kernel": 100, "user": 1000},
                    "patched": {"kernel": 100}}}
    clockfloor.annotate([near, far, ratio, missing], floors)
    assert near.message.endswith("(clock floor 100 ns)")
    assert "clock floor" not in far.message
    assert "clock floor" not in ratio.message
    assert "clock floor" not in missing.message
    # no floors at all: nothing added, nothing raised
    again = compare.judge("t", "stock", "register_p50_ns", 1000, 1000, limit)
    text = again.message
    clockfloor.annotate([again], None)
    clockfloor.annotate([again], {"t": {"stock": None}})
    assert again.message == text
