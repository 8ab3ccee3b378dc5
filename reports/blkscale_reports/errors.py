"""The one error a user sees from `blkscale report`."""

from blkscale.errors import InputError

EXIT_USAGE = InputError.status


class ReportError(InputError):
    """Bad input: one line naming the file and the field."""
