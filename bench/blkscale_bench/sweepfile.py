"""Sweep files (bench/sweeps/*.toml): which topologies on which variants.

    description = "free text"
    topologies = ["ci-small", "default", "bench/topologies/scale-50.toml"]
    variants = ["stock", "patched"]
    reference = "stock"        # denominator of the ratios in the table
    accel = "auto"             # auto | tcg | kvm
    qemu = "patched"           # distro | patched | PATH (relative to the
                               # repository): the QEMU binary of every
                               # run; absent: each topology's guest.qemu
    repeat = 3                 # runs of every topology and variant
    [thresholds.<metric>]      # nightly only: max_ratio or min_ratio,
    max_ratio = 1.5            # and gate = false for a warning only
    max_repeat = 9             # nightly: repeats it may add to decide a
                               # time (power.py)
    max_host_load = 0.5        # cores others may take before a run is
                               # marked loaded (loadband.py)
    schedule = "alternate"     # alternate: one run at a time, the
                               # variants' order alternating (order.py);
                               # together: a repeat's variants at once;
                               # together-pinned: at once, each on its
                               # own CPU (together.py)
    gate_times = ["stress-500"]  # nightly: the topologies whose boot
                               # times and per-call costs gate (default
                               # all); the others' are advisory: the host
                               # cannot resolve them, their runs prove
                               # counts
    baselines = {canary = "patched"}  # nightly: judge a variant against
                               # another variant's baseline (default its
                               # own bench/baselines/<variant>.json)
    [[ceilings]]               # nightly: absolute limits of a figure
    topology = "oracle-4000"   # (variant = "patched" for one variant)
    metric = "census_complete_s"
    max = 120
    [[series]]                 # boot curves and [[goals]] (curvespec.py)
    hosts = ["qemu:///system", {uri = "qemu+ssh://b2/system", slots = 2}]
                               # libvirt hosts to fan out over (hosts.py)

A topology is a name (topologies/NAME.toml, else bench/topologies/NAME.toml)
or a path relative to the repository.
"""

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from blkscale import qemubinary as qemu_binary
from blkscale.names import VARIANT
from blkscale.paths import REPO

from blkscale.figures import hostload, metrics
from . import curvespec, hosts
from .errors import BenchError
from .tablekeys import check_keys

ACCELS = ("auto", "tcg", "kvm")
TOPOLOGY_DIRS = ("topologies", "bench/topologies")
KNOWN_KEYS = ("description", "topologies", "variants", "reference", "accel",
              "repeat", "thresholds", "series", "goals", "hosts",
              "max_repeat", "max_host_load", "ceilings", "qemu",
              "gate_times", "baselines", "schedule")
CEILING_KEYS = ("topology", "variant", "metric", "max", "min", "why")
DEFAULT_MAX_REPEAT = 9
DEFAULT_MAX_HOST_LOAD = hostload.MAX_HOST_LOAD
MAX_REPEAT = 100
THRESHOLD_KEYS = ("max_ratio", "min_ratio")
SCHEDULES = ("alternate", "together", "together-pinned")


@dataclass
class Topology:
    name: str           # directory name under the run: the file's stem
    path: Path          # absolute
    display: str        # as people read it: relative to the repository


@dataclass
class Sweep:
    path: str
    description: str = ""
    topologies: list = field(default_factory=list)
    variants: list = field(default_factory=lambda: ["stock", "patched"])
    reference: str = "stock"
    accel: str = "auto"
    repeat: int = 1
    thresholds: dict = field(default_factory=dict)
    series: list = field(default_factory=list)
    goals: list = field(default_factory=list)
    hosts: list = field(default_factory=list)   # hosts.Host; none: here
    hosts_where: str = None         # where the hosts were named, for errors
    hosts_field: str = "hosts"
    max_repeat: int = DEFAULT_MAX_REPEAT
    max_host_load: float = DEFAULT_MAX_HOST_LOAD
    ceilings: list = field(default_factory=list)
    qemu: str = None        # None: each topology's own guest.qemu
    qemu_where: str = None  # where the binary was chosen, for errors
    qemu_field: str = "qemu"
    gate_times: list = None     # topologies whose times gate; None: all
    baselines: dict = field(default_factory=dict)   # variant -> baseline's
    schedule: str = "alternate"     # SCHEDULES


def display(path):
    path = Path(path).resolve()
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


def resolve_topology(spec, where, fieldname, cwd=None):
    """A topology name or path -> Topology, or BenchError naming where."""
    if not isinstance(spec, str) or not spec:
        raise BenchError(where, fieldname, "must be a topology name or path")
    candidates = []
    if "/" in spec or spec.endswith(".toml"):
        if cwd is not None:
            candidates.append(Path(cwd) / spec)
        candidates.append(REPO / spec)
    else:
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", spec):
            raise BenchError(where, fieldname,
                             f"{spec!r} is not a topology name")
        candidates += [REPO / d / f"{spec}.toml" for d in TOPOLOGY_DIRS]
    for path in candidates:
        if path.is_file():
            path = path.resolve()
            return Topology(path.stem, path, display(path))
    looked = ", ".join(display(p) for p in candidates)
    raise BenchError(where, fieldname, f"topology {spec!r} not found "
                     f"(looked for {looked})")


