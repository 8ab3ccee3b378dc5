"""Exit statuses and the one error type a user sees from bench commands."""

EXIT_OK = 0
EXIT_FAILED = 1         # a run failed, or the nightly found a regression
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class BenchError(Exception):
    """Bad input: one line naming the file and the field."""
    status = EXIT_USAGE

    def __init__(self, path, field, problem):
        self.path = str(path)
        self.field = field
        where = f"{self.path}: {field}: " if field else f"{self.path}: "
        super().__init__(where + problem)
