"""One `blkscale run`: its variants booted one after the other
(variant.py), the live progress line, signal handling and summary.json."""
