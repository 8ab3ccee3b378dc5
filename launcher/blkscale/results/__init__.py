"""The three documents of a run: results.json (one variant's boot),
summary.json (a launcher run) and manifest.json (a sweep).  Everything
that writes or reads them goes through this package (schemas:
launcher/RESULTS.md, bench/README.md).

    document.py  results.json of one variant, from the guest's stream
    manifest.py  a sweep's manifest.json, written after every run
    atomic.py    every JSON file written whole or not at all
    read.py      the reader of all three, and the rules that read
                 figures out of them
"""

RESULTS_SCHEMA = {"name": "blkscale-results", "version": 1}
SUMMARY_SCHEMA = {"name": "blkscale-summary", "version": 1}
SWEEP_SCHEMA = {"name": "blkscale-sweep", "version": 1}
