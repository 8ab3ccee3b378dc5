"""Benchmark sweeps over topologies and kernel variants, and the nightly
regression verdict against committed baselines.

A sweep runs the launcher (`blkscale run`) once per topology and variant
as a child process and keeps its results under
results/<run>/<topology>/<variant>/, with results/<run>/manifest.json
describing how the figures were made (see bench/README.md).

    running/      the sweep: launcher children here or on libvirt hosts
    judging/      the nightly's verdict, baselines, ceilings, JUnit
    sweepfile.py  a sweep file (curvespec.py: its [[series]], [[goals]])
    repeats.py    a sweep's results by repeat, and their figures
    table.py      the closing table (bootcurve_table.py: the boot curve)
    commands/     blkscale bench, nightly and baseline

What bench and reports both compute is in blkscale.figures; the
documents are read and written through blkscale.results.
"""

from blkscale.paths import REPO

BENCH = REPO / "bench"
