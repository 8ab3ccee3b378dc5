"""The nightly verdict: this sweep's figures against the baselines.

Each figure passes when it stays within its threshold: a max_ratio figure
may grow to baseline x ratio, a min_ratio figure may fall to baseline x
ratio (1.0: must not drop at all).  Beyond it, a gating figure is a
regression and an advisory one a warning.  A figure the baseline has and
this sweep lacks is a failure ("missing"): a step that stopped reporting
is not a pass.

How the repeats are judged depends on the figure's kind (metrics.py):

- a count (EXACT) is judged repeat by repeat: one wrong value in any
  repeat is a regression, named by its repeat;
- a time or a memory figure is judged by its median's interval
  (verdict.py): it passes only when the whole interval is within the
  threshold, is beyond only when all of it is, and is otherwise
  inconclusive; a time also needs two repeats at least, and its
  interval is widened by what the host's load could explain
  (loadband.py).  Every such check says how many repeats it had, the
  interval's coverage and the smallest change they could have seen.
"""

from dataclasses import dataclass

from blkscale.figures import loadband, metrics, verdict as judged
from blkscale.figures.stats import Summary

PASS, WARN, REGRESSION, MISSING, NO_BASELINE, RUN_FAILED, INCONCLUSIVE = (
    "pass", "warn", "regression", "missing", "no-baseline", "run-failed",
    "inconclusive")
FAILING = (REGRESSION, MISSING, RUN_FAILED)


@dataclass
class Check:
    topology: str
    variant: str
    metric: str
    status: str
    baseline: float = None
    current: float = None
    limit: dict = None
    message: str = ""
    spread: dict = None       # stats.Summary.to_json() of the repeats
    detail: str = ""          # more for the JUnit case (a console tail)
    repeats: int = None       # how many repeats the figure had
    detectable: float = None  # smallest ratio these repeats could tell
    undecided: bool = False   # a gating time more repeats could decide
    kind: str = None          # metrics.EXACT, TIME or MEMORY

    @property
    def failed(self):
        return self.status in FAILING


def _fmt(value):
    if value is None:
        return "-"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.4g}"
    return f"{int(value)}"


def limit_text(limit):
    """{max_ratio: 1.5, gate: False} -> "max_ratio 1.5, advisory"."""
    if not limit:
        return "no threshold"
    # max_ratio / min_ratio (against the baseline) or max_ceiling /
    # min_ceiling (ceilings.py, against the reference variant).
    key = next(k for k in limit if k != "gate")
    kind = "gating" if limit.get("gate", True) else "advisory"
    return f"{key} {limit[key]:g}, {kind}"


def spread_of(cur):
    """A figure as a stats.Summary: as given, or one value; None when
    missing."""
    if isinstance(cur, Summary):
        return cur if cur.n else None
    return None if cur is None else Summary.of([cur])


def _repeats(spread):
    text = spread.spread_text(_fmt)
    return f" (repeats {text})" if text else ""


def _beyond(value, bound, key):
    slack = judged.EPSILON * max(abs(bound), 1.0)
    return value > bound + slack if key == "max_ratio" else \
        value < bound - slack


def judge_exact(topo, variant, metric, base, cur, limit, repeats):
    """A count, repeat by repeat: every repeat in `repeats` must bring
    the figure and keep it within baseline x ratio."""
    values = cur.values if isinstance(cur, Summary) else \
        ({} if cur is None else {1: cur})
    key = "max_ratio" if "max_ratio" in limit else "min_ratio"
    ratio = limit[key]
    bound = base * ratio
    bad = REGRESSION if limit.get("gate", True) else WARN
    sign = ">" if key == "max_ratio" else "<"
    wrong = [f"repeat {k}: {_fmt(v)} {sign} {_fmt(base)} x {ratio:g}"
             for k, v in sorted(values.items()) if _beyond(v, bound, key)]
    missing = [k for k in sorted(repeats or values) if k not in values]
    n = len(values)
    median = Summary.of(values).median
    if wrong:
        return Check(topo, variant, metric, bad, base, median, limit,
                     f"{metric}: " + "; ".join(wrong),
                     Summary.of(values).to_json(), repeats=n)
    if missing:
        said = ", ".join(str(k) for k in missing)
        return Check(topo, variant, metric, MISSING, base, median, limit,
                     f"{metric}: missing in repeat {said} (baseline "
                     f"{_fmt(base)})", repeats=n)
    return Check(topo, variant, metric, PASS, base, median, limit,
                 f"{metric}: {_fmt(median)} in each of {n} repeats "
                 f"(baseline {_fmt(base)}, {key} {ratio:g})",
                 Summary.of(values).to_json(), repeats=n)


