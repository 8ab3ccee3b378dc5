#!/usr/bin/python3
"""A stand-in for qemu-system-x86_64 that plays one scenario.

Used through BLKSCALE_QEMU to test the launcher's process handling
without booting a kernel.  It understands the launcher's command line:
the console and results file chardevs and the QMP socket.  The scenario
comes from FAKE_QEMU_SCENARIO:

  ok            boot, report every disk, DONE ok, exit 0
  step-failed   as ok, but the census step fails
  missing       as ok, but one disk fewer than the command line declares
  hang          console output, then silence forever
  slow-boot     console output every second, never reaching /init
  panic         a kernel panic on the console, then exit 0 (-no-reboot)
  panic-stay    a kernel panic, then stay alive
  boot-panic    a panic on the 8250 (chardev "serial", the boot console
                before the virtio console) and nothing on the console
  die           exit 1 in the middle of the boot
  fail-start    exit 1 before the QMP socket exists
  truncated     the results stream stops inside a section, exit 0
  bad-count     a section whose byte count is wrong
  garbage       a line that is not a record
  no-done       everything but BLKSCALE-DONE
  kvm-hang      under -accel kvm: silence (a probe must give up); else ok
  kvm-ok        under -accel kvm: reach init and exit; else ok
  hotplug-refused  device_add answers with an error (as QEMU does for a
                LUN address taken twice); else ok

With -S the guest waits for QMP `cont`; scsi-hd devices added over QMP
(device_add) before it count as disks like those of the command line.

FAKE_QEMU_LOG, if set, is a file to which each invocation appends its pid
and accelerator, so tests can check what ran and that it is gone.
FAKE_QEMU_CONSOLE_KIB and FAKE_QEMU_SECTION_KIB make the console and the
census section that many KiB larger (to fill a results directory).
"""

import json
import os
import socket
import sys
import threading
import time


def option_values(argv, name):
    return [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == name]


def chardev_paths(argv):
    out = {}
    for spec in option_values(argv, "-chardev"):
        fields = dict(kv.split("=", 1) for kv in spec.split(",")[1:]
                      if "=" in kv)
        out[fields.get("id")] = fields.get("path")
    return out


HOTPLUGGED = []         # scsi-hd device_add arguments, in order
RUNNING = threading.Event()


