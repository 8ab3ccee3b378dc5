"""The nightly verdict: this sweep's figures against the baselines.

Each figure passes when it stays within its threshold: a max_ratio figure
may grow to baseline x ratio, a min_ratio figure may fall to baseline x
ratio (1.0: must not drop at all).  Beyond it, a gating figure is a
regression and an advisory one a warning.  A figure the baseline has and
this sweep lacks is a failure ("missing"): a step that stopped reporting
is not a pass.

How the repeats are judged depends on the figure's kind (metrics.py):

- a count (EXACT) and a memory figure (MEMORY) are judged repeat by
  repeat: one value beyond the limit in any repeat is a regression,
  named by its repeat;
- a time (TIME) or an in-guest per-call cost (CALL) by a one-sided bound
  on the mean of its repeats' logs (onesided.py): it passes only when
  the upper bound is within the threshold, is a regression only when
  the lower bound is beyond it, and is otherwise inconclusive; it needs
  two repeats at least, and a time's repeats are first moved against
  the verdict by what the host's load could explain (loadband.py).
  Every such check says how many repeats it had and at which true
  ratios they would fail and pass ("fails at >= X; passes only at <=
  Y").

A figure some repeats brought and others did not is missing, named by
those repeats: it is never judged on the repeats that have it.
"""

from dataclasses import dataclass

from . import loadband, metrics, onesided, verdict as judged
from .stats import Summary

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
    # the true value (in the figure's unit) at which these repeats would
    # give a regression, and at which they would still pass
    fails_at: float = None
    passes_at: float = None
    undecided: bool = False   # a gating time more repeats could decide
    needed: int = None        # repeats that would decide it (None: none)
    at_par: int = None        # repeats that would pass it were it at par
    kind: str = None          # metrics.EXACT, TIME, MEMORY or CALL

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


def power_text(check):
    """"fails at >= 1.43; passes only at <= 1.18" of a judged time, in
    the figure's unit (a ratio for _vs_ figures); "" without a spread."""
    if check.fails_at is None or check.passes_at is None:
        return ""
    most = any(k.startswith("max") for k in check.limit or {})
    fail, ok = (">=", "<=") if most else ("<=", ">=")
    return (f"fails at {fail} {_fmt(check.fails_at)}; passes only at "
            f"{ok} {_fmt(check.passes_at)}")


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


def judge_exact(topo, variant, metric, base, cur, limit, repeats,
                kind=metrics.EXACT):
    """A count or a memory figure, repeat by repeat: every repeat in
    `repeats` must bring the figure and keep it within baseline x
    ratio."""
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
                     Summary.of(values).to_json(), repeats=n, kind=kind)
    if missing:
        said = ", ".join(str(k) for k in missing)
        return Check(topo, variant, metric, MISSING, base, median, limit,
                     f"{metric}: missing in repeat {said} (baseline "
                     f"{_fmt(base)})", repeats=n, kind=kind)
    return Check(topo, variant, metric, PASS, base, median, limit,
                 f"{metric}: {_fmt(median)} in each of {n} repeats "
                 f"(baseline {_fmt(base)}, {key} {ratio:g})",
                 Summary.of(values).to_json(), repeats=n, kind=kind)


def decide(spread, bound, key, band=None, par=None):
    """onesided.Decision of a TIME or CALL figure's repeats against
    bound (key max_ratio/max_ceiling: at most, else at least); band:
    (down, up) from loadband, None for a per-call cost; par: the figure
    if nothing changed (its baseline)."""
    down, up = band or (None, None)
    return onesided.decide(spread.values, bound,
                           "max" if key.startswith("max") else "min",
                           down, up, par=par)


def missing_in(topo, variant, metric, base, spread, repeats, limit):
    """A MISSING check when some of `repeats` lack the figure, else
    None."""
    have = spread.values if spread is not None else {}
    lacking = [k for k in sorted(repeats or ()) if k not in have]
    if not lacking or not have:
        return None
    said = ", ".join(str(k) for k in lacking)
    return Check(topo, variant, metric, MISSING, base,
                 spread.median, limit,
                 f"{metric}: missing in repeat {said} (brought by "
                 f"{len(have)} of {len(have) + len(lacking)})",
                 spread.to_json(), repeats=spread.n)


