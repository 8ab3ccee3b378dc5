"""rerun-rounds runs the tests again round after round, with a fake
blktests ./check: every round's output where results.awk reads it, each
test once a round, and the rounds stop once a test has oopsed the kernel
(taint D), but not for a taint the kernel had before the suite."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
LAYER = HERE.parents[0] / "initramfs" / "blktests"

# A stand-in for blktests' ./check: each test's statuses come from
# FAKE_STATUSES ("scsi/007=failed,passed,..."), one per call; with
# FAKE_OOPS set, the first call taints the kernel (D, 128).
FAKE_CHECK = r"""#!/bin/bash
while getopts c:o: opt; do
	case $opt in c) ;; o) res=$OPTARG ;; esac
done
shift $((OPTIND - 1))
n=$(( $(cat "$FAKE_DIR/calls" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$FAKE_DIR/calls"
[ -n "${FAKE_OOPS:-}" ] && echo 128 >"$BLKSCALE_TAINTED"
for t in "$@"; do
	list=$(printf '%s\n' $FAKE_STATUSES | sed -n "s;^$t=;;p")
	status=$(echo "$list" | cut -d, -f"$n")
	mkdir -p "$res/sda/${t%/*}"
	printf 'status\t%s\nruntime\t1.5s\n' "$status" >"$res/sda/$t"
	echo "$t => sda (a test)    "
	echo "$t => sda (a test)    [$status]"
done
"""


@pytest.fixture
def bt(tmp_path):
    if not shutil.which("gawk"):
        pytest.skip("gawk is not installed (make deps)")
    d = tmp_path / "blktests"
    d.mkdir()
    (d / "check").write_text(FAKE_CHECK)
    (d / "check").chmod(0o755)
    (tmp_path / "out").mkdir()
    (tmp_path / "tainted").write_text("0\n")
    return tmp_path


def rerun(bt, reruns, statuses, taint0="0", oops=False):
    env = {"PATH": "/usr/bin:/bin", "FAKE_DIR": str(bt),
           "FAKE_STATUSES": statuses,
           "BLKSCALE_TAINTED": str(bt / "tainted")}
    if oops:
        env["FAKE_OOPS"] = "1"
    out = subprocess.run([str(LAYER / "rerun-rounds"), str(bt / "out"),
                          str(reruns), taint0, "block/003", "scsi/007"],
                         cwd=bt / "blktests", env=env, capture_output=True,
                         text=True, check=True)
    rounds, stopped = out.stdout.split("\n")[:2]
    return int(rounds), stopped


def reruns_section(bt, rounds, stopped):
    """What results.awk makes of the rounds, as run-blktests calls it."""
    main = bt / "out" / "check.log"
    main.write_text("scsi/007 => sda (a test)   [failed]\n")
    logs = [str(bt / "out" / "rerun" / str(r) / "check.log")
            for r in range(1, rounds + 1)]
    out = subprocess.run(
        ["gawk", "-f", str(LAYER / "results.awk"),
         "-v", f"results={bt / 'out' / 'results'}", "-v", "devmap=scsi-0=sda",
         "-v", "check_rc=1", "-v", "wall_s=1", "-v", "reruns=3",
         "-v", "rerun_tests=block/003 scsi/007", "-v", f"rounds={rounds}",
         "-v", f"stopped={stopped}", "-v", "rerun_wall_s=9", str(main),
         *logs], capture_output=True, env={"LC_ALL": "C"}, check=True)
    return json.loads(out.stdout)["reruns"]


def test_every_test_runs_once_a_round(bt):
    rounds, stopped = rerun(bt, 3, "block/003=passed,passed,passed "
                            "scsi/007=failed,passed,failed")
    assert (rounds, stopped) == (3, "")
    section = reruns_section(bt, rounds, stopped)
    got = [(r["round"], r["test"], r["status"], r["runtime_s"])
           for r in section["runs"]]
    assert got == [(1, "block/003", "passed", 1.5),
                   (1, "scsi/007", "failed", 1.5),
                   (2, "block/003", "passed", 1.5),
                   (2, "scsi/007", "passed", 1.5),
                   (3, "block/003", "passed", 1.5),
                   (3, "scsi/007", "failed", 1.5)]


def test_an_oops_stops_the_rounds(bt):
    rounds, stopped = rerun(bt, 5, "block/003=passed scsi/007=failed",
                            oops=True)
    assert rounds == 1
    assert stopped == "the kernel oopsed (taint D) before round 2"
    section = reruns_section(bt, rounds, stopped)
    assert section["rounds"] == 1 and len(section["runs"]) == 2
    assert section["stopped"] == stopped


def test_a_taint_from_before_the_suite_does_not_stop_them(bt):
    (bt / "tainted").write_text("128\n")
    rounds, stopped = rerun(bt, 2, "block/003=passed,passed "
                            "scsi/007=passed,passed", taint0="128")
    assert (rounds, stopped) == (2, "")
