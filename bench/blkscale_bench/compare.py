"""The nightly verdict: this sweep's figures against the baselines.

Each figure passes when it stays within its threshold: a max_ratio figure
may grow to baseline x ratio, a min_ratio figure may fall to baseline x
ratio (1.0: must not drop at all).  Beyond it, a gating figure is a
regression and an advisory one a warning.  A figure the baseline has and
this sweep lacks is a failure ("missing"): a step that stopped reporting
is not a pass.

With repeats the current figure is a stats.Summary: it passes only when
its whole spread is within the threshold, it is beyond only when all of
it is, and otherwise it is inconclusive (verdict.py): a warning asking
for more repeats, never a pass.
"""

from dataclasses import dataclass

from . import verdict as judged
from blkscale.stats import Summary

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


def judge(topo, variant, metric, base, cur, limit):
    """One figure (a number or a stats.Summary) against its baseline
    under limit {max_ratio|min_ratio}."""
    spread = spread_of(cur)
    if spread is None:
        return Check(topo, variant, metric, MISSING, base, None, limit,
                     f"{metric}: missing (baseline {_fmt(base)})")
    cur = spread.median
    key = "max_ratio" if "max_ratio" in limit else "min_ratio"
    ratio = limit[key]
    bad = REGRESSION if limit.get("gate", True) else WARN
    bound = base * ratio
    said = judged.judge(spread, **{key[:3]: bound})
    rel = f" ({cur / base:.2f}x)" if base else ""
    tail = _repeats(spread)
    if said == judged.INCONCLUSIVE:
        return Check(topo, variant, metric, INCONCLUSIVE, base, cur, limit,
                     f"{metric}: {_fmt(cur)} vs {_fmt(base)} x {ratio:g}: "
                     + judged.straddle_text(spread, bound), spread.to_json())
    if said == judged.FAIL:
        sign = ">" if key == "max_ratio" else "<"
        return Check(topo, variant, metric, bad, base, cur, limit,
                     f"{metric}: {_fmt(cur)} {sign} {_fmt(base)} x "
                     f"{ratio:g}{rel}{tail}", spread.to_json())
    return Check(topo, variant, metric, PASS, base, cur, limit,
                 f"{metric}: {_fmt(cur)} vs {_fmt(base)}{rel}, "
                 f"{key} {ratio:g}{tail}", spread.to_json())


def compare(manifest, figures, baselines, thresholds):
    """Checks of every (topology, variant) the sweep planned.

    baselines: {variant: baseline document or None}.
    """
    sweep = manifest.get("sweep") or {}
    runs = {(r["topology"], r["variant"]): r
            for r in manifest.get("runs") or []}
    checks = []
    for topo in sweep.get("topologies") or {}:
        for variant in sweep.get("variants") or []:
            run = runs.get((topo, variant))
            current = (figures.get(topo) or {}).get(variant)
            if run is None or current is None:
                why = (f"{run['outcome']}: {run['message']}" if run
                       else "not run")
                checks.append(Check(topo, variant, "run", RUN_FAILED,
                                    message=f"no results ({why})"))
            else:
                checks.append(Check(topo, variant, "run", PASS,
                                    message=run["outcome"]))
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
            current = current or {}
            for metric in sorted(set(base) | set(current)):
                limit = thresholds.get(metric)
                if metric not in base:
                    spread = spread_of(current.get(metric))
                    if spread is not None:
                        checks.append(Check(
                            topo, variant, metric, NO_BASELINE,
                            current=spread.median,
                            message=f"{metric}: no baseline value",
                            spread=spread.to_json()))
                    continue
                if limit is None:
                    checks.append(Check(topo, variant, metric, NO_BASELINE,
                                        base[metric], current.get(metric),
                                        message=f"{metric}: no threshold"))
                    continue
                checks.append(judge(topo, variant, metric, base[metric],
                                    current.get(metric), limit))
    return checks


def verdict(checks):
    """REGRESSION when a check failed, else INCONCLUSIVE when a gating
    figure's spread straddled its limit, else PASS."""
    failed = [c for c in checks if c.failed]
    if failed:
        return "REGRESSION", failed
    if any(c.status == INCONCLUSIVE and (c.limit or {}).get("gate", True)
           for c in checks):
        return "INCONCLUSIVE", failed
    return "PASS", failed


def warnings(checks):
    return [c for c in checks if c.status in (WARN, INCONCLUSIVE)]