def judge(topo, variant, metric, base, cur, limit, kind=metrics.TIME,
          band=None):
    """One time or memory figure (a number or a stats.Summary) against
    its baseline under limit {max_ratio|min_ratio}.  band: (low, high,
    factor) from loadband, the repeats moved by what load explains."""
    spread = spread_of(cur)
    if spread is None:
        return Check(topo, variant, metric, MISSING, base, None, limit,
                     f"{metric}: missing (baseline {_fmt(base)})")
    cur = spread.median
    key = "max_ratio" if "max_ratio" in limit else "min_ratio"
    ratio = limit[key]
    gating = limit.get("gate", True)
    bad = REGRESSION if gating else WARN
    bound = base * ratio
    decision = judged.decide(spread, band, need_spread=kind == metrics.TIME,
                             **{key[:3]: bound})
    said, power = decision.said, decision.power
    rel = f" ({cur / base:.2f}x)" if base else ""
    tail = _repeats(spread)
    common = dict(spread=spread.to_json(), repeats=spread.n, kind=kind,
                  detectable=decision.detectable)
    if said == judged.INCONCLUSIVE:
        # More repeats can narrow a spread, not take a load away.
        if decision.by_spread:
            why = judged.straddle_text(spread, bound) + f"; {power}"
        else:
            why = (f"limit {_fmt(bound)}: within what the host's load "
                   f"could explain ({power}); rerun on an idle host")
        return Check(topo, variant, metric, INCONCLUSIVE, base, cur, limit,
                     f"{metric}: {_fmt(cur)} vs {_fmt(base)} x {ratio:g}: "
                     + why, undecided=gating and kind == metrics.TIME
                     and decision.by_spread, **common)
    if said == judged.FAIL:
        sign = ">" if key == "max_ratio" else "<"
        return Check(topo, variant, metric, bad, base, cur, limit,
                     f"{metric}: {_fmt(cur)} {sign} {_fmt(base)} x "
                     f"{ratio:g}{rel}{tail}; {power}", **common)
    return Check(topo, variant, metric, PASS, base, cur, limit,
                 f"{metric}: {_fmt(cur)} vs {_fmt(base)}{rel}, "
                 f"{key} {ratio:g}{tail}; {power}", **common)


def compare(manifest, figures, baselines, thresholds, docs=None,
            loads=None):
    """Checks of every (topology, variant) the sweep planned that brought
    figures (runcheck.py judges the runs themselves).

    baselines: {variant: baseline document or None}; docs: {(topology,
    variant): {repeat: results doc}} (which repeats brought results);
    loads: loadband.Loads of the sweep.
    """
    sweep = manifest.get("sweep") or {}
    ref = sweep.get("reference", "stock")
    loads = loads or loadband.Loads(manifest)
    checks = []
    for topo in sweep.get("topologies") or {}:
        for variant in sweep.get("variants") or []:
            current = (figures.get(topo) or {}).get(variant)
            if current is None:
                continue        # no repeat brought results: runcheck.py
            base_doc = baselines.get(variant)
            if base_doc is None:
                checks.append(Check(topo, variant, "baseline", RUN_FAILED,
                                    message=f"no baseline for variant "
                                    f"{variant} (make baseline RUN=...)"))
                continue
            base = ((base_doc.get("topologies") or {}).get(topo) or {}) \
                .get("metrics")
            if base is None:
                checks.append(Check(topo, variant, "baseline", NO_BASELINE,
                                    message=f"the {variant} baseline has no "
                                    f"topology {topo}"))
                continue
            repeats = sorted((docs or {}).get((topo, variant)) or {})
            for metric in sorted(set(base) | set(current)):
                checks.append(_judge_metric(
                    topo, variant, metric, base, current, thresholds,
                    repeats, loads, ref))
    return [c for c in checks if c is not None]


def _judge_metric(topo, variant, metric, base, current, thresholds,
                  repeats, loads, ref):
    limit = thresholds.get(metric)
    if metric not in base:
        spread = spread_of(current.get(metric))
        if spread is None:
            return None
        return Check(topo, variant, metric, NO_BASELINE,
                     current=spread.median,
                     message=f"{metric}: no baseline value",
                     spread=spread.to_json())
    if limit is None:
        spread = spread_of(current.get(metric))
        return Check(topo, variant, metric, NO_BASELINE, base[metric],
                     spread.median if spread else None,
                     message=f"{metric}: no threshold")
    kind = metrics.kind_of(metric, ref)
    cur = current.get(metric)
    if kind == metrics.EXACT:
        return judge_exact(topo, variant, metric, base[metric], cur, limit,
                           repeats)
    band = None
    spread = spread_of(cur)
    if kind == metrics.TIME and spread is not None:
        if metric.endswith(f"_vs_{ref}"):
            band = loadband.ratio_band(spread, loads, topo, variant, ref)
        else:
            band = loadband.absolute_band(spread, loads, topo, variant)
    return judge(topo, variant, metric, base[metric], cur, limit, kind, band)


def verdict(checks):
    """REGRESSION when a check failed, else INCONCLUSIVE when a gating
    figure's spread straddled its limit (or one repeat could not show
    one), else PASS."""
    failed = [c for c in checks if c.failed]
    if failed:
        return "REGRESSION", failed
    if any(c.status == INCONCLUSIVE and (c.limit or {}).get("gate", True)
           for c in checks):
        return "INCONCLUSIVE", failed
    return "PASS", failed


def warnings(checks):
    return [c for c in checks if c.status in (WARN, INCONCLUSIVE)]
