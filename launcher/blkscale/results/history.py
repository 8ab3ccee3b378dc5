"""The nightly's history: one JSON line per night and judged figure,
kept beside the nights' run directories (results/nightly-history.jsonl).

Each line: the night (its run id), its date, the project's commit, the
kernel releases, the figure (topology, variant, metric), whether it
gates and its limit, its median and interval over the night's repeats
(stats.Summary as nightly.json carries it), and the night's verdict on
it.  The nightly writes a night's lines when it judges it (again when
it judges it again: a night's lines are replaced, never doubled);
`blkscale report --history` reads them, or makes them from nights' run
directories.
"""

import json
import os
import tempfile

from ..errors import InputError

FILENAME = "nightly-history.jsonl"
FIELDS = ("night", "date", "commit", "kernels", "topology", "variant",
          "figure", "gate", "median", "low", "high", "level", "repeats",
          "verdict", "night_verdict")


def _bounds(spread):
    """(low, high, level) of a spread: its interval, else min-max."""
    iv = spread.get("interval")
    if iv:
        return iv.get("low"), iv.get("high"), iv.get("level")
    return spread.get("min"), spread.get("max"), None


def night_lines(manifest, nightly):
    """The lines of one night from its manifest and nightly.json: every
    check that carries a figure's spread."""
    git = manifest.get("git") or {}
    out = []
    for c in nightly.get("checks") or []:
        spread = c.get("spread") if isinstance(c, dict) else None
        if not isinstance(spread, dict) or spread.get("median") is None:
            continue
        low, high, level = _bounds(spread)
        out.append({
            "night": nightly.get("run") or manifest.get("run"),
            "date": manifest.get("finished") or manifest.get("started"),
            "commit": git.get("commit"),
            "kernels": manifest.get("kernels") or {},
            "topology": c.get("topology"), "variant": c.get("variant"),
            "figure": c.get("metric"),
            "gate": bool((c.get("limit") or {}).get("gate", True)),
            "median": spread["median"], "low": low, "high": high,
            "level": level, "repeats": spread.get("n"),
            "limit": c.get("limit"), "verdict": c.get("status"),
            "night_verdict": nightly.get("verdict")})
    return out


def read(path):
    """The lines of a history file; a line that is not a history line is
    an InputError naming the file and the line."""
    out = []
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise InputError(path, None, f"unreadable history: {e}") from None
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            doc = json.loads(line)
        except ValueError as e:
            raise InputError(path, f"line {i}", f"not JSON: {e}") from None
        missing = [k for k in FIELDS if not isinstance(doc, dict)
                   or k not in doc]
        if missing:
            raise InputError(path, f"line {i}",
                             f"missing {', '.join(missing)}")
        out.append(doc)
    return out


def record(path, lines):
    """Put a night's lines into the history at path, in place of any the
    night had there; written whole and renamed into place."""
    nights = {line["night"] for line in lines}
    kept = [x for x in read(path) if x["night"] not in nights] \
        if os.path.exists(path) else []
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".jsonl",
                               dir=directory)
    try:
        with os.fdopen(fd, "w") as f:
            for line in kept + lines:
                f.write(json.dumps(line, sort_keys=True) + "\n")
        os.chmod(tmp, 0o644)
        os.rename(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
