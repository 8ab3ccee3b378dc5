"""Helpers of the glue-stress tests: boot a topology with the gluestress
step through `./blkscale run`, and the verdict on what came home
(results.json, the console, the kernel's whole log).

A module of its own, as fuzzrun.py, so that the verdict is tested fast
on captured logs and made-up results (test_gluestress_verdict.py) and
used as it is by the nightly run (test_gluestress_debug.py).
"""

import json
import re
import subprocess

import fuzzrun

# A nightly run that did fewer rounds proves little.
MIN_HOST_ROUNDS = 10
# The classes whose glue directories hang under every scsi_debug disk of
# the debug kernel (kernel/configs/debug.config builds in sg and bsg).
CLASSES = "block scsi_disk scsi_device scsi_generic bsg"
# What a glue directory race looks like besides fuzzrun's splats.
GLUE_SPLAT = re.compile(r"sysfs: cannot create duplicate filename|"
                        r"kobject_add_internal failed|refcount_t: ")


def run(topology, variant, workdir, timeout):
    """./blkscale run; returns (results or None, console, dmesg, output)."""
    fuzzrun.require_built(variant)
    results = workdir / "results"
    out = subprocess.run(
        [str(fuzzrun.REPO / "blkscale"), "run", str(topology), "--variant",
         variant, "--accel", "tcg", "--run-id", "gluestress",
         "--results-dir", str(results), "--quiet"], cwd=fuzzrun.REPO,
        capture_output=True, text=True, timeout=timeout)
    vdir = results / "gluestress" / variant

    def text(name):
        path = vdir / name
        return path.read_text(errors="replace") if path.exists() else ""

    doc_path = vdir / "results.json"
    doc = json.loads(doc_path.read_text()) if doc_path.exists() else None
    return (doc, text("console.log"), text("dmesg.log"),
            f"exit status {out.returncode}\n{out.stdout}{out.stderr}")


def log_problems(name, text):
    """The first splat of a log, as a one-element list, or []."""
    expected, other = fuzzrun.splats(text)
    other += [line.strip() for line in text.splitlines()
              if GLUE_SPLAT.search(line)]
    if other:
        return [f"{name}: {other[0]}"]
    if expected:    # no step of this run asks for a WARN
        return [f"{name}: {expected} WARNs of unregister_blkdev"]
    return []


def section_problems(g):
    """What the gluestress section says went wrong, or too little done."""
    found = list(g.get("problems") or [])
    if g.get("host_rounds", 0) < MIN_HOST_ROUNDS:
        found.append(f"{g.get('host_rounds', 0)} host rounds, fewer than "
                     f"{MIN_HOST_ROUNDS}")
    for key in ("luns_deleted", "luns_readded", "kernel_scsi_devices_added",
                "reader_walks"):
        if not g.get(key):
            found.append(f"{key} is {g.get(key)}")
    if g.get("scsi_devices_after") != g.get("scsi_devices_before"):
        found.append(f"{g.get('scsi_devices_after')} SCSI devices after the "
                     f"stress, {g.get('scsi_devices_before')} before")
    check = g.get("check") or {}
    sysfs = check.get("sysfs") or {}
    klog = check.get("kernel_log") or {}
    leak = check.get("kmemleak") or {}
    if sysfs.get("classes") != CLASSES:
        found.append(f"glue classes checked: {sysfs.get('classes')!r}, "
                     f"not {CLASSES!r}")
    if sysfs.get("scsi_devices") != g.get("scsi_devices_before"):
        found.append(f"gluecheck saw {sysfs.get('scsi_devices')} SCSI "
                     f"devices")
    for area, part in (("sysfs", sysfs), ("kernel log", klog),
                       ("kmemleak", leak)):
        if part.get("problems"):
            found.append(f"{area}: {part['found'][0]}")
    if not (klog.get("checked") and klog.get("has_start")):
        found.append("the kernel log was not checked whole")
    if not (g.get("kmemleak") and leak.get("checked")):
        found.append("kmemleak was not checked")
    if g.get("lockdep_debug_locks") != 1:
        found.append(f"lockdep was not on at the end (debug_locks "
                     f"{g.get('lockdep_debug_locks')})")
    return found


def problems(doc, console, dmesg):
    """Every reason the run fails; [] when it passed."""
    if doc is None:
        return ["no results.json"] + log_problems("console", console)
    found = []
    steps = {s["name"]: s for s in doc.get("steps", [])}
    step = steps.get("gluestress")
    if step is None:
        found.append("the gluestress step did not report")
    elif step["verdict"] != "ok":
        found.append(f"gluestress {step['verdict']}: {step['message']}")
    section = doc.get("gluestress")
    if isinstance(section, dict):
        found += section_problems(section)
    else:
        found.append("no gluestress section")
    found += log_problems("console", console)
    found += log_problems("dmesg.log", dmesg)
    return found
