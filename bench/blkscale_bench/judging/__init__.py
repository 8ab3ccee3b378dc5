"""Judging a finished sweep: the nightly's verdict against committed
baselines, the runs themselves, ceilings and every disk, JUnit XML.
The verdicts themselves are figures (blkscale/figures/: compare.py, a
figure against its baseline; ceilings.py, against a sweep file's fixed
limit; everydisk.py, every planned disk proven, by kind).

    nightly.py    the verdict of a sweep, and nightly.json
    runcheck.py   the runs: each brought its results, every disk found
    power.py      the repeats a time needs, planned at once
    baseline.py   bench/baselines/<variant>.json
    junit.py      the checks as JUnit XML
"""
