"""Least-squares models of a figure against the number of disks, the
choice between them, and their extrapolation.

Candidates: linear a + b*n, quadratic a + b*n + c*n^2 (boot time: the
kernel does O(n) work per disk), and power law a*n^b (fitted in log-log
space).  A model is only considered when it leaves at least one degree of
freedom (more distinct disk counts than parameters), so that its residuals
say something; the one with the smallest residual standard error
sqrt(SSR / (points - parameters)) is chosen.  A model whose curve falls
with more disks is refused as unphysical for time and memory.
"""

import math
from dataclasses import dataclass, field

import numpy as np

MIN_COUNTS = 3       # distinct disk counts below which nothing is fitted


@dataclass
class Fit:
    model: str                   # "linear", "quadratic", "power"
    params: dict
    formula: str
    points: list                 # [(n, measured, fitted)]
    dof: int
    ok: bool = True
    refused: str = ""            # why the model was not eligible

    def predict(self, n):
        p = self.params
        if self.model == "linear":
            return p["a"] + p["b"] * n
        if self.model == "quadratic":
            return p["a"] + p["b"] * n + p["c"] * n * n
        return p["a"] * n ** p["b"]

    @property
    def residuals(self):
        return [m - f for _, m, f in self.points]

    @property
    def ssr(self):
        return sum(r * r for r in self.residuals)

    @property
    def stderr(self):
        """Residual standard error, in the figure's unit."""
        return math.sqrt(self.ssr / self.dof) if self.dof > 0 else None

    @property
    def max_abs_residual(self):
        return max(abs(r) for r in self.residuals)

    @property
    def rms_relative(self):
        """RMS of residual/measured: the model's error on measured points."""
        rel = [(m - f) / m for _, m, f in self.points if m]
        return math.sqrt(sum(r * r for r in rel) / len(rel)) if rel else None


@dataclass
class Choice:
    chosen: Fit = None
    candidates: list = field(default_factory=list)
    reason: str = ""             # why nothing was fitted, if so
    counts: list = field(default_factory=list)   # distinct disk counts


def _linear(xs, ys):
    b, a = np.polyfit(xs, ys, 1)
    return {"a": float(a), "b": float(b)}


def _quadratic(xs, ys):
    c, b, a = np.polyfit(xs, ys, 2)
    return {"a": float(a), "b": float(b), "c": float(c)}


def _power(xs, ys):
    b, log_a = np.polyfit(np.log(xs), np.log(ys), 1)
    return {"a": float(math.exp(log_a)), "b": float(b)}


def _formula(model, p):
    if model == "linear":
        return f"{p['a']:.4g} + {p['b']:.4g}*n"
    if model == "quadratic":
        return f"{p['a']:.4g} + {p['b']:.4g}*n + {p['c']:.4g}*n^2"
    return f"{p['a']:.4g} * n^{p['b']:.4g}"


MODELS = {"linear": (_linear, 2), "quadratic": (_quadratic, 3),
          "power": (_power, 2)}


def _refusal(model, p, xs, ys):
    if model == "power" and (min(ys) <= 0 or min(xs) <= 0):
        return "power law needs positive values"
    if model == "linear" and p["b"] < 0:
        return "falls with more disks"
    if model == "quadratic" and p["c"] < 0:
        return "bends down: falls for large n"
    if model == "quadratic" and p["c"] > 0 and -p["b"] / (2 * p["c"]) > \
            min(xs):
        return "falls between the measured disk counts"
    if model == "power" and p["b"] < 0:
        return "falls with more disks"
    return ""


def fit_one(model, points):
    """Fit one model to [(n, value)]; None if it has no degree of freedom."""
    func, nparams = MODELS[model]
    xs = np.array([float(n) for n, _ in points])
    ys = np.array([float(v) for _, v in points])
    dof = len(points) - nparams
    if len(set(xs)) < nparams + 1:
        return None
    if model == "power" and (min(ys) <= 0 or min(xs) <= 0):
        return Fit(model, {}, "", [], dof, ok=False,
                   refused="power law needs positive values")
    p = func(xs, ys)
    fit = Fit(model, p, _formula(model, p), [], dof)
    fit.points = [(n, v, fit.predict(n)) for n, v in points]
    fit.refused = _refusal(model, p, xs, ys)
    fit.ok = not fit.refused
    return fit


def choose(points, models=("linear", "quadratic", "power")):
    """The best eligible model for [(n, value)] (n > 0), or why none."""
    points = sorted((n, v) for n, v in points
                    if n is not None and v is not None)
    counts = sorted({n for n, _ in points})
    if len(counts) < MIN_COUNTS:
        return Choice(reason=f"{len(counts)} disk count(s) measured "
                      f"({', '.join(str(c) for c in counts) or 'none'}); "
                      f"a fit needs at least {MIN_COUNTS}", counts=counts)
    cands = [f for f in (fit_one(m, points) for m in models) if f]
    eligible = [f for f in cands if f.ok]
    if not eligible:
        return Choice(candidates=cands, counts=counts,
                      reason="no model fits without falling with more disks")
    best = min(eligible, key=lambda f: f.stderr)
    return Choice(best, cands, counts=counts)
