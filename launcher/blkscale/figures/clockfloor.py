"""The clock's floor under a nanosecond figure.

The guest measures what an empty timed region costs, two back-to-back
reads of the clock with nothing between them, once in the kernel
(`majors.clock_empty_kernel_ns`, the helper module's ktime_get_ns()) and
once in user space (`guest.clock_empty_user_ns`, clock_gettime()).  A
figure within FACTOR times that cost is mostly the clock itself: tables
and reports print the floor beside it.

Which floor applies follows from where the figure was timed: register
and unregister costs by the module around the kernel call (kernel),
lookups around open() and /proc/devices around a whole read by the tool
(user).  A per-line /proc/devices figure is one read's time divided by
its lines, so its floor is the user floor divided by the same lines.

The floor is the empty region's median; when a coarse clocksource makes
most empty regions read 0, it is the clock's smallest step
(`min_nonzero`), which is then what a figure can resolve.  A missing or
malformed floor gives no note, never an error.
"""

import statistics

from ..results.runresults import Results

FACTOR = 10
KERNEL, USER = "kernel", "user"

# Where each nanosecond metric of metrics.py was timed.
SOURCE = {
    "register_p50_ns": KERNEL,
    "lookup_p50_ns": USER,
    "procdevices_ns_per_read_0": USER,
    "procdevices_ns_per_read_200": USER,
    "procdevices_ns_per_read_max": USER,
    "procdevices_ns_per_line_max": USER,
}

# The floor of each clock, from a results record.
_FLOORS = {KERNEL: lambda r: r.clock_empty_kernel_ns,
           USER: lambda r: r.clock_empty_user_ns}


def _number(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def floor_of(empty):
    """The floor in ns of one clock_empty_*_ns object, or None."""
    if not isinstance(empty, dict):
        return None
    median = _number(empty.get("median"))
    if median is None or median < 0:
        return None
    if median == 0:
        step = _number(empty.get("min_nonzero"))
        return step if step and step > 0 else None
    return median


def floors(doc):
    """{KERNEL: ns or None, USER: ns or None} of one results document."""
    results = Results.of(doc)
    return {source: floor_of(floor(results))
            for source, floor in _FLOORS.items()}


def sweep_floors(docs):
    """{topology: {variant: {source: median floor over the repeats}}}
    from repeats.load()'s {(topology, variant): {repeat: doc}}."""
    out = {}
    for (topo, variant), by_repeat in docs.items():
        per = [floors(doc) for doc in by_repeat.values()]
        out.setdefault(topo, {})[variant] = {
            s: _median([f[s] for f in per]) for s in (KERNEL, USER)}
    return out


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def near(value, floor):
    """True when value is within FACTOR times the floor."""
    value, floor = _number(value), _number(floor)
    if value is None or floor is None or floor <= 0:
        return False
    return value <= FACTOR * floor


def floor_text(floor):
    return f"{floor:,.0f}" if floor >= 10 else f"{floor:.2g}"


def note(value, floor):
    """" (clock floor 120 ns)" when value is within FACTOR times floor,
    else ""."""
    if not near(value, floor):
        return ""
    return f" (clock floor {floor_text(floor)} ns)"


def per_line(floor, lines):
    """The floor's share of one line of a read of `lines` lines."""
    floor, lines = _number(floor), _number(lines)
    if floor is None or not lines or lines <= 0:
        return None
    return floor / lines


LEGEND = (f"(clock floor N ns): the figure is within {FACTOR}x of the "
          "cost of an empty timed region (median of back-to-back clock "
          "reads in the guest: in the kernel for register/unregister, in "
          "user space for lookups and /proc/devices reads)")


def annotate(checks, floors):
    """Append the floor to the message of each nightly check (compare.Check)
    of a ns figure whose current value is within FACTOR times it."""
    for c in checks:
        source = SOURCE.get(c.metric)
        if source is None:
            continue
        floor = (((floors or {}).get(c.topology) or {}).get(c.variant)
                 or {}).get(source)
        c.message += note(c.current, floor)
    return checks
