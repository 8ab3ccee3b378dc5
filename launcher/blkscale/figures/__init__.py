"""The figures layer: what bench and reports both compute from results
documents, so that a sweep's table, the nightly's verdict and a report
say the same numbers.

    stats.py       a figure over repeats: median, spread, interval, ratios
    metrics.py     the named figures of one results.json
    clockfloor.py  the guest clock's floor under a ns figure
    hostload.py    the host's load during a run, and when it counts
    loadband.py    how far a host's load could move a time
    marginal.py    the cost of one more disk along a boot curve
    verdict.py     a spread against a limit: PASS, FAIL or INCONCLUSIVE
    onesided.py    a time's repeats against a limit, one-sided, and how
                   many repeats would decide it
    bootcurve.py   the boot curve of a sweep and its goals
"""
