"""The blkscale command line, above the launcher (blkscale), bench
(blkscale_bench) and reports (blkscale_reports), in a folder of its own
(cli/): main.py."""
