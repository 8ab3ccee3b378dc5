"""Nightly: the helper module under fuzzing on the debug kernel.

Boots build/kernel/out/debug (the patched kernel with lockdep,
DEBUG_ATOMIC_SLEEP, DEBUG_LIST, SLUB debugging and kmemleak) with the
steps `fuzz selftest` and checks that the fuzzer made at least 100,000
calls without a violation and that the console shows no kernel splat
other than the WARN of unregister_blkdev() that wrong-name unregisters
ask for (the selftest's one, plus those the fuzzer counted).

The launcher cannot run this yet (its topology schema has no `fuzz`
step), so the guest is booted with a minimal QEMU command line of its
own, following guest-tools/PROTOCOL.md, and the results stream is read
with the launcher's parser.

Skipped unless BLKSCALE_NIGHTLY=1: it takes several minutes under TCG.
Needs `make kernel-debug guest-module-debug guest-tools` and
build/initramfs/debug.cpio (`make build/initramfs/debug.cpio`).
BLKSCALE_FUZZ_KEEP=DIR keeps the console log and the guest's sections;
BLKSCALE_FUZZ_TIMEOUT_S and BLKSCALE_FUZZ_HANG_S bound the boot.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "launcher"))

from blkscale.guest import channel, cpio  # noqa: E402

BUILD = Path(os.environ.get("BUILD", REPO / "build"))
if not BUILD.is_absolute():
    BUILD = REPO / BUILD
MIN_CALLS = 100_000
TIMEOUT_S = int(os.environ.get("BLKSCALE_FUZZ_TIMEOUT_S", 2 * 3600))
HANG_S = int(os.environ.get("BLKSCALE_FUZZ_HANG_S", 600))

pytestmark = pytest.mark.skipif(
    os.environ.get("BLKSCALE_NIGHTLY") != "1",
    reason="nightly test (boots the debug kernel under TCG for several "
           "minutes): set BLKSCALE_NIGHTLY=1 to run it")

# First lines of kernel problem reports on the console.
SPLAT = re.compile(
    r"BUG:|BUG [a-z0-9_-]+ \(|WARNING:|Oops|general protection fault|"
    r"kernel BUG|possible circular locking|inconsistent lock state|"
    r"possible recursive locking|list_add corruption|list_del corruption|"
    r"Poison overwritten|Redzone overwritten|UBSAN:|KASAN:|"
    r"INFO: task .* blocked|kmemleak: \d+ new suspected|"
    r"Kernel panic - not syncing")
EXPECTED_WARN = re.compile(r"WARNING: CPU: \d+ PID: \d+ at (?:\S+ )?"
                           r"unregister_blkdev\+0x")


def plan_cpio(variant, steps, args):
    """The per-run archive: /etc/blkscale/plan.env only."""
    values = {
        "BLKSCALE_PROTOCOL": "1",
        "BLKSCALE_RUN": f"fuzz-{variant}",
        "BLKSCALE_VARIANT": variant,
        "BLKSCALE_STEPS": " ".join(steps),
        "BLKSCALE_SETTLE_S": "0",
    }
    values.update({f"BLKSCALE_STEP_ARGS_{k}": v for k, v in args.items()})
    env = "".join(f"{k}={shlex.quote(v)}\n" for k, v in values.items())
    env += "export " + " ".join(values) + "\n"
    w = cpio.NewcWriter()
    w.add_dir("etc/blkscale")
    w.add_file("etc/blkscale/plan.env", env)
    return w.to_bytes()


def qemu_argv(kernel, initrd, console, results, memory_mib, vcpus):
    return ["qemu-system-x86_64", "-machine", "pc",
            "-accel", "tcg,thread=multi", "-m", f"{memory_mib}M",
            "-smp", str(vcpus), "-nodefaults", "-no-user-config",
            "-display", "none", "-no-reboot",
            "-kernel", str(kernel), "-initrd", str(initrd),
            "-append", "console=ttyS0 panic=-1 rdinit=/init",
            "-chardev", f"file,id=console,path={console}",
            "-serial", "chardev:console",
            "-chardev", f"file,id=results,path={results}",
            "-device", "virtio-serial-pci,id=results-bus,"
                       "max_ports=2,vectors=2,disable-legacy=on",
            "-device", "virtserialport,bus=results-bus.0,chardev=results,"
                       "name=org.blkscale.results"]


def boot(variant, steps, args, workdir, memory_mib=2048, vcpus=2,
         timeout_s=TIMEOUT_S):
    """Boot one variant; returns (parsed results, console text)."""
    kernel = BUILD / "kernel" / "out" / variant / "bzImage"
    base = BUILD / "initramfs" / f"{variant}.cpio"
    for need, how in ((kernel, f"make kernel-{variant}"),
                      (base, f"make build/initramfs/{variant}.cpio")):
        if not need.exists():
            pytest.skip(f"{need} is missing ({how})")
    if not shutil.which("qemu-system-x86_64"):
        pytest.skip("qemu-system-x86_64 is not installed (make deps)")
    initrd = workdir / "initrd.cpio"
    cpio.concatenate(base, plan_cpio(variant, steps, args), initrd)
    console = workdir / "console.log"
    results = workdir / "results.stream"
    argv = qemu_argv(kernel, initrd, console, results, memory_mib, vcpus)
    problem = run_qemu(argv, [console, results], timeout_s)
    if problem:
        pytest.fail(f"{variant}: {problem}\n{post_mortem(console)}")
    text = console.read_text(errors="replace")
    try:
        parsed = channel.parse(results.read_bytes())
    except channel.ChannelError as e:
        pytest.fail(f"{variant}: broken results stream: {e}\n"
                    f"{post_mortem(console)}")
    return parsed, text


def run_qemu(argv, outputs, timeout_s, hang_s=HANG_S):
    """Run QEMU to its exit; a message if it had to be stopped.

    The guest is hung (a deadlock, say) when none of the outputs has grown
    for hang_s: the fuzzer prints progress to the console every 10 s.
    """
    start = last_change = time.monotonic()
    sizes = None
    with subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE) as proc:
        while proc.poll() is None:
            time.sleep(2)
            now = time.monotonic()
            new = [p.stat().st_size if p.exists() else 0 for p in outputs]
            if new != sizes:
                sizes, last_change = new, now
            problem = None
            if now - start > timeout_s:
                problem = f"guest still running after {timeout_s} s"
            elif now - last_change > hang_s:
                problem = f"guest silent for {hang_s} s: hung"
            if problem:
                proc.kill()
                proc.wait()
                return problem
        if proc.returncode:
            err = proc.stderr.read().decode(errors="replace")[-2000:]
            return f"QEMU failed ({proc.returncode}): {err}"
    return None


def post_mortem(console):
    """The first kernel problem on the console, else its last lines."""
    try:
        text = console.read_text(errors="replace")
    except FileNotFoundError:
        return "(no console log)"
    expected, other = splats(text)
    if other:
        return context(text, other[0])
    return "console tail:\n" + "\n".join(text.splitlines()[-40:])


def splats(console):
    """Problem lines, and how many were unregister_blkdev's WARN."""
    expected, other = 0, []
    for line in console.splitlines():
        if not SPLAT.search(line):
            continue
        if EXPECTED_WARN.search(line):
            expected += 1
        else:
            other.append(line.strip())
    return expected, other


