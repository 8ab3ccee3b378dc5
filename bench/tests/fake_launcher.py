#!/usr/bin/python3
"""A stand-in for ./blkscale in the bench tests (BLKSCALE_LAUNCHER): it
answers `validate` and `run` like the launcher, writing a results.json
of the real schema with figures chosen by environment variables, without
booting anything.

FAKE_MODE       ok (default) | sleep (wait for a signal) | usage (exit 2)
                | fail (a guest step fails) | panic (a kernel panic: exit
                5, a console log, no results.json)
FAKE_MODE_OTHER the mode of the variants other than FAKE_VARIANT
                (default FAKE_MODE's; the panic mode only ever hits
                FAKE_VARIANT)
FAKE_ONLY_REPEAT  FAKE_MODE, FAKE_DROP, FAKE_BAD_DISK and FAKE_SHORT
                apply to this repeat only (default: every repeat)
FAKE_SHORT      disks the census comes up short by (in FAKE_VARIANT's runs)
FAKE_FACTOR     multiplies the time figures of FAKE_VARIANT (default 1)
FAKE_VARIANT    the variant FAKE_FACTOR and FAKE_DROP apply to
FAKE_REPEAT_FACTORS  comma-separated factors by repeat (1, 2, ...),
                multiplied into FAKE_FACTOR: noise between repeats
FAKE_DROP       a section to leave out, e.g. procdevices
FAKE_BAD_DISK   a serial whose disk the census finds signed as another
                (in FAKE_VARIANT's runs)
FAKE_LOG        file to append one line per call: argv, and signals seen;
                `start RUN-ID cpus LIST` and `end RUN-ID` around a run
FAKE_RUN_S      seconds a run takes (default 0)
FAKE_HOSTS_DIR  a directory of libvirt hosts (`run --libvirt-uri URI`,
                `hosts check`): a host is usable unless the file
                <quoted uri>.dead holds why not; <quoted uri>.die-after
                holds N: the host dies (.dead written) during its N-th
                run; <quoted uri>.no-domain: domains cannot start there

A fake topology file holds only comments: `# disks = N`, and optionally
`# boot.KEY = SECONDS` (a figure of results.json's boot section, e.g.
wall_to_census_s) and `# census = failed` (that run's census fails).
"""

import json
import os
import signal
import sys
import time


def log(text):
    path = os.environ.get("FAKE_LOG")
    if path:
        with open(path, "a") as f:
            f.write(text + "\n")


def curve(n, base, step, width=16):
    return [{"registered": i * width, "p50_ns": base + i * step,
             "p90_ns": base + i * step + 50, "p99_ns": base * 3,
             "max_ns": base * 4, "samples": 48} for i in range(n)]


def results(topology, variant, disks, factor):
    # Variants made from the patched kernel (patched-again, canary) have
    # its figures.
    patched = variant == "patched" or variant.startswith("patched-") or \
        variant == "canary"
    capacity = 3731 if patched else 235
    procdev_base = 30000 if patched else 100000
    points = [{"registered": r, "ns_per_read": (procdev_base + 450 * r)
               * factor, "ns_per_line": 800.5 * factor, "lines": 28 + r,
               "bytes": 264 + 11 * r, "block_majors": 19 + r,
               "verified": True, "requested": None}
              for r in (0, 100, 200, capacity)]
    return {
        "schema": {"name": "blkscale-results", "version": 1},
        "run": {"id": "fake", "started": "2026-01-01T00:00:00+00:00",
                "finished": "2026-01-01T00:01:00+00:00",
                "launcher_version": "1.0"},
        "kernel": {"variant": variant, "release": f"6.1.0-{variant}",
                   "guest_release": f"6.1.0-{variant}"},
        "topology": {"name": topology,
                     "expected": {"virtio": 4, "scsi": disks - 4, "sim": 0,
                                  "total": disks}},
        "host": {"qemu_version": "QEMU emulator version 7.2.99",
                 "accelerator": "tcg", "cpu_model": "Fake CPU",
                 "host_cpus": 2, "vcpus": 2, "memory_mib": 1024,
                 "command": ["qemu-system-x86_64"]},
        "boot": {"qemu_start_s": 0.1, "kernel_to_init_s": 4.0 * factor,
                 "census_complete_s": 4.5 * factor, "guest_done_s": 20.0,
                 "wall_s": 25.0},
        "disks": {"expected": {"total": disks},
                  "found": {"vd": 4, "sd": disks - 4, "nullb": 0,
                            "total": disks}},
        "memory": {"guest_mem_total_kib": 1018096,
                   "guest_mem_available_kib": 890000,
                   "guest_slab_kib": 5000 + 30 * disks,
                   "guest_slab_kib_per_disk": round((5000 + 30 * disks)
                                                    / disks, 2),
                   "qemu_peak_rss_kib": 540000 + 20 * disks},
        "steps": [{"name": s, "verdict": "ok", "start_s": 4.4,
                   "end_s": 4.5, "message": ""}
                  for s in ("census", "majors", "procdevices", "fio", "lvm")],
        "verdict": "ok",
        "warnings": [],
        "census": {"disks_expected": disks, "disks_found": disks,
                   "ok": True, "read_failed": 0, "consistency_errors": 0,
                   "devt_unique": True, "devt_duplicates": 0,
                   "identity": {"expected": disks, "checked": disks,
                                "ok": disks, "mismatched": 0, "missing": 0,
                                "duplicated": 0, "unexpected": 0,
                                "signatures_checked": disks,
                                "signatures_ok": disks, "bad": []}},
        "majors": {"block": {
            "dynamic_capacity": capacity,
            "static_collisions": {"count": 0 if patched else 115,
                                  "first": []},
            "register": curve(16, int(700 * factor), 10),
            "lookup": curve(9, int(4600 * factor), 5, width=1)},
            "char": {"dynamic_capacity": 148}},
        "procdevices": {"points": points},
        "fio": {"disks": 4, "ok": 4, "failed": 0, "jobs": [],
                "disks_expected": 4, "disks_verified": 4, "disks_failed": 0,
                "not_run": []},
        "lvm": {"ok": True, "pvs": 4, "pvcreate_s": 1.2 * factor,
                "vgcreate_s": 0.3, "lvcreate_s": 0.7, "fio_verify_s": 3.5,
                "remove_s": 0.9},
    }


