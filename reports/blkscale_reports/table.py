"""Tables as data, rendered to HTML and Markdown by the same rows."""

from dataclasses import dataclass, field


@dataclass
class Table:
    id: str
    title: str
    columns: list
    rows: list = field(default_factory=list)
    note: str = ""


def fmt(value, digits=0):
    """Numbers as the page shows them: fixed decimals, no separators."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and digits == 0:
        return str(value)
    return f"{value:.{digits}f}"


def pct(value):
    return "-" if value is None else f"{100 * value:.1f}%"
