#!/usr/bin/python3
"""A stand-in for the parts of a night in the bench tests
(BLKSCALE_NIGHTLY_PART): `fake_part.py PART RUN_ID` exits as the part's
sweep would, without running one.

FAKE_PART_EXIT   `PART=STATUS ...`: those parts' exit status (default 0)
FAKE_PART_WAIT   a part that waits for a signal, then exits 130 as a
                 sweep a signal stopped does
FAKE_PART_READY  a file written once that part waits
FAKE_PART_LOG    a file to append one line per call, `PART RUN_ID`, and
                 `PART SIGNAME` for a signal it got
"""

import os
import signal
import sys


def log(text):
    path = os.environ.get("FAKE_PART_LOG")
    if path:
        with open(path, "a") as f:
            f.write(text + "\n")


def main(part, run_id):
    log(f"{part} {run_id}")
    if os.environ.get("FAKE_PART_WAIT") == part:
        def stopped(signum, _frame):
            log(f"{part} {signal.Signals(signum).name}")
            sys.exit(130)
        signal.signal(signal.SIGINT, stopped)
        signal.signal(signal.SIGTERM, stopped)
        with open(os.environ["FAKE_PART_READY"], "w") as f:
            f.write(f"{os.getpid()}\n")
        while True:
            signal.pause()
    statuses = dict(w.split("=", 1) for w in
                    os.environ.get("FAKE_PART_EXIT", "").split())
    return int(statuses.get(part, 0))


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
