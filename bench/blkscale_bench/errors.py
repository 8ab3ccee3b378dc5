"""Exit statuses and the one error type a user sees from bench commands."""

from blkscale.errors import InputError

EXIT_OK = 0
EXIT_FAILED = 1         # a run failed, a regression, or a goal failed
EXIT_USAGE = InputError.status
# Nothing failed, but a gating time or goal could not be decided, even
# with the repeats the nightly may add: never a pass, so never 0; a CI
# system chooses whether it is red.
EXIT_INCONCLUSIVE = 3
EXIT_INTERRUPTED = 130


class BenchError(InputError):
    """Bad input: one line naming the file and the field."""