def comments(topology_path):
    """{key: value} of the fake topology's `# key = value` lines."""
    out = {}
    with open(topology_path) as f:
        for line in f:
            if line.startswith("#") and "=" in line:
                key, value = line[1:].split("=", 1)
                out[key.strip()] = value.strip()
    return out


def disks_of(topology_path):
    """The fake topologies say how many disks they have in a comment."""
    return int(comments(topology_path).get("disks", 8))


def arg(argv, name):
    return argv[argv.index(name) + 1]


def host_file(uri, suffix):
    from urllib.parse import quote
    return os.path.join(os.environ["FAKE_HOSTS_DIR"],
                        quote(uri, safe="") + suffix)


def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except FileNotFoundError:
        return None


def host_fault(uri):
    """(exit status, outcome, message) of a run the host spoils, or None.
    Counts the host's runs, and kills it on its die-after-th."""
    dead = read(host_file(uri, ".dead"))
    if dead:
        return 3, "launch-failure", f"{uri}: {dead}"
    if read(host_file(uri, ".no-domain")) is not None:
        return 3, "launch-failure", "libvirt did not start domain x: fake"
    count = int(read(host_file(uri, ".runs")) or 0) + 1
    with open(host_file(uri, ".runs"), "w") as f:
        f.write(str(count))
    die = read(host_file(uri, ".die-after"))
    if die and count >= int(die):
        with open(host_file(uri, ".dead"), "w") as f:
            f.write("cannot connect: libvirtd is gone")
        return 3, "qemu-died", "QEMU exited before the guest was done"
    return None


def hosts_check(argv):
    out = []
    for uri in [a for a in argv[1:] if not a.startswith("--")]:
        dead = read(host_file(uri, ".dead"))
        out.append({"uri": uri, "ok": not dead, "problem": dead,
                    "cpu_model": "Fake CPU " + uri[-1], "cpus": 2,
                    "qemu_version": "QEMU emulator version 7.2.99",
                    "libvirt_version": "9.0.0", "accelerators": ["tcg"]})
    print(json.dumps(out))
    return 0


