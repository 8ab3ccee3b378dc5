"""results.json of one variant (schema in launcher/RESULTS.md).

Built only from a complete, valid results stream, with the launcher's
conclusion (`outcome`) last; written by its record (runresults.py)
whole or not at all.
"""

import os
import re

from .. import VERSION, kernels, paths
from .. import qemubinary as qemu_binary
from ..errors import EXIT_OK, EXIT_STEP_FAILED
from ..topology.model import console_kind
from ..topology.schema import STEP_SECTIONS
from . import RESULTS_SCHEMA, limits
from .runresults import Results

# Sections the launcher interprets rather than copies under their own name.
_INTERPRETED = {STEP_SECTIONS["fio"]}


# Functions of a profile results.json keeps (profile.json has a hundred).
PROFILE_TOP = 10


def profile_digest(summary):
    """What results.json keeps of a guest profile: the sample counts, the
    clocksource's and the console's shares, and the busiest functions as
    shares of the kernel's samples, so that reports and comparisons read
    them without profile.json."""
    kernel = (summary.get("states") or {}).get("kernel", 0)

    def rows(key):
        return [{"symbol": r["symbol"], "samples": r["samples"],
                 "percent": round(100.0 * r["samples"] / kernel, 1)
                 if kernel else 0.0}
                for r in (summary.get(key) or [])[:PROFILE_TOP]]
    return {"file": "profile.json",
            "interval_s": summary.get("interval_s"),
            "samples": summary.get("samples"),
            "kernel_samples": kernel,
            "states": summary.get("states"),
            "shares": {g: v.get("percent")
                       for g, v in (summary.get("shares") or {}).items()},
            "self": rows("self"), "inclusive": rows("inclusive")}


def disks_found(disks_section):
    """Count the guest's block devices by driver family."""
    found = {"vd": 0, "sd": 0, "nullb": 0}
    entries = []
    if isinstance(disks_section, dict):
        entries = disks_section.get("disks") or []
    for disk in entries:
        name = disk.get("name", "") if isinstance(disk, dict) else ""
        for prefix in found:
            if re.fullmatch(prefix + r"[a-z0-9]+", name):
                found[prefix] += 1
                break
    found["total"] = sum(found.values())
    return found


def derive_fio(raw, disk_map, verify, backlog=0):
    """Per-disk verdicts from fio's JSON (section fio_raw).

    A job is ok only when fio's own output shows it worked: no error,
    io_bytes > 0 in every direction its rw= asked for, and, when
    verification was asked (the plan's `verify`, or verify= in fio's
    options), fio's options show a verify phase (verify=, do_verify not
    0) that ran: fio counts its reads as reads, so a job that wrote and
    then verified everything read at least its whole size (its own reads
    plus the read-back of its writes).  A job cut short by runtime= never
    verifies (fio skips the verify phase once the runtime is over) and
    read less.  `verify` of the section says whether every job verified.
    backlog: a time-based job that verified as it wrote (verify_backlog=N
    blocks) stops with at most its last N blocks not yet read back.
    """
    if not isinstance(raw, dict):
        return None
    if "batches" in raw:
        raw = _merge_batches(raw)
    # Directions each rw= value asks for (an ":N" suffix is an offset).
    wants = {"read": ("read",), "randread": ("read",),
             "write": ("write",), "randwrite": ("write",),
             "rw": ("read", "write"), "readwrite": ("read", "write"),
             "randrw": ("read", "write"), "trimwrite": ("write",)}
    options = raw.get("global options") or {}
    jobs = []
    for job in raw.get("jobs") or []:
        name = job.get("jobname", "")
        group, index, disk = disk_map.get(name, (None, None, None))
        opts = dict(options, **(job.get("job options") or {}))
        # the disk the guest found by serial, where fio names it
        filename = str(opts.get("filename") or "")
        if filename.startswith("/dev/"):
            disk = filename[len("/dev/"):]
        entry = {"job": name, "group": group, "index": index, "disk": disk,
                 "serial": name if name in disk_map else None,
                 "error": job.get("error", 0)}
        for rw in ("read", "write"):
            stats = job.get(rw) or {}
            lat = (stats.get("lat_ns") or {}).get("mean")
            entry[rw] = {
                "io_bytes": stats.get("io_bytes", 0),
                "iops": stats.get("iops", 0.0),
                "bw_kib_s": stats.get("bw", 0),
                "lat_mean_us": round(lat / 1000, 3) if lat else None,
            }
        problems = []
        if entry["error"]:
            problems.append(f"fio error {entry['error']}")
        mode = str(opts.get("rw", "read")).split(":")[0]
        for rw in wants.get(mode, ()):
            if not entry[rw]["io_bytes"]:
                problems.append(f"no {rw} I/O (rw={mode})")
        method = str(opts.get("verify", "0"))
        asked = method not in ("0", "none")
        size = _fio_bytes(opts.get("io_size") or opts.get("size"))
        read = entry["read"]["io_bytes"]
        tail = backlog * (_fio_bytes(opts.get("bs")) or 0)
        entry["verified"] = (asked and str(opts.get("do_verify", "1")) != "0"
                             and not entry["error"] and read > 0
                             and read >= entry["write"]["io_bytes"] - tail
                             and (size is None or read >= size))
        if (verify or asked) and not entry["verified"]:
            problems.append("fio reports no verification")
        entry["ok"] = not problems
        entry["problems"] = problems
        jobs.append(entry)
    ok = sum(1 for j in jobs if j["ok"])
    # every planned disk: one without a job (not found by serial, or its
    # batch did not run) failed too
    ran = {j["job"] for j in jobs}
    not_run = sorted(set(disk_map) - ran)
    return {"fio_version": raw.get("fio version"),
            "verify": bool(jobs) and all(j["verified"] for j in jobs),
            "disks": len(jobs), "ok": ok, "failed": len(jobs) - ok,
            "disks_expected": len(disk_map) or len(jobs),
            "disks_verified": sum(1 for j in jobs
                                  if j["ok"] and j["verified"]),
            "disks_failed": len(jobs) - ok + len(not_run),
            "not_run": not_run[:NOT_RUN_LISTED],
            "batches": raw.get("batches_run"),
            "wall_s": raw.get("wall_s"),
            "jobs": jobs}


