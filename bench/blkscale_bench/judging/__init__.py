"""Judging a finished sweep: the nightly's verdict against committed
baselines, the runs themselves, ceilings and every disk, JUnit XML.

    nightly.py    the verdict of a sweep, and nightly.json
    compare.py    a figure against its baseline
    ceilings.py   a figure against a sweep file's fixed limit
    runcheck.py   the runs: each brought its results, every disk found
    everydisk.py  every planned disk proven, by kind
    power.py      the repeats a time needs, planned at once
    baseline.py   bench/baselines/<variant>.json
    junit.py      the checks as JUnit XML
"""