def context(console, line, before=5, after=30):
    """The console around a problem line, for the failure message."""
    lines = console.splitlines()
    for i, text in enumerate(lines):
        if line in text:
            return "\n".join(lines[max(0, i - before):i + after])
    return line


def test_fuzz_and_selftest_on_debug_kernel(tmp_path):
    results, console = boot("debug", ["fuzz", "selftest"], {}, tmp_path)
    keep = os.environ.get("BLKSCALE_FUZZ_KEEP")
    if keep:    # a directory for the console log and the sections
        os.makedirs(keep, exist_ok=True)
        shutil.copy(tmp_path / "console.log", keep)
        with open(os.path.join(keep, "sections.json"), "w") as f:
            json.dump(results.sections, f, indent=1)
    steps = {s["name"]: s for s in results.steps}
    fuzz = results.sections.get("fuzz")
    assert isinstance(fuzz, dict), f"no fuzz section; steps: {steps}"
    assert fuzz["calls"] >= MIN_CALLS, fuzz
    assert fuzz["violations"] == [], fuzz["violations"]
    assert fuzz["ok"] and steps["fuzz"]["verdict"] == "ok", fuzz["errors"]
    assert fuzz["proc_devices_restored"]
    assert fuzz["kmemleak"]["verdict"] == "clean", fuzz["kmemleak"]
    assert fuzz["kmsg"]["problems"] == 0, fuzz["kmsg"]

    selftest = results.sections.get("selftest")
    assert isinstance(selftest, dict), f"no selftest section; steps: {steps}"
    assert selftest["failed"] == 0 and steps["selftest"]["verdict"] == "ok", [
        t for t in selftest["tests"] if t["status"] == "fail"]

    expected, other = splats(console)
    assert not other, context(console, other[0])
    # the selftest's wrong-name test, and the fuzzer's rationed ones
    allowed = 1 + fuzz["wrong_name"]["expected_warnings"]
    assert 1 <= expected <= allowed, (
        f"{expected} WARNs of unregister_blkdev, {allowed} asked for")
