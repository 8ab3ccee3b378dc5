"""The report subcommand of blkscale (report.py) and its --help."""

COMMANDS = {
    "report": "Write RUN_DIR/report/: index.html, report.md and PNG plots "
              "(major capacity, register/lookup cost, /proc/devices, boot "
              "time model, boot curve and goals, memory per disk, fio/LVM, "
              "capacity planning) from a sweep "
              "(results/<run>/manifest.json) or a launcher run "
              "(results/<run>/summary.json).",
}
