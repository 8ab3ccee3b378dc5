"""results.awk turns blktests' ./check output into the blktests section.

Fed check output as blktests prints it when stdout is not a terminal
(each test's line twice: before it runs, then with its status), with the
per-test files of its results directory; checked field by field.
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
AWK = HERE.parents[0] / "initramfs" / "blktests" / "results.awk"

CHECK_LOG = """\
block/001 => vda (stress device hotplug)                     
block/001 => vda (stress device hotplug)                     [passed]
    runtime  ...  1.234s
block/002 (remove a device while running blktrace)           
block/002 (remove a device while running blktrace)           [failed]
    runtime    ...  0.5s
    --- tests/block/002.out	2025-05-15
    +++ /tmp/blktests/results/nodev/block/002.out.bad
block/003 => sda (run a discard test)                        [failed]
    runtime    ...  2.0s
    exited with status 1
nbd/*** (network block device)                               [not run]
    nbd-client is not available
    driver nbd is not available
block/004 => sda (flush intensive workload)                  [not run]
    device is not rotational
block/039 (configure null_blk with large block size)         [not run]
    runtime  ...  0.477s
    kernel does not support block size larger than 4kb
"""


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())


@pytest.fixture
def results(tmp_path):
    res = tmp_path / "results"
    write(res / "vda" / "block" / "001", "status\tpass\nruntime\t1.234s\n")
    write(res / "nodev" / "block" / "002",
          "status\tfail\nreason\toutput\nruntime\t0.5s\n")
    # Quotes, tabs, a control byte and a byte that is not UTF-8.
    write(res / "nodev" / "block" / "002.diff",
          b'--- a\n+++ b\n-"x"\t\\\n+y\x01\xff\n')
    write(res / "nodev" / "block" / "002.dmesg.cut",
          "[   1.0] WARNING: at block/blk-core.c\n")
    write(res / "sda" / "block" / "003",
          "status\tfail\nreason\texit\nexit_status\t1\nruntime\t2.0s\n")
    write(res / "nodev" / "block" / "039",
          "status\tnot run\nruntime\t0.477s\n")
    return res


def convert(tmp_path, results, log=CHECK_LOG, rc=1, missing=""):
    if not shutil.which("gawk"):
        pytest.skip("gawk is not installed (make deps)")
    log_file = tmp_path / "check.log"
    log_file.write_text(log)
    out = subprocess.run(
        ["gawk", "-f", str(AWK), "-v", f"results={results}",
         "-v", "devmap= vblk-0=vda scsi-0=sda", "-v", f"check_rc={rc}",
         "-v", "wall_s=12.50", "-v", f"modules_missing={missing}",
         str(log_file)],
        capture_output=True, env={"LC_ALL": "C"}, check=True)
    return json.loads(out.stdout.decode("ascii"))


def by_name(doc):
    return {(t["test"], t["device"]): t for t in doc["tests"]}


def test_every_status_line_is_one_test(tmp_path, results):
    doc = convert(tmp_path, results)
    assert [t["test"] for t in doc["tests"]] == [
        "block/001", "block/002", "block/003", "nbd/***", "block/004",
        "block/039"]
    assert doc["summary"] == {"passed": 1, "failed": 2, "not_run": 3,
                              "total": 6}
    assert doc["check_exit_status"] == 1
    assert doc["wall_s"] == 12.5
    assert doc["devices"] == {"vblk-0": "vda", "scsi-0": "sda"}
    assert doc["modules_missing"] == []


def test_modules_the_kernel_lacks_are_listed(tmp_path, results):
    """modlayer.sh's list, one a line, of a modular kernel's image."""
    doc = convert(tmp_path, results, missing="dm_dust\nublk_drv")
    assert doc["modules_missing"] == ["dm_dust", "ublk_drv"]


def test_passed_test_has_device_serial_and_runtime(tmp_path, results):
    t = by_name(convert(tmp_path, results))[("block/001", "vda")]
    assert t["status"] == "passed"
    assert t["serial"] == "vblk-0"
    assert t["runtime_s"] == 1.234
    assert t["reason"] is None and t["diff"] is None


def test_output_failure_carries_its_diff_and_dmesg(tmp_path, results):
    t = by_name(convert(tmp_path, results))[("block/002", None)]
    assert t["status"] == "failed"
    assert t["reason"] == "output"
    assert t["diff"] == '--- a\n+++ b\n-"x"\t\\\n+y??'
    assert "WARNING: at block/blk-core.c" in t["dmesg"]


def test_exit_failure_names_the_status(tmp_path, results):
    t = by_name(convert(tmp_path, results))[("block/003", "sda")]
    assert t["status"] == "failed"
    assert t["reason"] == "exit status 1"
    assert t["serial"] == "scsi-0"


def test_not_run_keeps_every_reason(tmp_path, results):
    tests = by_name(convert(tmp_path, results))
    assert tests[("nbd/***", None)]["reason"] == (
        "nbd-client is not available; driver nbd is not available")
    assert tests[("block/004", "sda")]["reason"] == "device is not rotational"


def test_runtime_of_a_test_that_skipped_while_running_is_no_reason(
        tmp_path, results):
    t = by_name(convert(tmp_path, results))[("block/039", None)]
    assert t["status"] == "not run"
    assert t["reason"] == "kernel does not support block size larger than 4kb"
    assert t["runtime_s"] == 0.477


def test_no_status_line_gives_no_tests(tmp_path, results):
    doc = convert(tmp_path, results, log="bash: ./check: not found\n", rc=127)
    assert doc["tests"] == []
    assert doc["summary"]["total"] == 0


RERUN_LOG = """\
scsi/007 => sda (Trigger the SCSI error handler)             [{}]
    runtime  ...  3.1s
"""


def rerun_round(tmp_path, r, status, diff=None):
    """One round of reruns as run-blktests lays it out: rerun/<r>/."""
    d = tmp_path / "rerun" / str(r)
    write(d / "check.log", RERUN_LOG.format(status))
    fields = "status\tfail\nreason\toutput\n" if status == "failed" else ""
    write(d / "results" / "sda" / "scsi" / "007", fields + "runtime\t3.1s\n")
    if diff:
        write(d / "results" / "sda" / "scsi" / "007.diff", diff)
    return d / "check.log"


def convert_reruns(tmp_path, results, rounds, stopped=""):
    if not shutil.which("gawk"):
        pytest.skip("gawk is not installed (make deps)")
    log_file = tmp_path / "check.log"
    log_file.write_text(CHECK_LOG)
    out = subprocess.run(
        ["gawk", "-f", str(AWK), "-v", f"results={results}",
         "-v", "devmap=scsi-0=sda", "-v", "check_rc=1", "-v", "wall_s=12.5",
         "-v", "reruns=5", "-v", "rerun_tests=block/002 scsi/007 ",
         "-v", f"rounds={len(rounds)}", "-v", f"stopped={stopped}",
         "-v", "rerun_wall_s=40.25", str(log_file), *map(str, rounds)],
        capture_output=True, env={"LC_ALL": "C"}, check=True)
    return json.loads(out.stdout.decode("ascii"))


def test_reruns_keep_every_status_and_the_first_failing_diff(tmp_path,
                                                            results):
    rounds = [rerun_round(tmp_path, 1, "passed"),
              rerun_round(tmp_path, 2, "failed", "-failed\n+succeeded\n"),
              rerun_round(tmp_path, 3, "failed", "-second\n+diff\n")]
    doc = convert_reruns(tmp_path, results, rounds)
    # The first run's tests and counts are those of the main log alone.
    assert doc["summary"]["total"] == 6
    reruns = doc["reruns"]
    assert reruns["requested"] == 5
    assert reruns["tests"] == ["block/002", "scsi/007"]
    assert reruns["rounds"] == 3
    assert reruns["stopped"] is None
    assert reruns["wall_s"] == 40.25
    runs = reruns["runs"]
    assert [(r["round"], r["test"], r["serial"], r["status"])
            for r in runs] == [(1, "scsi/007", "scsi-0", "passed"),
                               (2, "scsi/007", "scsi-0", "failed"),
                               (3, "scsi/007", "scsi-0", "failed")]
    assert all(r["runtime_s"] == 3.1 for r in runs)
    assert runs[1]["diff"] == "-failed\n+succeeded"
    assert runs[1]["reason"] == "output"
    assert runs[2]["diff"] is None, "only the first failing diff is kept"


def test_reruns_stopped_by_an_oops_say_why(tmp_path, results):
    doc = convert_reruns(tmp_path, results, [],
                         stopped="the kernel oopsed (taint D) before round 1")
    assert doc["reruns"]["rounds"] == 0
    assert doc["reruns"]["runs"] == []
    assert doc["reruns"]["stopped"].startswith("the kernel oopsed")


def test_no_reruns_asked_for(tmp_path, results):
    doc = convert(tmp_path, results)
    assert doc["reruns"]["requested"] == 0
    assert doc["reruns"]["runs"] == []


RERUN_TESTS = HERE.parents[0] / "initramfs" / "blktests" / "rerun-tests"


def test_every_failed_test_and_every_named_one_runs_again(tmp_path):
    log = tmp_path / "check.log"
    log.write_text(CHECK_LOG)
    out = subprocess.run([str(RERUN_TESTS), str(log), "scsi/007",
                          "block/003"], capture_output=True, text=True,
                         check=True)
    # Failed: block/002 (no device) and block/003; not run and passed
    # tests are not run again; each test once.
    assert out.stdout.split() == ["block/002", "block/003", "scsi/007"]


def test_nothing_failed_nothing_runs_again(tmp_path):
    log = tmp_path / "check.log"
    log.write_text("block/001 => vda (stress device hotplug)   [passed]\n")
    out = subprocess.run([str(RERUN_TESTS), str(log)], capture_output=True,
                         text=True)
    assert out.stdout.strip() == ""