# Planned disks without a fio job, listed by serial (all are counted).
NOT_RUN_LISTED = 32


def _merge_batches(raw):
    """The fio step's batches as one fio document: the jobs of every
    batch, the global options of the first (they are all the same)."""
    batches = [b for b in raw.get("batches") or [] if isinstance(b, dict)]
    first = batches[0] if batches else {}
    return {"fio version": first.get("fio version"),
            "global options": first.get("global options") or {},
            "jobs": [j for b in batches for j in b.get("jobs") or []
                     if isinstance(j, dict)],
            "batches_run": len(batches), "wall_s": raw.get("wall_s")}


def _fio_bytes(value):
    """fio's size= in bytes (k, m, g, t suffixes, base 1024 as fio's
    default kb_base), or None for what is not a plain size (a %)."""
    match = re.fullmatch(r"(\d+)([kmgt]?)i?b?", str(value or "").lower())
    if not match:
        return None
    return int(match.group(1)) * 1024 ** " kmgt".index(match.group(2) or " ")


def _memory(guest, found_total, peak_rss_kib):
    meminfo = {}
    if isinstance(guest, dict):
        meminfo = guest.get("meminfo_kib") or {}
    slab = meminfo.get("Slab")
    return {
        "guest_mem_total_kib": meminfo.get("MemTotal"),
        "guest_mem_available_kib": meminfo.get("MemAvailable"),
        "guest_slab_kib": slab,
        "guest_slab_kib_per_disk": (round(slab / found_total, 2)
                                    if slab and found_total else None),
        "qemu_peak_rss_kib": peak_rss_kib or None,
    }


def name_warnings(layout, topo, disks_section):
    """Check the predicted virtio_blk names against the disk sizes seen."""
    sizes = {}
    if isinstance(disks_section, dict):
        for d in disks_section.get("disks") or []:
            if isinstance(d, dict):
                sizes[d.get("name")] = d.get("sectors")
    warnings = []
    for (gid, index), name in layout.blk_names().items():
        group = topo.group(gid)
        want = group.size_bytes // 512
        got = sizes.get(name)
        if got is not None and got != want:
            warnings.append(f"{name} has {got} sectors, group {gid} disks "
                            f"have {want}: predicted virtio_blk names may be "
                            "wrong")
            break
    return warnings


def steps_ok(stream):
    """The guest finished and no step of it failed."""
    return stream.done == "ok" and all(s["verdict"] != "failed"
                                       for s in stream.steps)


def outcome(stream, found, expected, limit_hits=(), explained=()):
    """What the launcher concludes of a complete stream: the exit status
    the variant contributes, its kind and a message.  limit_hits: the
    limits the kernel hit that the topology does not expect; explained:
    the expected ones that lost disks (they still count as missing: the
    machine does not have them)."""
    status, kind, message = EXIT_OK, "ok", "ok"
    if limit_hits:
        status, kind = EXIT_STEP_FAILED, "limits-hit"
        message = "limits hit: " + limits.summary(limit_hits)
    elif not steps_ok(stream):
        failed = [s["name"] for s in stream.steps
                  if s["verdict"] == "failed"]
        status, kind = EXIT_STEP_FAILED, "step-failed"
        message = "failed steps: " + (", ".join(failed) or "(none named)")
    elif found["total"] < expected["total"]:
        status, kind = EXIT_STEP_FAILED, "disks-missing"
        message = f"{found['total']} of {expected['total']} disks found"
    if explained and kind in ("step-failed", "disks-missing"):
        # the census fails the disks an expected limit cost: say why
        message += " (expected limits: " + limits.summary(explained) + ")"
    return {"status": status, "kind": kind, "message": message}