def check_variants(values, where, fieldname):
    if not isinstance(values, list) or not values:
        raise BenchError(where, fieldname, "must be a non-empty array of "
                         "variant names")
    for v in values:
        if not isinstance(v, str) or not VARIANT.fullmatch(v):
            raise BenchError(where, fieldname, f"{v!r} is not a variant name")
    if len(set(values)) != len(values):
        raise BenchError(where, fieldname, "lists a variant twice")
    return list(values)


def check_topologies(topos, where, fieldname):
    names = set()
    for t in topos:
        if t.name in names:
            raise BenchError(where, fieldname,
                             f"two topologies named {t.name}")
        names.add(t.name)
    return topos


def check_repeat(value, where, fieldname):
    if isinstance(value, bool) or not isinstance(value, int) or \
            not 1 <= value <= MAX_REPEAT:
        raise BenchError(where, fieldname, f"must be an integer 1..{MAX_REPEAT}"
                         f", got {value!r}")
    return value


def check_qemu(value, where, fieldname, base=REPO):
    """distro, patched, or a path made absolute from base (the launcher
    children run in the repository).  Whether the binary is there is
    for the sweep to check before it runs: a --compare of a finished
    sweep needs none."""
    if not isinstance(value, str) or not value.strip():
        raise BenchError(where, fieldname, "must be distro, patched or the "
                         f"path of a qemu-system-x86_64, got {value!r}")
    if value in qemu_binary.CHOICES:
        return value
    return os.path.normpath(Path(base) / Path(value).expanduser())


def _thresholds(value, where, known_metrics):
    if not isinstance(value, dict):
        raise BenchError(where, "thresholds", "must be a table")
    out = {}
    for metric, spec in value.items():
        fieldname = f"thresholds.{metric}"
        if known_metrics is not None and metric not in known_metrics:
            raise BenchError(where, fieldname, "unknown metric")
        if not isinstance(spec, dict):
            raise BenchError(where, fieldname, "must be a table")
        check_keys(spec, THRESHOLD_KEYS + ("gate",), where, fieldname)
        ratios = [k for k in spec if k in THRESHOLD_KEYS]
        if len(ratios) != 1:
            raise BenchError(where, fieldname, "must have exactly one of "
                             "max_ratio, min_ratio")
        key = ratios[0]
        ratio = spec[key]
        if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) \
                or ratio <= 0:
            raise BenchError(where, f"{fieldname}.{key}",
                             "must be a positive number")
        gate = spec.get("gate", True)
        if not isinstance(gate, bool):
            raise BenchError(where, f"{fieldname}.gate",
                             "must be true or false")
        out[metric] = {key: float(ratio), "gate": gate}
    return out


def _gate_times(value, where, topologies):
    """The topologies whose boot times gate: names among the sweep's."""
    if not isinstance(value, list) or not all(isinstance(v, str)
                                              for v in value):
        raise BenchError(where, "gate_times",
                         "must be an array of topology names")
    for i, name in enumerate(value):
        if name not in topologies:
            raise BenchError(where, f"gate_times[{i}]",
                             f"{name!r} is not one of the sweep's "
                             "topologies")
    return list(value)


def _baselines(value, where, variants):
    """{variant: the variant whose baseline judges it}: keys among the
    sweep's variants, values variant names."""
    if not isinstance(value, dict):
        raise BenchError(where, "baselines", "must be a table of variant "
                         "= \"baseline variant\"")
    for name, of in value.items():
        if name not in variants:
            raise BenchError(where, f"baselines.{name}", "not one of the "
                             "sweep's variants")
        if not isinstance(of, str) or not VARIANT.fullmatch(of):
            raise BenchError(where, f"baselines.{name}",
                             "must be a variant name")
    return dict(value)


def _positive(value, where, fieldname):
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or value <= 0:
        raise BenchError(where, fieldname, "must be a positive number")
    return float(value)


def _ceilings(value, where, topologies, variants, metric_names):
    """[[ceilings]] entries, checked: a topology of the sweep, a variant
    of it or none (all), a known metric, exactly one of max and min."""
    if not isinstance(value, list):
        raise BenchError(where, "ceilings", "must be an array of tables")
    out = []
    for i, c in enumerate(value):
        f = f"ceilings[{i}]"
        if not isinstance(c, dict):
            raise BenchError(where, f, "must be a table")
        check_keys(c, CEILING_KEYS, where, f)
        if c.get("topology") not in topologies:
            raise BenchError(where, f"{f}.topology",
                             f"{c.get('topology')!r} is not a topology of "
                             "this sweep")
        if "variant" in c and c["variant"] not in variants:
            raise BenchError(where, f"{f}.variant",
                             f"{c['variant']!r} is not a variant of this "
                             "sweep")
        if c.get("metric") not in metric_names:
            raise BenchError(where, f"{f}.metric",
                             f"{c.get('metric')!r} is not a metric")
        bounds = [k for k in ("max", "min") if k in c]
        if len(bounds) != 1:
            raise BenchError(where, f, "must have exactly one of max, min")
        entry = {"topology": c["topology"], "metric": c["metric"],
                 bounds[0]: _positive(c[bounds[0]], where,
                                      f"{f}.{bounds[0]}")}
        if "variant" in c:
            entry["variant"] = c["variant"]
        if "why" in c:
            if not isinstance(c["why"], str):
                raise BenchError(where, f"{f}.why", "must be a string")
            entry["why"] = c["why"]
        out.append(entry)
    return out


