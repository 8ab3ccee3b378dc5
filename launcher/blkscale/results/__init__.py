"""The three documents of a run: results.json (one variant's boot),
summary.json (a launcher run) and manifest.json (a sweep).  Everything
that writes or reads them goes through this package, and only it names
their files (schemas: launcher/RESULTS.md, bench/README.md).

    record.py      what the documents share: a frozen record over the
                   document, its schema checked, from_json and to_json
    runresults.py  results.json as a record (Results), its file
    document.py    results.json of one variant, from the guest's stream
    runsummary.py  summary.json as a record (Summary), its file
    manifest.py    a sweep's manifest.json: its only writer (Manifest),
                   saved after every change, and its record
                   (SweepManifest)
    atomic.py      every JSON file written whole or not at all
    read.py        the readers of all three, and the rules that read
                   figures out of them
"""

RESULTS_SCHEMA = {"name": "blkscale-results", "version": 1}
SUMMARY_SCHEMA = {"name": "blkscale-summary", "version": 1}
SWEEP_SCHEMA = {"name": "blkscale-sweep", "version": 1}

# The report's own summary for programs, beside its pages (reports'
# summary_files.py): another document of the same name as a run's.
REPORT_SUMMARY_FILE = "summary.json"