def judge(topo, variant, metric, base, cur, limit, kind=metrics.TIME,
          band=None):
    """One time or per-call figure (a number or a stats.Summary) against
    its baseline under limit {max_ratio|min_ratio}.  band: (down, up)
    from loadband, what load could explain of each repeat."""
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
    decision = decide(spread, bound, key, band, par=base)
    power = decision.power()
    rel = f" ({cur / base:.2f}x)" if base else ""
    tail = _repeats(spread)
    common = dict(spread=spread.to_json(), repeats=spread.n, kind=kind,
                  fails_at=decision.fails_at, passes_at=decision.passes_at,
                  needed=decision.needed, at_par=decision.at_par)
    if decision.said == onesided.INCONCLUSIVE:
        if decision.by_spread or decision.n < 2:
            why = bound_text(decision, bound) + f"; {power}"
        else:
            why = f"limit {_fmt(bound)}: {power}; {hopeless_text(decision)}"
        return Check(topo, variant, metric, INCONCLUSIVE, base, cur, limit,
                     f"{metric}: {_fmt(cur)} vs {_fmt(base)} x {ratio:g}: "
                     + why, undecided=gating and decision.by_spread,
                     **common)
    if decision.said == onesided.FAIL:
        sign = ">" if key == "max_ratio" else "<"
        return Check(topo, variant, metric, bad, base, cur, limit,
                     f"{metric}: {_fmt(cur)} {sign} {_fmt(base)} x "
                     f"{ratio:g}{rel}{tail}; {power}", **common)
    return Check(topo, variant, metric, PASS, base, cur, limit,
                 f"{metric}: {_fmt(cur)} vs {_fmt(base)}{rel}, "
                 f"{key} {ratio:g}{tail}; {power}", **common)


def hopeless_text(decision):
    """Why no number of repeats decides a figure."""
    if decision.load > 1.0 + 1e-9:
        return "within what the host's load could explain, or too near " \
            "the limit: rerun on an idle host"
    return "its mean is too near the limit for its spread"


def bound_text(decision, limit, fmt=_fmt):
    """Why a decision is undecided: its one-sided bounds around the
    limit."""
    if decision.n < 2:
        return "one repeat has no spread: inconclusive, run more repeats"
    level = round(100 * onesided.LEVEL)
    return (f"{level}% bounds {fmt(decision.low)}..{fmt(decision.high)} "
            f"straddle {fmt(limit)}: inconclusive")


def times_gate(topology, gate_times):
    """Whether a topology's times (boot times and in-guest per-call
    costs) gate: gate_times, the sweep's `gate_times` (None: every
    topology's do)."""
    return gate_times is None or topology in gate_times


def compare(manifest, figures, baselines, thresholds, docs=None,
            loads=None, gate_times=None):
    """Checks of every (topology, variant) the sweep planned that brought
    figures (runcheck.py judges the runs themselves).

    baselines: {variant: baseline document or None}; docs: {(topology,
    variant): {repeat: results doc}} (which repeats brought results);
    loads: loadband.Loads of the sweep; gate_times: the topologies whose
    boot times gate (None: all), the others' are advisory.
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
            base = beside(base, base_doc, variant, ref, current,
                          (baselines.get(ref) or {}).get("variant", ref))
            repeats = sorted((docs or {}).get((topo, variant)) or {})
            paired = sorted(set(repeats) &
                            set((docs or {}).get((topo, ref)) or {}))
            for metric in sorted(set(base) | set(current)):
                # a cost in ns advises where its cost in steps was measured
                gating = times_gate(topo, gate_times) and \
                    not metrics.superseded(metric, ref, current)
                checks.append(_judge_metric(
                    topo, variant, metric, base, current, thresholds,
                    paired if metric.endswith(f"_vs_{ref}") else repeats,
                    loads, ref, gating))
    return [c for c in checks if c is not None]


def beside(base, base_doc, variant, ref, current, ref_judged_by=None):
    """The baseline figures a variant is judged by when the sweep's
    reference is not the baseline's own.  Ratios to the baseline's
    reference cannot be compared and are left out; a variant judged by
    the baseline the reference it ran beside is judged by
    (ref_judged_by: that baseline's variant, default the reference
    itself) is expected at 1.0 of it in every ratio, in the same
    sitting, where a change in the host's speed moves both alike: the
    A/A pair and the canary (bench/sweeps/nightly-aa.toml), and today's
    patched kernel beside its baseline's (nightly-gated.toml)."""
    theirs = base_doc.get("reference")
    if theirs == ref:
        return base
    out = {k: v for k, v in base.items() if not k.endswith(f"_vs_{theirs}")}
    if base_doc.get("variant") == (ref_judged_by or ref) and variant != ref:
        suffix = f"_vs_{ref}"
        # Each ratio the run has, and each whose figure the baseline has
        # (missing from the run, it is reported so).
        out.update({k: 1.0 for k in current if k.endswith(suffix) and (
            spread_of(current[k]) is not None or k[:-len(suffix)] in base)})
    return out


def _judge_metric(topo, variant, metric, base, current, thresholds,
                  repeats, loads, ref, times_gating=True):
    limit = thresholds.get(metric)
    if limit is not None and not times_gating and \
            metrics.kind_of(metric, ref) in metrics.TIMED:
        limit = dict(limit, gate=False)
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
    if kind in (metrics.EXACT, metrics.MEMORY):
        return judge_exact(topo, variant, metric, base[metric], cur, limit,
                           repeats, kind)
    band = None
    spread = spread_of(cur)
    missing = missing_in(topo, variant, metric, base[metric], spread,
                         repeats, limit)
    if missing is not None:
        return missing
    if kind == metrics.TIME and spread is not None:
        if metric.endswith(f"_vs_{ref}"):
            band = loadband.ratio_shifts(spread.values, loads, topo,
                                         variant, ref)
        else:
            band = loadband.absolute_shifts(spread.values, loads, topo,
                                            variant)
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
