"""blkscale launcher: topology files in, QEMU runs and results.json out.

The package lives in launcher/blkscale, below bench (blkscale_bench) and
reports (blkscale_reports); the blkscale command (blkscale_cli) stands
above all three.
"""

# Version of the launcher itself, recorded in results.json.
VERSION = "1.0"
