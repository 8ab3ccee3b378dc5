"""Prediction intervals of a fitted model (fit.Fit): where a new
measurement at n disks should fall, with 95% probability, if the model
is right and the noise is what its residuals show.

For linear and quadratic least squares: y0 +- t(0.975, dof) * s *
sqrt(1 + x0' (X'X)^-1 x0), s the residual standard error, X the design
matrix of the fitted points (1, n[, n^2]); the power law is linear in
log-log space and its interval is computed there and exponentiated.
The interval widens with the distance from the measured disk counts:
at 10,000 disks it says how little an extrapolation from a few
hundred knows.
"""

import math

import numpy as np
from scipy import stats

LEVEL = 0.95


def _design(model, ns, scale):
    x = np.asarray(ns, dtype=float) / scale
    cols = [np.ones_like(x), x] + ([x * x] if model == "quadratic" else [])
    return np.column_stack(cols)


def interval(f, n, level=LEVEL):
    """(low, high) of the prediction at n disks, or None when the fit
    has no degree of freedom."""
    if f is None or not f.ok or f.dof < 1 or not f.points:
        return None
    ns = [p[0] for p in f.points]
    if f.model == "power":
        ns_t = [math.log(v) for v in ns]
        ys = [math.log(p[1]) for p in f.points]
        fitted = [math.log(p[2]) for p in f.points]
        x0, center, model, scale = math.log(n), math.log(f.predict(n)), \
            "linear", 1.0
    else:
        ns_t, ys, fitted = ns, [p[1] for p in f.points], \
            [p[2] for p in f.points]
        x0, center, model, scale = n, f.predict(n), f.model, max(ns)
    X = _design(model, ns_t, scale)
    ssr = sum((y - g) ** 2 for y, g in zip(ys, fitted))
    s = math.sqrt(ssr / f.dof)
    xtx_inv = np.linalg.pinv(X.T @ X)
    row = _design(model, [x0], scale)[0]
    half = stats.t.ppf(0.5 + level / 2, f.dof) * s * \
        math.sqrt(1.0 + float(row @ xtx_inv @ row))
    low, high = center - half, center + half
    if f.model == "power":
        return math.exp(low), math.exp(high)
    return low, high


def band(f, ns, level=LEVEL):
    """[(n, low, high)] for the plot; empty without an interval."""
    out = []
    for n in ns:
        iv = interval(f, n, level)
        if iv is None:
            return []
        out.append((n, iv[0], iv[1]))
    return out
