"""Benchmark sweeps over topologies and kernel variants, and the nightly
regression verdict against committed baselines.

A sweep runs the launcher (`./blkscale run`) once per topology and variant
as a child process and keeps its results under
results/<run>/<topology>/<variant>/, with results/<run>/manifest.json
describing how the figures were made (see bench/README.md).
"""

from blkscale.paths import REPO

BENCH = REPO / "bench"