def serve_qmp(path, scenario):
    """Answer QMP in a thread; returns an Event set once a client is in."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)
    connected = threading.Event()

    def loop():
        conn, _ = server.accept()
        connected.set()
        # Separate files: a text "rw" file loses what it read ahead when
        # written to, and QMP clients may send several commands at once.
        f = conn.makefile("w")
        f.write(json.dumps({"QMP": {"version": {"qemu": {"major": 7}},
                                    "capabilities": []}}) + "\n")
        f.flush()
        for line in conn.makefile("r"):
            msg = json.loads(line)
            cmd = msg.get("execute")
            reply = {"return": {}}
            if cmd == "device_add":
                if scenario == "hotplug-refused":
                    reply = {"error": {"class": "GenericError",
                                       "desc": "LUN is already in use"}}
                elif msg["arguments"].get("driver") == "scsi-hd":
                    HOTPLUGGED.append(msg["arguments"])
            if "id" in msg:
                reply["id"] = msg["id"]
            if cmd == "cont":
                RUNNING.set()
            f.write(json.dumps(reply) + "\n")
            f.flush()
            if cmd == "quit":
                os._exit(0)

    threading.Thread(target=loop, daemon=True).start()
    return connected


def section(name, value):
    text = json.dumps(value) + "\n"
    return (f"BLKSCALE-SECTION {name}\n{text}"
            f"BLKSCALE-END {name} {len(text.encode())}\n")


def disks_from(argv):
    devices = option_values(argv, "-device")
    vd = sum(1 for d in devices if d.startswith("virtio-blk-pci,"))
    sd = sum(1 for d in devices if d.startswith("scsi-hd,"))
    return vd, sd


def suffix(n):
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(97 + r) + out
    return out


def main(argv):
    if "--version" in argv:
        print("QEMU emulator version 7.2.0 (blkscale test double)")
        return 0
    scenario = os.environ.get("FAKE_QEMU_SCENARIO", "ok")
    accel = (option_values(argv, "-accel") or ["tcg"])[0].split(",")[0]
    log = os.environ.get("FAKE_QEMU_LOG")
    if log:
        with open(log, "a") as f:
            f.write(f"{os.getpid()} {accel}\n")
    if scenario == "fail-start":
        print("qemu-system-x86_64: -device bogus: not a device",
              file=sys.stderr)
        return 1
    paths = chardev_paths(argv)
    # QEMU creates every file chardev as it starts.
    for spec in option_values(argv, "-chardev"):
        if spec.startswith("file,"):
            open(chardev_paths(["-chardev", spec]).popitem()[1], "a").close()
    console = open(paths["console"], "w", buffering=1)
    results = open(paths["results"], "w", buffering=1) \
        if "results" in paths else None
    # Like a guest that takes a moment to boot: play after QMP is up.
    serve_qmp(paths["qmp"], scenario).wait(5)
    if "-S" in argv:
        RUNNING.wait(60)
    else:
        RUNNING.set()

    def say(line):
        console.write(line + "\n")

    def send(text):
        results.write(text)

    # A real kernel's first lines reach the boot console, the 8250.
    if "serial" in paths:
        with open(paths["serial"], "w") as serial:
            serial.write("[    0.000000] Linux version 6.1.0-fake\n")
    else:
        say("[    0.000000] Linux version 6.1.0-fake")
    for i in range(int(os.environ.get("FAKE_QEMU_CONSOLE_KIB", 0)) * 16):
        say(f"[    0.1{i:05d}] filler line of a chatty kernel {'.' * 17}")
    if accel == "kvm" and scenario == "kvm-hang":
        while True:
            time.sleep(1)
    if accel == "kvm" and scenario == "kvm-ok" and results is None:
        # The probe boot (no results port): reach init and stop.
        say("[    0.500000] Run /init as init process")
        time.sleep(0.2)
        return 0
    if scenario == "boot-panic":
        with open(paths.get("serial") or paths["console"], "w") as serial:
            serial.write("[    0.000000] Linux version 6.1.0-fake\n"
                         "[    0.100000] Kernel panic - not syncing: "
                         "early trouble\n")
        time.sleep(0.3)
        return 0
    if scenario == "hang":
        while True:
            time.sleep(1)
    if scenario == "slow-boot":
        for i in range(100000):
            say(f"[ {i:9d}.000000] still probing")
            time.sleep(1)
    vd, sd = disks_from(argv)
    sd += len(HOTPLUGGED)
    if scenario == "missing":
        vd = max(0, vd - 1)
    for i in range(vd):
        say(f"[    0.2{i:05d}] virtio_blk virtio{i + 1}: [vd{suffix(i)}] "
            "131072 512-byte logical blocks (67.1 MB/64.0 MiB)")
    for i in range(sd):
        say(f"[    0.3{i:05d}] sd 0:0:{i}:0: [sd{suffix(i)}] "
            "Attached SCSI disk")
    if scenario == "die":
        time.sleep(0.3)
        print("qemu-system-x86_64: fake emulation failure", file=sys.stderr)
        return 1
    if scenario in ("panic", "panic-stay"):
        say("[    0.400000] Kernel panic - not syncing: VFS: Unable to "
            "mount root fs on unknown-block(0,0)")
        say("[    0.400001] ---[ end Kernel panic - not syncing ]---")
        if scenario == "panic-stay":
            while True:
                time.sleep(1)
        return 0
    say("[    0.500000] Run /init as init process")
    send("BLKSCALE-HELLO 1 6.1.0-fake 0.50\n")
    send("BLKSCALE-PHASE settle 0.51\n")
    if scenario == "garbage":
        send("\x00\x01 this is not a record\n")
    disks = [{"name": f"vd{suffix(i)}", "major": 254, "minor": 16 * i,
              "sectors": 131072} for i in range(vd)]
    disks += [{"name": f"sd{suffix(i)}", "major": 8, "minor": 16 * i,
               "sectors": 65536} for i in range(sd)]
    # The clocksource a TCG guest ends up with for this command line.
    append = " ".join(option_values(argv, "-append"))
    send(section("guest", {"release": "6.1.0-fake", "meminfo_kib": {
        "MemTotal": 500000, "MemAvailable": 400000, "Slab": 4000},
        "clocksource": "tsc" if "tsc=reliable" in append.split()
        else "hpet"}))
    send(section("disks", {"disks": disks}))
    if scenario == "truncated":
        send("BLKSCALE-SECTION census\n{\"disks\": [")
        time.sleep(0.2)
        return 0
    if scenario == "bad-count":
        send('BLKSCALE-SECTION census\n{"ok": true}\nBLKSCALE-END census 3\n')
    verdict = "failed" if scenario == "step-failed" else "ok"
    send("BLKSCALE-PHASE census 0.60\n")
    census = {"found": vd + sd}
    pad = int(os.environ.get("FAKE_QEMU_SECTION_KIB", 0))
    if pad:
        census["filler"] = "x" * (pad * 1024)
    send(section("census", census))
    send(f"BLKSCALE-STEP census {verdict} 0.60 0.70"
         + (" exit 1: 2 disks missing" if verdict == "failed" else "") + "\n")
    # The kernel's log from its ring buffer, as /init sends it.
    dmesg = ("[    0.000000] Linux version 6.1.0-fake\n"
             "[    0.300000] sd 0:0:0:0: [sda] Attached SCSI disk\n")
    send(f"BLKSCALE-LOG dmesg {len(dmesg.encode())}\n{dmesg}")
    if scenario != "no-done":
        send(f"BLKSCALE-DONE {verdict} 0.80\n")
    say("blkscale: done: ok")
    time.sleep(0.2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
