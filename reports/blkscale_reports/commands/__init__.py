"""The report subcommand of ./blkscale."""