def load(path, known_metrics=None):
    """Read and check a sweep file; BenchError names the first problem.

    known_metrics: the metric names thresholds may use, or a function of
    the reference variant that returns them (None: no thresholds check).
    """
    where = display(path)
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except FileNotFoundError:
        raise BenchError(where, None, "no such sweep file") from None
    except OSError as e:
        raise BenchError(where, None, e.strerror) from None
    except tomllib.TOMLDecodeError as e:
        raise BenchError(where, None, f"not valid TOML: {e}") from None
    except RecursionError:
        # tomllib parses nested arrays and inline tables recursively.
        raise BenchError(where, None, "not valid TOML: arrays or inline "
                         "tables nested too deeply") from None
    check_keys(doc, KNOWN_KEYS, where)
    sweep = Sweep(where)
    desc = doc.get("description", "")
    if not isinstance(desc, str):
        raise BenchError(where, "description", "must be a string")
    sweep.description = desc
    # Without [[series]] the run list is `topologies`; with them it may
    # be empty, the series' topologies are added after it.
    topos = doc.get("topologies", [] if "series" in doc else None)
    if not isinstance(topos, list):
        raise BenchError(where, "topologies",
                         "must be a non-empty array of topology names")
    topos = [resolve_topology(t, where, f"topologies[{i}]")
             for i, t in enumerate(topos)]
    sweep.series, needed = curvespec.series(doc.get("series", []), where,
                                            resolve_topology)
    for t in needed:
        if all(t.path != have.path for have in topos):
            topos.append(t)
    if not topos:
        raise BenchError(where, "topologies",
                         "must be a non-empty array of topology names")
    sweep.topologies = check_topologies(topos, where, "topologies")
    sweep.goals = curvespec.goals(
        doc.get("goals", []), where, [t.name for t in topos],
        [s["name"] for s in sweep.series])
    if "variants" in doc:
        sweep.variants = check_variants(doc["variants"], where, "variants")
    ref = doc.get("reference", "stock")
    if not isinstance(ref, str) or not VARIANT.fullmatch(ref):
        raise BenchError(where, "reference", "must be a variant name")
    sweep.reference = ref
    accel = doc.get("accel", "auto")
    if accel not in ACCELS:
        raise BenchError(where, "accel", "must be one of "
                         + ", ".join(ACCELS) + f"; got {accel!r}")
    sweep.accel = accel
    sweep.repeat = check_repeat(doc.get("repeat", 1), where, "repeat")
    sweep.max_repeat = check_repeat(doc.get("max_repeat",
                                            max(DEFAULT_MAX_REPEAT,
                                                sweep.repeat)),
                                    where, "max_repeat")
    if sweep.max_repeat < sweep.repeat:
        raise BenchError(where, "max_repeat", f"must be at least repeat "
                         f"({sweep.repeat}), got {sweep.max_repeat}")
    sweep.max_host_load = _positive(doc.get("max_host_load",
                                            DEFAULT_MAX_HOST_LOAD),
                                    where, "max_host_load")
    if "gate_times" in doc:
        sweep.gate_times = _gate_times(doc["gate_times"], where,
                                       [t.name for t in sweep.topologies])
    if "baselines" in doc:
        sweep.baselines = _baselines(doc["baselines"], where, sweep.variants)
    sweep.schedule = doc.get("schedule", "alternate")
    if sweep.schedule not in SCHEDULES:
        raise BenchError(where, "schedule", "must be one of "
                         + ", ".join(SCHEDULES) + f"; got {sweep.schedule!r}")
    if "qemu" in doc:
        sweep.qemu = check_qemu(doc["qemu"], where, "qemu")
        sweep.qemu_where = where
    if "hosts" in doc:
        sweep.hosts = hosts.parse(doc["hosts"], where)
        sweep.hosts_where = where
        if sweep.schedule != "alternate":
            raise BenchError(where, "schedule", f"{sweep.schedule} runs "
                             "guests on this machine; a sweep over hosts "
                             "takes only alternate")
    if callable(known_metrics):
        known_metrics = known_metrics(sweep.reference)
    sweep.thresholds = _thresholds(doc.get("thresholds", {}), where,
                                   known_metrics)
    sweep.ceilings = _ceilings(doc.get("ceilings", []), where,
                               [t.name for t in sweep.topologies],
                               sweep.variants,
                               [m.name for m in metrics.METRICS])
    return sweep
