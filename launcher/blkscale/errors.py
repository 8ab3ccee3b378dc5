"""Exit statuses and the exceptions that carry them.

Every failure the user can see maps to one exit status, so scripts and CI
can tell a failed guest step from a hung guest or a kernel panic.
"""

EXIT_OK = 0
EXIT_STEP_FAILED = 1
EXIT_USAGE = 2
EXIT_GUEST_FAILURE = 3
EXIT_TIMEOUT = 4
EXIT_PANIC = 5
EXIT_RESULTS_UNWRITABLE = 6
EXIT_INTERRUPTED = 130

# When several variants end differently, the run reports the most severe.
_SEVERITY = [EXIT_OK, EXIT_STEP_FAILED, EXIT_GUEST_FAILURE, EXIT_TIMEOUT,
             EXIT_PANIC, EXIT_USAGE, EXIT_RESULTS_UNWRITABLE,
             EXIT_INTERRUPTED]


def worst(statuses):
    """The most severe of several exit statuses (0 for none)."""
    result = EXIT_OK
    for status in statuses:
        if _SEVERITY.index(status) > _SEVERITY.index(result):
            result = status
    return result


def one_line(text):
    """Control and line-separator characters escaped (\\n, \\x01).

    Messages quote values and paths from topology files and the command
    line; escaped, a newline in them cannot split the one-line error.
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class BlkscaleError(Exception):
    """Base class: a message for the user and the exit status to use."""
    status = EXIT_GUEST_FAILURE


class UsageError(BlkscaleError):
    """Bad command line, missing build output, or an invalid topology."""
    status = EXIT_USAGE


class InputError(UsageError):
    """One problem in an input file, reported as `FILE: FIELD: PROBLEM`.

    The launcher's topology files, bench's sweep files and the results
    that bench and reports read all fail this one way; blkscale_cli prints
    the line as it is.
    """

    def __init__(self, path, field, problem):
        self.path = str(path)
        self.field = field
        self.problem = problem
        where = f"{self.path}: {field}: " if field else f"{self.path}: "
        super().__init__(one_line(where + problem))


class TopologyError(InputError):
    """One problem in a topology file."""


class ResultsUnwritable(BlkscaleError):
    """The results directory refused a write (full, read-only, ...).

    The run stops: every later variant would fail the same way after a
    whole boot.  The variant's partial files are removed first.
    """
    status = EXIT_RESULTS_UNWRITABLE


class Interrupted(BlkscaleError):
    """SIGINT or SIGTERM arrived; everything is being torn down."""
    status = EXIT_INTERRUPTED

    def __init__(self, signame):
        self.signame = signame
        super().__init__(f"interrupted by {signame}")
