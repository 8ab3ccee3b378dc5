"""The nightly verdict: this sweep's figures against the baselines.

Each figure passes when it stays within its threshold: a max_ratio figure
may grow to baseline x ratio, a min_ratio figure may fall to baseline x
ratio (1.0: must not drop at all).  Beyond it, a gating figure is a
regression and an advisory one a warning.  A figure the baseline has and
this sweep lacks is a failure ("missing"): a step that stopped reporting
is not a pass.
"""

from dataclasses import dataclass

# Figures are compared with a little slack for float rounding only.
EPSILON = 1e-9

PASS, WARN, REGRESSION, MISSING, NO_BASELINE, RUN_FAILED = (
    "pass", "warn", "regression", "missing", "no-baseline", "run-failed")
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
    key = "max_ratio" if "max_ratio" in limit else "min_ratio"
    kind = "gating" if limit.get("gate", True) else "advisory"
    return f"{key} {limit[key]:g}, {kind}"


def judge(topo, variant, metric, base, cur, limit):
    """One figure against its baseline under limit {max_ratio|min_ratio}."""
    if cur is None:
        return Check(topo, variant, metric, MISSING, base, cur, limit,
                     f"{metric}: missing (baseline {_fmt(base)})")
    key = "max_ratio" if "max_ratio" in limit else "min_ratio"
    ratio = limit[key]
    bad = REGRESSION if limit.get("gate", True) else WARN
    bound = base * ratio
    slack = EPSILON * max(abs(bound), 1.0)
    rel = f" ({cur / base:.2f}x)" if base else ""
    if key == "max_ratio" and cur > bound + slack:
        return Check(topo, variant, metric, bad, base, cur, limit,
                     f"{metric}: {_fmt(cur)} > {_fmt(base)} x {ratio:g}{rel}")
    if key == "min_ratio" and cur < bound - slack:
        return Check(topo, variant, metric, bad, base, cur, limit,
                     f"{metric}: {_fmt(cur)} < {_fmt(base)} x {ratio:g}{rel}")
    return Check(topo, variant, metric, PASS, base, cur, limit,
                 f"{metric}: {_fmt(cur)} vs {_fmt(base)}{rel}, "
                 f"{key} {ratio:g}")


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
                    if current.get(metric) is not None:
                        checks.append(Check(
                            topo, variant, metric, NO_BASELINE,
                            current=current[metric],
                            message=f"{metric}: no baseline value"))
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
    failed = [c for c in checks if c.failed]
    return ("REGRESSION" if failed else "PASS"), failed


def warnings(checks):
    return [c for c in checks if c.status == WARN]
