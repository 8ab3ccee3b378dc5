"""The blkscale command line, above the launcher (blkscale), bench
(blkscale_bench) and reports (blkscale_reports): main.py."""
