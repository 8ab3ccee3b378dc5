"""Exit statuses and the one error type a user sees from bench commands."""

from blkscale.errors import InputError

EXIT_OK = 0
EXIT_FAILED = 1         # a run failed, or the nightly found a regression
EXIT_USAGE = InputError.status
EXIT_INTERRUPTED = 130


class BenchError(InputError):
    """Bad input: one line naming the file and the field."""
