"""Unknown keys in a sweep file's tables, reported as FILE: FIELD: PROBLEM."""

from .errors import BenchError


def check_keys(table, known, where, fieldname=None):
    """BenchError naming the first key of `table` not in `known`."""
    if not isinstance(table, dict):
        raise BenchError(where, fieldname, "must be a table")
    for key in table:
        if key not in known:
            raise BenchError(where, f"{fieldname}.{key}" if fieldname
                             else key, "unknown key (known keys: "
                             + ", ".join(known) + ")")
