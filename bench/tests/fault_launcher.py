#!/usr/bin/python3
"""The real launcher, with one fault injected into one repeat of a sweep:
for the nightly's end-to-end tests with real guests (BLKSCALE_LAUNCHER).

FAULT_REPEAT    the repeat to break (the sweep names a staged run
                <topology>.<variant>.<repeat>)
FAULT           panic: that run boots FAULT_TOPOLOGY instead, a topology
                whose test-only `fault` step panics the kernel;
                short: QEMU gets every disk but the last virtio-blk one
                (drop_disk_qemu.py), so the census comes up one short
"""

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LAUNCHER = HERE.parents[1] / "blkscale"


def _arg(argv, name):
    return argv[argv.index(name) + 1] if name in argv else None


def main(argv):
    env = dict(os.environ)
    run_id = _arg(argv, "--run-id") or ""
    if argv[:1] == ["run"] and \
            run_id.rsplit(".", 1)[-1] == os.environ.get("FAULT_REPEAT"):
        fault = os.environ.get("FAULT")
        if fault == "panic":
            argv = ["run", os.environ["FAULT_TOPOLOGY"]] + argv[2:]
        elif fault == "short":
            env["BLKSCALE_REAL_QEMU"] = env.get("BLKSCALE_QEMU",
                                                "qemu-system-x86_64")
            env["BLKSCALE_QEMU"] = str(HERE / "drop_disk_qemu.py")
        else:
            print(f"fault_launcher: FAULT: unknown fault {fault!r}",
                  file=sys.stderr)
            return 2
    os.execve(str(LAUNCHER), [str(LAUNCHER)] + argv, env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
