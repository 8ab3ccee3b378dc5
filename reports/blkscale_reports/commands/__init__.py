"""The report subcommand of blkscale (report.py) and its --help."""

COMMANDS = {
    "report": "Write RUN_DIR/report/: index.html led by the summary "
              "table (each kernel's median with its interval and its ratio "
              "to the reference), report.md, summary.csv, summary.json and "
              "PNG plots (major capacity, register/lookup cost, "
              "/proc/devices, boot time, boot curve and goals, memory per "
              "disk, fio/LVM, capacity planning) from a sweep "
              "(results/<run>/manifest.json) or a launcher run "
              "(results/<run>/summary.json). --disks N prints what N disks "
              "cost instead; --history draws the nightly's nights side by "
              "side.",
}
