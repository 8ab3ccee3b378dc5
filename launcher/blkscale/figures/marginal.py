"""How the cost of one more disk changes along a boot curve.

Total time over disks falls with n whenever there is a fixed start-up
cost, so it hides a per-disk cost that grows.  What a curve is judged by
here instead:

- the marginal cost between adjacent points, (t2 - t1) / (n2 - n1):
  seconds per added disk, free of any fixed cost; its growth is the
  marginal cost of the last segment over that of the first (1.0 for
  work linear in the disks);
- a robust quadratic fit t = a + b n + c n^2 (scipy least squares with a
  Cauchy loss scaled to the spread of the ordinary fit's residuals, so
  that one slow point does not bend it), and the share of
  the disk-dependent time at the most disks that its quadratic term
  makes: c n^2 / (b n + c n^2), 0 for a linear curve.
"""

import numpy as np
from scipy import optimize


def segments(points):
    """[(n1, n2, seconds per added disk)] between adjacent distinct
    disk counts of [(n, seconds)] (sorted by n)."""
    pts = sorted(points)
    return [(n1, n2, (t2 - t1) / (n2 - n1))
            for (n1, t1), (n2, t2) in zip(pts, pts[1:]) if n2 != n1]


def growth(points):
    """Marginal cost of the last segment over the first, or None (fewer
    than two segments, or a first segment that did not rise)."""
    segs = segments(points)
    if len(segs) < 2 or segs[0][2] <= 0:
        return None
    return segs[-1][2] / segs[0][2]


def first_ms(points):
    """Milliseconds per added disk on the first segment, or None."""
    segs = segments(points)
    return 1000.0 * segs[0][2] if segs else None


def last_ms(points):
    """Milliseconds per added disk on the last segment, or None."""
    segs = segments(points)
    return 1000.0 * segs[-1][2] if segs else None


def robust_quadratic(points):
    """{a, b, c, quadratic_share} of a soft-L1 quadratic fit, or None
    with fewer than three distinct disk counts."""
    pts = sorted(points)
    if len({n for n, _ in pts}) < 3:
        return None
    n = np.array([float(p[0]) for p in pts])
    t = np.array([float(p[1]) for p in pts])
    scale = n.max()
    x = n / scale                       # keeps the three terms comparable
    start = np.polyfit(x, t, 2)[::-1]   # a, b, c of least squares
    resid = t - (start[0] + start[1] * x + start[2] * x * x)
    # Robust scale of the residuals (MAD as a standard deviation).
    spread = 1.4826 * float(np.median(np.abs(resid - np.median(resid))))
    spread = max(spread, 1e-3 * float(np.median(np.abs(t))), 1e-12)
    res = optimize.least_squares(
        lambda p: p[0] + p[1] * x + p[2] * x * x - t, start,
        loss="cauchy", f_scale=spread)
    a, b, c = (float(v) for v in res.x)
    top = b + c                          # b x + c x^2 at x = 1
    share = c / top if top > 0 else None
    return {"a": a, "b": b / scale, "c": c / (scale * scale),
            "quadratic_share": share}


def quadratic_share(points):
    fit = robust_quadratic(points)
    return None if fit is None else fit["quadratic_share"]
