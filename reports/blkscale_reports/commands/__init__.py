"""The report and slab subcommands of blkscale and their --help."""

from blkscale.results import REPORT_SUMMARY_FILE
from blkscale.results.manifest import FILENAME as MANIFEST
from blkscale.results.runresults import FILENAME as RESULTS
from blkscale.results.runsummary import FILENAME as SUMMARY

COMMANDS = {
    "report": "Write RUN_DIR/report/: index.html led by the summary "
              "table (each kernel's median with its interval and its ratio "
              f"to the reference), report.md, summary.csv, "
              f"{REPORT_SUMMARY_FILE} and "
              "PNG plots (major capacity, register/lookup cost, "
              "/proc/devices, boot time, boot curve and goals, memory per "
              "disk, fio/LVM, capacity planning) from a sweep "
              f"(results/<run>/{MANIFEST}) or a launcher run "
              f"(results/<run>/{SUMMARY}). --disks N prints what N disks "
              "cost instead; --history draws the nightly's nights side by "
              "side.",
    "slab": "Memory per disk by slab cache: SMALL and LARGE are "
            f"{RESULTS} of one kernel with different disk counts; "
            "prints each cache's growth per added disk, the most first "
            "(the guest records /proc/slabinfo when the kernel has it).",
}
