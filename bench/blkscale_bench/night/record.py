"""A night's record, results/<kind>-<night>/parts.json (kind nightly or
weekly, each with its own parts, parts.KINDS): each part's
status, exit, verdict, the runs it made, when it started and finished
(UTC) and its wall time.  Written whole after every change, so that a
sitting cut off outright leaves every part it finished.

    status    not-run | running | done | interrupted
    verdict   PASS | REGRESSION | INCONCLUSIVE when done, else null

The night's verdict: REGRESSION when a part failed, else INCONCLUSIVE
when a part is undecided, else UNFINISHED while a part is still to run
(not run, or interrupted), else PASS.
"""

import datetime
import json
import os

from blkscale.names import RUN_ID
from blkscale.results.atomic import write_json_atomic

from ..errors import BenchError
from .parts import KINDS

FILENAME = "parts.json"
SCHEMA = {"name": "blkscale-night", "version": 2}
NOT_RUN, RUNNING, DONE, INTERRUPTED = ("not-run", "running", "done",
                                       "interrupted")
STATUSES = (NOT_RUN, RUNNING, DONE, INTERRUPTED)
PASS, REGRESSION, INCONCLUSIVE, UNFINISHED = ("PASS", "REGRESSION",
                                              "INCONCLUSIVE", "UNFINISHED")
VERDICTS = (PASS, REGRESSION, INCONCLUSIVE)
# UNFINISHED is never 0: a night with parts still to run is no pass.
EXIT = {PASS: 0, REGRESSION: 1, INCONCLUSIVE: 3, UNFINISHED: 4}


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds")


def new_night_id():
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y%m%d-%H%M%S")


def night_dir(results, night, kind):
    return os.path.join(results, f"{kind}-{night}")


def _new_part(name):
    return {"name": name, "status": NOT_RUN, "verdict": None, "exit": None,
            "run_id": None, "runs": [], "started": None, "finished": None,
            "wall_s": None, "command": None}


class Night:
    def __init__(self, path, doc):
        self.path = path
        self.doc = doc

    @classmethod
    def create(cls, results, night, kind):
        doc = {"schema": SCHEMA, "night": night, "kind": kind,
               "created": utc_now(),
               "parts": [_new_part(n) for n in KINDS[kind]]}
        return cls(os.path.join(night_dir(results, night, kind), FILENAME),
                   doc)

    @classmethod
    def load(cls, path, kind):
        try:
            with open(path) as f:
                doc = json.load(f)
        except OSError as e:
            raise BenchError(path, None, e.strerror) from None
        except (ValueError, RecursionError) as e:
            raise BenchError(path, None, f"not valid JSON: {e}") from None
        night = os.path.basename(os.path.dirname(os.path.abspath(path)))
        _check(doc, path, night[len(kind) + 1:], kind)
        return cls(path, doc)

    @property
    def night(self):
        return self.doc["night"]

    @property
    def kind(self):
        return self.doc["kind"]

    @property
    def parts(self):
        return self.doc["parts"]

    def part(self, name):
        return self.parts[KINDS[self.kind].index(name)]

    def save(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        write_json_atomic(self.path, self.doc)

    def still_to_run(self):
        return [p["name"] for p in self.parts if p["status"] != DONE]

    def verdict(self):
        said = {p["verdict"] for p in self.parts}
        for v in (REGRESSION, INCONCLUSIVE):
            if v in said:
                return v
        return UNFINISHED if self.still_to_run() else PASS


def newest_unfinished(results, kind):
    """The night of that kind under results/ with parts still to run that
    was created last, or None."""
    try:
        entries = sorted(os.listdir(results))
    except FileNotFoundError:
        return None
    found = []
    for entry in entries:
        path = os.path.join(results, entry, FILENAME)
        if entry.startswith(kind + "-") and os.path.isfile(path):
            night = Night.load(path, kind)
            if night.still_to_run():
                found.append(night)
    return max(found, key=lambda n: _time(n.doc["created"]), default=None)


def _time(text):
    return datetime.datetime.fromisoformat(text)


def _fail(path, field, problem):
    raise BenchError(path, field, problem)


def _check(doc, path, night, kind):
    """The record as this module writes it, or one line naming the file
    and the field that is not."""
    if not isinstance(doc, dict):
        _fail(path, None, "must be a JSON object")
    if doc.get("schema") != SCHEMA:
        _fail(path, "schema", f"must be {json.dumps(SCHEMA)}")
    if doc.get("night") != night:
        _fail(path, "night", f"must be {night!r}, the directory's night")
    if doc.get("kind") != kind:
        _fail(path, "kind", f"must be {kind!r}, the directory's kind")
    created = doc.get("created")
    if not isinstance(created, str) or not _is_time(created):
        _fail(path, "created", "must be a UTC date and time (ISO 8601)")
    parts = doc.get("parts")
    if not isinstance(parts, list) or \
            [p.get("name") if isinstance(p, dict) else None
             for p in parts] != list(KINDS[kind]):
        _fail(path, "parts", "must list the parts "
              + ", ".join(KINDS[kind]) + ", in that order, each an object")
    for i, part in enumerate(parts):
        _check_part(part, path, f"parts[{i}]")


def _check_part(part, path, where):
    status = part.get("status")
    if status not in STATUSES:
        _fail(path, f"{where}.status", "must be one of "
              + ", ".join(STATUSES) + f"; got {status!r}")
    done = status == DONE
    verdict = part.get("verdict")
    if done and verdict not in VERDICTS:
        _fail(path, f"{where}.verdict", "must be one of "
              + ", ".join(VERDICTS) + f" when done; got {verdict!r}")
    if not done and verdict is not None:
        _fail(path, f"{where}.verdict", f"must be null when {status}")
    code = part.get("exit")
    if not (code is None and not done or _is_int(code)):
        _fail(path, f"{where}.exit", "must be an exit status"
              + (" when done" if done else " or null"))
    for key in ("run_id", "command"):
        if part.get(key) is not None and not isinstance(part[key], str):
            _fail(path, f"{where}.{key}", "must be a string or null")
    runs = part.get("runs")
    if not isinstance(runs, list) or \
            not all(isinstance(r, str) and RUN_ID.fullmatch(r) for r in runs):
        _fail(path, f"{where}.runs", "must be a list of run ids")
    for key in ("started", "finished"):
        value = part.get(key)
        if value is not None and not (isinstance(value, str)
                                      and _is_time(value)):
            _fail(path, f"{where}.{key}", "must be a UTC date and time "
                  "(ISO 8601) or null")
    wall = part.get("wall_s")
    if wall is not None and (isinstance(wall, bool) or
                             not isinstance(wall, (int, float)) or wall < 0):
        _fail(path, f"{where}.wall_s", "must be seconds (>= 0) or null")


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _is_time(text):
    try:
        return _time(text).tzinfo is not None
    except ValueError:
        return False
