"""The bench subcommands of ./blkscale: bench, nightly, baseline."""
