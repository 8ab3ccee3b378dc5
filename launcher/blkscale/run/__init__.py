"""Running guests: one variant at a time, progress, results, summary."""
