"""results.json and summary.json: the launcher writes them, bench and
reports read them, all through this package (schema: launcher/RESULTS.md).

    document.py  results.json of one variant, from the guest's stream
    atomic.py    every JSON file written whole or not at all
    read.py      the reader bench and reports share
"""

RESULTS_SCHEMA = {"name": "blkscale-results", "version": 1}
SUMMARY_SCHEMA = {"name": "blkscale-summary", "version": 1}
