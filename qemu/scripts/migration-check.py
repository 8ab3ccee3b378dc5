#!/usr/bin/python3
"""Does a migration stream of one QEMU load into another?

    qemu/scripts/migration-check.py SOURCE_QEMU TARGET_QEMU

Both start the same machine (two virtio-scsi controllers with scsi-hd
disks on null-co nodes, virtio-blk disks), paused, and make the same
changes over QMP: a disk removed (the one with the highest instance id
of its idstr), two added.  The source saves its state to a file; the
target loads it.  A section whose idstr and instance id the target does
not have makes the load fail, so a load that completes says the two
binaries give every device the same instance ids.  Run it with the
distro and the patched binary both ways round.  Exit 0 if the load
completed, 1 if not, 2 on bad usage.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time

DISKS_PER_CONTROLLER = 3


def machine_args(qmp):
    args = ["-machine", "pc", "-accel", "tcg", "-nodefaults", "-display",
            "none", "-S", "-qmp", f"unix:{qmp},server=on,wait=off"]
    for c in range(2):
        args += ["-device", f"virtio-scsi-pci,id=sc{c}"]
        for d in range(DISKS_PER_CONTROLLER):
            args += ["-blockdev", f"driver=null-co,node-name=n{c}{d},"
                     "size=1048576",
                     "-device", f"scsi-hd,bus=sc{c}.0,scsi-id={d},"
                     f"drive=n{c}{d},id=d{c}{d}"]
    for b in range(2):
        args += ["-blockdev", f"driver=null-co,node-name=b{b},size=1048576",
                 "-device", f"virtio-blk-pci,drive=b{b},id=vb{b}"]
    return args


# The same changes on both sides: the last disk of sc0 goes (the highest
# "scsi-disk" compat id but one), and two come on sc1.
CHANGES = [("device_del", {"id": "d02"}),
           ("blockdev-add", {"driver": "null-co", "node-name": "h0",
                             "size": 1048576}),
           ("device_add", {"driver": "scsi-hd", "bus": "sc1.0",
                           "scsi-id": 5, "drive": "h0", "id": "h0"}),
           ("blockdev-add", {"driver": "null-co", "node-name": "h1",
                             "size": 1048576}),
           ("device_add", {"driver": "scsi-hd", "bus": "sc0.0",
                           "scsi-id": 6, "drive": "h1", "id": "h1"})]


class Qmp:
    def __init__(self, path, deadline):
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.file = self.sock.makefile("rw")
        self.read()
        self.command("qmp_capabilities")

    def read(self):
        line = self.file.readline()
        if not line:
            raise EOFError("QMP closed")
        return json.loads(line)

    def command(self, name, **args):
        self.file.write(json.dumps({"execute": name, "arguments": args})
                        + "\n")
        self.file.flush()
        while True:
            reply = self.read()
            if "return" in reply or "error" in reply:
                if "error" in reply:
                    raise RuntimeError(f"{name}: {reply['error']['desc']}")
                return reply["return"]


def start(qemu, tmp, name, extra=()):
    qmp = os.path.join(tmp, name + ".qmp")
    log = open(os.path.join(tmp, name + ".log"), "w")
    proc = subprocess.Popen([qemu, *machine_args(qmp), *extra],
                            stdout=log, stderr=subprocess.STDOUT)
    return proc, Qmp(qmp, time.monotonic() + 60)


def migrated(q, proc, deadline):
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        status = q.command("query-migrate").get("status")
        if status in ("completed", "failed"):
            return status == "completed"
        time.sleep(0.1)
    return False


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    source_qemu, target_qemu = argv[1], argv[2]
    with tempfile.TemporaryDirectory(prefix="migration-check-") as tmp:
        state = os.path.join(tmp, "state")
        src, q = start(source_qemu, tmp, "source")
        try:
            for name, args in CHANGES:
                q.command(name, **args)
            time.sleep(0.5)     # device_del completes asynchronously
            q.command("migrate", uri=f"exec:cat > {state}")
            ok = migrated(q, src, time.monotonic() + 60)
        finally:
            src.kill()
            src.wait()
        if not ok:
            print("migration-check: the source did not save its state",
                  file=sys.stderr)
            return 1
        dst, q = start(target_qemu, tmp, "target", ["-incoming", "defer"])
        try:
            for name, args in CHANGES:
                q.command(name, **args)
            time.sleep(0.5)
            q.command("migrate-incoming", uri=f"exec:cat {state}")
            ok = migrated(q, dst, time.monotonic() + 60)
        except (EOFError, OSError, RuntimeError):
            ok = False
        finally:
            dst.kill()
            dst.wait()
        with open(os.path.join(tmp, "target.log")) as f:
            log = f.read().strip()
    verdict = "loads" if ok else "does NOT load"
    print(f"{source_qemu} -> {target_qemu}: the state {verdict}"
          + (f" ({log.splitlines()[-1]})" if log and not ok else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
