"""The run's pathfail lines: a wait that ran out says where it stood,
from the last row of the step's timeline, and a run whose paths all came
back says nothing more."""

import json

from launchertest import REPO

from blkscale.session import pathlines

RUN = REPO / "reports" / "tests" / "fixtures" / "pathfail-run" / "debian" \
    / "results.json"
STEPS = [{"name": "multipath"}, {"name": "pathfail"}]
FIELDS = ["request", "s", "paths", "ready", "kernel_uevents", "udev_events",
          "udev_unread_bytes", "mpd_removed", "mpd_added"]


def _lines(tmp_path, **pathfail):
    doc = json.loads(RUN.read_text())
    doc["pathfail"].update(pathfail)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(doc))
    return pathfail_lines(path)


def pathfail_lines(path):
    return [line.strip() for line in pathlines.lines(str(path), STEPS)]


def test_paths_back_in_time_say_no_more(tmp_path):
    out = _lines(tmp_path, timeline_fields=FIELDS,
                 timeline=[["paths-up", 12.0, 16, 16, 40, 40, 0, 8, 8]])
    assert len(out) == 2
    assert out[0].startswith("paths 1 removed for 10 s")


def test_a_wait_that_ran_out_says_who_held_the_paths(tmp_path):
    out = _lines(tmp_path, reinstate_s=None, timeline_fields=FIELDS,
                 timeline=[["paths-down", 9.8, 1000, 1000, 5000, 5000, 0,
                            1000, 0],
                           ["paths-up", 900.2, 1003, 1051, 12000, 9800,
                            4096, 1000, 54]])
    assert len(out) == 3
    assert out[2] == (
        "the wait for paths-up ran out at 900.2 s with 1003 paths in maps "
        "(1051 ready): udev processed 9800 of the kernel's 12000 uevents, "
        "4096 bytes unread by udevd; multipathd removed 1000 and added 54 "
        "paths")


def test_without_udev_the_line_says_so(tmp_path):
    out = _lines(tmp_path, failover_s=None, timeline_fields=FIELDS,
                 timeline=[["paths-down", 60.1, 16, 8, None, None, None,
                            0, 0]])
    assert out[2].endswith("(8 ready): no udev in the guest; multipathd "
                           "removed 0 and added 0 paths")