def run(argv):
    topo_path = argv[1]
    topology = os.path.splitext(os.path.basename(topo_path))[0]
    variant = arg(argv, "--variant")
    run_dir = os.path.join(arg(argv, "--results-dir"), arg(argv, "--run-id"))
    mode = os.environ.get("FAKE_MODE", "ok")
    if os.environ.get("FAKE_VARIANT", variant) != variant:
        mode = os.environ.get("FAKE_MODE_OTHER", mode)
    only = os.environ.get("FAKE_ONLY_REPEAT")
    this_repeat = only is None or \
        arg(argv, "--run-id").rsplit(".", 1)[1] == only
    if not this_repeat:
        mode = "ok"
    if mode == "usage":
        print("blkscale: build/kernel/out/x/bzImage: missing (make kernel)",
              file=sys.stderr)
        return 2
    if mode == "sleep":
        got = []

        def handler(signum, _frame):
            got.append(signal.Signals(signum).name)
            log(f"signal {got[-1]} pid {os.getpid()}")

        signal.signal(signal.SIGINT, handler)
        signal.signal(signal.SIGTERM, handler)
        log(f"sleeping pid {os.getpid()}")
        deadline = time.monotonic() + 60
        while not got and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)     # a second signal would be logged meanwhile
        print("blkscale: interrupted by " + (got[0] if got else "nothing"),
              file=sys.stderr)
        return 130
    run_id = arg(argv, "--run-id")
    cpus = ",".join(str(c) for c in sorted(os.sched_getaffinity(0)))
    log(f"start {run_id} cpus {cpus}")
    time.sleep(float(os.environ.get("FAKE_RUN_S", "0")))
    log(f"end {run_id}")
    if "--libvirt-uri" in argv:
        fault = host_fault(arg(argv, "--libvirt-uri"))
        if fault:
            print(f"blkscale: {fault[2]}", file=sys.stderr)
            return fault_summary(run_dir, variant, *fault)
    targeted = os.environ.get("FAKE_VARIANT", variant) == variant
    if mode == "panic" and targeted:
        os.makedirs(os.path.join(run_dir, variant))
        with open(os.path.join(run_dir, variant, "console.log"), "w") as f:
            f.write("sysrq: Trigger a crash\nKernel panic - not syncing: "
                    "sysrq triggered crash\n")
        return fault_summary(run_dir, variant, 5, "panic", "Kernel panic - "
                             "not syncing: sysrq triggered crash")
    factor = float(os.environ.get("FAKE_FACTOR", "1")) if targeted else 1.0
    by_repeat = os.environ.get("FAKE_REPEAT_FACTORS")
    if by_repeat and targeted:
        # The sweep names a staged run <topology>.<variant>.<repeat>.
        repeat = int(arg(argv, "--run-id").rsplit(".", 1)[1])
        factors = [float(f) for f in by_repeat.split(",")]
        factor *= factors[(repeat - 1) % len(factors)]
    disks = disks_of(topo_path)
    doc = results(topology, variant, disks, factor)
    doc["run"]["id"] = arg(argv, "--run-id")
    doc["host"]["qemu"] = qemu_of(argv)
    for key, value in comments(topo_path).items():
        if key.startswith("boot."):
            doc["boot"][key[5:]] = float(value) * factor
        elif key == "census" and value == "failed":
            doc["steps"][0]["verdict"] = "failed"
    targeted_here = targeted and this_repeat
    short = int(os.environ.get("FAKE_SHORT", "0")) if targeted_here else 0
    if short:
        doc["disks"]["found"]["total"] -= short
    bad = os.environ.get("FAKE_BAD_DISK") if targeted_here else None
    if bad:
        ident = doc["census"]["identity"]
        ident.update(ok=disks - 1, mismatched=1, signatures_ok=disks - 1)
        ident["bad"] = [{"disk": "sdc", "serial": bad, "check": "signature",
                         "problem": "sector 0 is another disk"}]
    drop = os.environ.get("FAKE_DROP") if targeted_here else None
    if drop:
        doc.pop(drop, None)
    status, kind, message = 0, "ok", "ok"
    if mode == "fail" and targeted:
        doc["steps"][0]["verdict"] = "failed"
        status, kind, message = 1, "step-failed", "failed steps: census"
    doc["outcome"] = {"status": status, "kind": kind, "message": message}
    os.makedirs(os.path.join(run_dir, variant))
    with open(os.path.join(run_dir, variant, "results.json"), "w") as f:
        json.dump(doc, f)
    with open(os.path.join(run_dir, variant, "console.log"), "w") as f:
        f.write("fake console\n")
    summary = {"schema": {"name": "blkscale-summary", "version": 1},
               "variants": {variant: {
                   "outcome": kind, "exit_status": status,
                   "message": message,
                   "disks_expected": {"total": disks},
                   "disks_found": {"total": disks},
                   "boot": doc["boot"],
                   "results": f"{variant}/results.json"}}}
    with open(os.path.join(run_dir, "summary.json"), "w") as f:
        json.dump(summary, f)
    print(f"blkscale run fake: {topology} {variant} {kind}")
    return status


def qemu_of(argv):
    """results.json's host.qemu of --qemu (kind and path; no --qemu: the
    distro's, as the fake topologies choose no other)."""
    chosen = arg(argv, "--qemu") if "--qemu" in argv else "distro"
    if chosen == "distro":
        return {"kind": "distro", "path": os.environ.get("BLKSCALE_QEMU")}
    if chosen == "patched":
        return {"kind": "patched", "path": os.path.join(
            os.environ["BUILD"], "qemu", "out", "qemu-system-x86_64")}
    return {"kind": "path", "path": chosen}


def fault_summary(run_dir, variant, status, kind, message):
    os.makedirs(run_dir, exist_ok=True)
    with open(os.path.join(run_dir, "summary.json"), "w") as f:
        json.dump({"schema": {"name": "blkscale-summary", "version": 1},
                   "variants": {variant: {"outcome": kind,
                                          "exit_status": status,
                                          "message": message}}}, f)
    return status


def main(argv):
    log(" ".join(argv))
    if argv[0] == "validate":
        bad = [p for p in argv[1:] if "invalid" in os.path.basename(p)]
        for p in bad:
            print(f"{p}: guest.vcpus: must be 1..255, got 0", file=sys.stderr)
        return 2 if bad else 0
    if argv[0] == "run":
        return run(argv)
    if argv[:2] == ["hosts", "check"]:
        return hosts_check(argv[1:])
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