def build(ctx, stream):
    """The Results of one finished variant."""
    topo, layout = ctx.planned.topo, ctx.planned.layout
    sections = stream.sections
    found = disks_found(sections.get("disks"))
    steps = stream.steps
    census = next((s for s in steps if s["name"] == "census"), None)
    expected = dict(topo.expected, total=topo.expected_total)
    doc = {
        "schema": RESULTS_SCHEMA,
        "run": {"id": ctx.run_id, "started": ctx.started,
                "finished": ctx.finished, "launcher_version": VERSION},
        "kernel": {"variant": ctx.variant, "release": ctx.release,
                   "guest_release": stream.release,
                   **kernels.recorded(ctx.variant)},
        "topology": {
            "name": topo.name, "file": paths.display(topo.path),
            "description": topo.description, "expected": expected,
            "limits_expected": list(topo.guest.limits_expected),
            "pci": {"devices": len(layout.devices),
                    "bridges": len(layout.bridges)},
        },
        "host": {
            "qemu_version": ctx.qemu_version,
            "qemu": qemu_binary.describe(ctx.argv[0], ctx.qemu_version)
            if ctx.argv else None,
            "accelerator": ctx.accel,
            "backend": ctx.backend,
            "console": console_kind(topo),
            "cpu_model": ctx.host_cpu, "host_cpus": os.cpu_count(),
            "vcpus": topo.guest.vcpus, "memory_mib": topo.guest.memory_mib,
            "command": ctx.argv,
            "late_disks": ctx.late_disks,
            "path_events": ctx.path_events,
        },
        "boot": {
            "qemu_start_s": _round(ctx.qemu_start_s),
            "kernel_to_init_s": stream.init_uptime_s,
            "census_complete_s": census["end_s"] if census else None,
            "guest_done_s": stream.done_uptime_s,
            "wall_to_init_s": _round(ctx.wall_to_init_s),
            "wall_to_census_s": _round(ctx.wall_to_census_s),
            "wall_s": _round(ctx.wall_s),
        },
        "disks": {"expected": expected, "found": found},
        "memory": _memory(sections.get("guest"), found["total"],
                          ctx.peak_rss_kib),
        "steps": steps,
        "verdict": "ok" if stream.done == "ok" else "failed",
        "warnings": ctx.warnings + name_warnings(layout, topo,
                                                 sections.get("disks")),
    }
    for name, value in sections.items():
        if name in _INTERPRETED:
            continue
        if name == "disks":
            doc["disks"]["list"] = (value.get("disks")
                                    if isinstance(value, dict) else value)
            continue
        key = name
        if key in doc:
            # Never let a guest section overwrite what the launcher measured.
            doc["warnings"].append(f"section {name} renamed section_{name}")
            key = f"section_{name}"
        doc[key] = value
    if getattr(ctx, "profiler", None) is not None:
        doc["profile"] = profile_digest(ctx.profiler.summary(top=PROFILE_TOP))
    if "fio_raw" in sections:
        doc["fio"] = derive_fio(sections["fio_raw"], ctx.fio_disk_map,
                                topo.plan.fio.verify)
        doc["fio_raw"] = sections["fio_raw"]
    pathfail = doc.get("pathfail")
    if isinstance(pathfail, dict) and "fio" in pathfail:
        # The fio that ran through the maps while paths were away, judged
        # disk by disk like the fio step's.
        pathfail["fio_derived"] = derive_fio(
            pathfail["fio"], ctx.fio_disk_map, True,
            backlog=pathfail.get("verify_backlog") or 0)
    if topo.sas_groups:
        # Of the SCSI disks, those the census must find below a SAS end
        # device (census.identity.sas_transport).
        doc["topology"]["expected_sas"] = topo.expected_sas
    # What the kernel refused for the number of devices (results/limits.py).
    doc["limits"] = limits.attribute(limits.of(stream.logs.get("dmesg")),
                                     expected["total"], found["total"])
    doc["outcome"] = outcome(
        stream, found, expected,
        limits.unexpected(doc["limits"], topo.guest.limits_expected),
        limits.expected_lost(doc["limits"], topo.guest.limits_expected))
    return Results(doc)


def _round(value):
    return round(value, 3) if value is not None else None
