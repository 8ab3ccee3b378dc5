"""The summary beside the page, for programs: summary.json (the run, and
per topology its caption, sentences and one record per figure and
variant) and summary.csv (the same records, one line each)."""

import csv
import json
import os

from blkscale.results import REPORT_SUMMARY_FILE

from . import summary

COLUMNS = ["topology", "disks", "figure", "label", "unit", "variant",
           "kernel", "reference", "repeats", "median", "low", "high",
           "coverage", "ratio", "ratio_low", "ratio_high", "ratio_text",
           "verdict"]


def write(a, out_dir):
    records = summary.records(a.summary)
    doc = {"run": a.run.meta.get("run"), "runs": a.runs_line,
           "topologies": [{"topology": b.topology, "disks": b.disks,
                           "reference": b.reference,
                           "caption": summary.caption(b),
                           "sentences": b.sentences,
                           "figures": [r for r in records
                                       if r["topology"] == b.topology]}
                          for b in a.summary]}
    with open(os.path.join(out_dir, REPORT_SUMMARY_FILE), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    with open(os.path.join(out_dir, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(records)
