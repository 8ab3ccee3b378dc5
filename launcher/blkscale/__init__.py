"""blkscale launcher: topology files in, QEMU runs and results.json out.

The package lives in launcher/blkscale; the top-level ./blkscale script puts
launcher/, bench/ and reports/ on the import path and calls
blkscale.cli.main().
"""

# Version of the launcher itself, recorded in results.json.
VERSION = "1.0"
