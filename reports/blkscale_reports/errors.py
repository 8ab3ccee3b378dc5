"""The one error a user sees from `blkscale report`."""

EXIT_USAGE = 2


class ReportError(Exception):
    """Bad input: one line naming the file and the field."""
    status = EXIT_USAGE

    def __init__(self, path, field, problem):
        where = f"{path}: {field}: " if field else f"{path}: "
        super().__init__(where + problem)
