"""One guest run: one topology on one kernel variant, start to results.

Prepares a private temporary directory (per-run initramfs, disk images,
console and results files, QMP socket), starts QEMU, watches the console
and the results stream until the guest is done, and turns what happened
into an Outcome: results.json for a complete stream, an error with the
console tail otherwise.  QEMU and the temporary directory are gone when
run_variant() returns or raises, whatever happened.
"""

import contextlib
import datetime
import os
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass, field

from .. import paths
from ..errors import (EXIT_GUEST_FAILURE, Interrupted, ResultsUnwritable,
                      UsageError)
from ..guestlink import cpio, planfiles
from ..guestlink.channel import ChannelError, ResultsParser
from ..guestlink.console import Consoles
from ..machine import signatures
from ..machine.disks import image_files
from ..machine.errors import (ChannelBroken, GuestHang, GuestPanic,
                              GuestTimeout, MachineError, QemuDied)
from ..machine.files import RunFiles
from ..qemu.pathevents import PathEvents
from ..results import document, runresults, runsummary, udevfigures
from . import backtrace

POLL_S = 0.2
# sockaddr_un.sun_path, less the terminating NUL.
UNIX_PATH_MAX = 107
# After a panic line, how long QEMU gets to print the trace and exit.
PANIC_GRACE_S = 5
# After BLKSCALE-DONE the guest reboots; QEMU should exit promptly.
EXIT_GRACE_S = 30


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds")


@dataclass
class Options:
    backend: object                     # machine/backend.py's Starter
    chosen: object                      # machine/backend.py's Accelerator
    show_command: bool = False
    progress: object = None
    profile_s: float = 0.0              # guest profiler interval, 0: off
    layers: dict = None                 # variant -> image layers after
                                        # its base

    @property
    def accel(self):
        return self.chosen.accel


@dataclass
class Context:
    """Everything results.json records about how the run was made."""
    planned: object
    variant: str
    run_id: str
    accel: str
    qemu_version: str
    host_cpu: str
    release: str = ""
    argv: list = field(default_factory=list)
    started: str = ""
    finished: str = ""
    qemu_start_s: float = None
    wall_s: float = None
    # Host clock, from QEMU's start: guest uptimes drift under a loaded TCG.
    wall_to_init_s: float = None
    wall_to_census_s: float = None
    peak_rss_kib: int = 0
    backend: str = "qemu"
    late_disks: dict = None     # added after QEMU started (late_record())
    path_events: list = None    # the pathfail step's requests, answered
    warnings: list = field(default_factory=list)
    fio_disk_map: dict = field(default_factory=dict)
    profiler: object = None


@dataclass
class Outcome:
    variant: str
    status: int
    kind: str                   # ok, step-failed, panic, hang, timeout, ...
    message: str
    expected: dict
    found: dict = None
    boot: dict = None
    steps: list = field(default_factory=list)
    results: str = None         # path of results.json, if written
    console: str = None         # path of console.log, if kept
    tail: str = ""
    clocksource: str = None     # the guest's, from its guest section
    kernel_console: str = None  # quiet, virtio or serial
    udev: dict = None           # udev's figures (guest.udev), else None


def check_socket_dir(directory):
    """UsageError if QMP's unix socket in `directory` would be too long."""
    if len(os.path.join(directory, "qmp.sock").encode()) > UNIX_PATH_MAX:
        raise UsageError(f"TMPDIR={tempfile.gettempdir()}: too long for the "
                         "QMP unix socket path (108 bytes); set a shorter "
                         "TMPDIR")


def kernel_files(variant):
    """bzImage, base initramfs and release of a variant, or UsageError."""
    kdir = paths.kernel_dir(variant)
    bzimage = kdir / "bzImage"
    base = paths.initramfs(variant)
    for path, hint in ((bzimage, "make kernel"), (base, "make initramfs")):
        if not path.is_file():
            raise UsageError(f"{paths.display(path)}: missing ({hint})")
    release_file = kdir / "release"
    release = (release_file.read_text().strip()
               if release_file.is_file() else "")
    return bzimage, base, release


def _make_images(planned, files, nonce):
    os.makedirs(files.disks, exist_ok=True)
    for path, size in image_files(planned, files):
        with open(path, "wb") as f:
            f.truncate(size)
    signatures.write_signatures(planned.topo, files, nonce,
                                signatures.wrong_signature_serial())


def _drain(handle, sink):
    data = handle.read()
    if data:
        sink(data)
    return bool(data)


def _watch(machine, files, timeouts, watcher, parser, ctx, opts, label):
    """Poll until QEMU exits; raise on panic, hang, timeouts, bad stream."""
    expected = ctx.planned.topo.expected_total
    spawn = machine.spawned_at
    last_activity = time.monotonic()
    done_at = None
    panic_at = None
    pathfail = PathEvents.of(machine, ctx.planned.topo)
    if pathfail is not None:
        ctx.path_events = pathfail.records
    with contextlib.ExitStack() as stack:
        con = stack.enter_context(open(files.console, "rb"))
        res = stack.enter_context(open(files.results, "rb"))
        # The 8250's file exists when the kernel's console is the virtio
        # one.
        boot = None
        if files.serial and os.path.exists(files.serial):
            boot = stack.enter_context(open(files.serial, "rb"))

        def drain():
            active = _drain(con, watcher.feed)
            if boot is not None:
                active |= _drain(boot, watcher.feed_boot)
            try:
                active |= _drain(res, parser.feed)
            except ChannelError as e:
                raise ChannelBroken(str(e), watcher.tail()) from None
            return active

        def milestones(now):
            if parser.phase is not None and ctx.wall_to_init_s is None:
                ctx.wall_to_init_s = now - spawn
            if ctx.wall_to_census_s is None and any(
                    s["name"] == "census" for s in parser.results.steps):
                ctx.wall_to_census_s = now - spawn

        while True:
            now = time.monotonic()
            if drain():
                last_activity = now
            milestones(now)
            for request, uptime in parser.take_asks():
                _answer(pathfail, request, uptime, machine, ctx, label,
                        opts)
            machine.sample_rss()
            if machine.exitcode() is not None:
                drain()
                milestones(now)
                break
            if watcher.panic and panic_at is None:
                panic_at = now
            if panic_at is not None and now - panic_at > PANIC_GRACE_S:
                break
            if parser.complete and done_at is None:
                done_at = now
            if done_at is not None and now - done_at > EXIT_GRACE_S:
                ctx.warnings.append("QEMU did not exit after the guest "
                                    "finished; it was stopped")
                break
            elapsed = now - spawn
            if parser.phase is None and elapsed > timeouts.boot_s:
                raise _stuck(GuestTimeout, "the guest did not reach /init "
                             f"within timeouts.boot_s = {timeouts.boot_s} s",
                             machine, watcher, ctx, opts, drain)
            if elapsed > timeouts.run_s:
                raise _stuck(GuestTimeout, "the run took longer than "
                             f"timeouts.run_s = {timeouts.run_s} s",
                             machine, watcher, ctx, opts, drain)
            if now - last_activity > timeouts.hang_s:
                raise _stuck(GuestHang, "no console or results output for "
                             f"timeouts.hang_s = {timeouts.hang_s} s "
                             f"(phase {parser.phase or 'kernel'})",
                             machine, watcher, ctx, opts, drain)
            phase = parser.phase or ("kernel" if not watcher.reached_init
                                     else "init")
            if ctx.profiler is not None and ctx.profiler.due(elapsed):
                ctx.profiler.sample(machine.hmp, elapsed, phase,
                                    exited=lambda: _exits_soon(machine))
            if opts.progress:
                opts.progress.update(label, phase, watcher.disks, expected,
                                     elapsed, watcher.detail_of(phase))
            time.sleep(POLL_S if ctx.profiler is None
                       else min(POLL_S, ctx.profiler.interval_s))
    if watcher.panic:
        raise GuestPanic(f"kernel panic: {watcher.panic}", watcher.tail())
    code = machine.exitcode()
    try:
        return parser.finish()
    except ChannelError as e:
        if code not in (0, None):
            log = machine.qemu_log().strip().splitlines()
            detail = f": {log[-1]}" if log else ""
            raise QemuDied(f"QEMU {_how_it_ended(code)}{detail}",
                           watcher.tail()) from None
        raise ChannelBroken(str(e), watcher.tail()) from None


def _how_it_ended(code):
    """subprocess's exit code in words: a status, or the killing signal."""
    if code >= 0:
        return f"exited with status {code}"
    try:
        return f"was killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"was killed by signal {-code}"


def _exits_soon(machine, grace_s=2.0):
    """True if QEMU exits within grace_s: its QMP socket closes before
    the process is gone."""
    deadline = time.monotonic() + grace_s
    while machine.exitcode() is None:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _answer(pathfail, request, uptime, machine, ctx, label, opts):
    """A step's request of the host (channel.ASKS): the pathfail step's
    paths removed or added back."""
    if pathfail is None:
        ctx.warnings.append(f"the guest asked for {request}, which this "
                            "plan does not do; nothing was done")
        return
    record = pathfail.answer(request, uptime, machine.pipeline)
    if record["error"]:
        ctx.warnings.append(f"{request}: {record['error']}")
    if opts.progress:
        opts.progress.message(f"{label}: {request}, {record['devices']} "
                              "path devices" +
                              (f", failed: {record['error']}"
                               if record["error"] else ""))


def run_variant(planned, variant, run_id, out_dir, opts):
    """Run one variant; returns an Outcome, raises only Interrupted."""
    topo = planned.topo
    bzimage, base, release = kernel_files(variant)
    ctx = Context(planned, variant, run_id, opts.accel,
                  opts.chosen.qemu_version, opts.chosen.host_cpu,
                  release=release, started=now_iso())
    expected = dict(topo.expected, total=topo.expected_total)
    label = variant
    tmp = tempfile.mkdtemp(prefix=f"blkscale-{variant}-")
    try:
        check_socket_dir(tmp)
    except UsageError:
        os.rmdir(tmp)
        raise
    watcher = Consoles()
    console_kept = None
    try:
        files = RunFiles.under(bzimage, tmp)
        machine = opts.backend.machine(planned, files, variant, opts.accel,
                                       tmp)
        archive = planfiles.plan_archive(topo, planned.layout, run_id,
                                         variant)
        cpio.concatenate([base, *(opts.layers or {}).get(variant, ())],
                         archive, files.initrd)
        _make_images(planned, files, signatures.run_nonce(run_id, variant))
        names = planned.layout.blk_names()
        ctx.fio_disk_map = planfiles.fio_disk_map(topo, names)
        ctx.backend = opts.backend.name
        if opts.profile_s:
            ctx.profiler = opts.backend.profiler(variant, opts.profile_s)
        if opts.show_command:
            if opts.progress:
                opts.progress.end()
            print(machine.shown(), flush=True)
        parser = ResultsParser()
        t0 = time.monotonic()
        try:
            with machine:
                def tick():
                    if not opts.progress:
                        return
                    # Over QMP or attached live: the disks QEMU has taken of
                    # those it gets that way; the guest has found none yet.
                    qmp = machine.qmp_disks()
                    phase, done, total = ("qemu start", 0, expected["total"])
                    if qmp:
                        phase, (done, total) = machine.late_phase, qmp
                    opts.progress.update(label, phase, done, total,
                                         time.monotonic() - t0)

                tick()
                ctx.qemu_start_s = machine.launch(topo.timeouts.boot_s, tick)
                # The command line as it ran (libvirt writes its own).
                ctx.argv = machine.argv
                ctx.late_disks = machine.late_record()
                stream = _watch(machine, files, topo.timeouts, watcher, parser,
                                ctx, opts, label)
                ctx.peak_rss_kib = machine.sample_rss()
        finally:
            if opts.progress:
                opts.progress.end()
            ctx.wall_s = time.monotonic() - t0
            ctx.finished = now_iso()
        console_kept = _save(os.path.join(out_dir, "console.log"),
                             lambda p: _join_consoles(tmp, p))
        # The kernel's log the guest sent (channel.LOGS): dmesg.log.
        for name, text in stream.logs.items():
            _save(os.path.join(out_dir, f"{name}.log"),
                  lambda p, t=text: _write_bytes(p, t))
        if ctx.profiler is not None:
            _save(os.path.join(out_dir, "profile.json"),
                  lambda p: ctx.profiler.write(out_dir))
        results = document.build(ctx, stream)
        outcome = results.outcome
        results_path = _save(runresults.path_in(out_dir), results.write)
        return Outcome(variant, outcome["status"], outcome["kind"],
                       outcome["message"], expected, results.disks_found,
                       results.boot, stream.steps, results_path,
                       console_kept, clocksource=results.clocksource,
                       kernel_console=results.kernel_console,
                       udev=udevfigures.of(results))
    except MachineError as e:
        if e.tail == "" and watcher.tail():
            e.tail = watcher.tail()
        console_kept = _keep_console(tmp, out_dir)
        return Outcome(variant, e.status, e.kind, str(e), expected,
                       console=console_kept, tail=e.tail,
                       boot={"qemu_start_s": ctx.qemu_start_s})
    except (Interrupted, UsageError, ResultsUnwritable):
        raise
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        return Outcome(variant, EXIT_GUEST_FAILURE, "host-error",
                       f"{where}{e.strerror}", expected)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


SNAPSHOT_HEADER = "--- the vCPUs and virtqueues when the run was stopped ---"


def _stuck(error, message, machine, watcher, ctx, opts, drain):
    """A hang or timeout, with where the guest's vCPUs were when it was
    declared (the backend reads them before QEMU is stopped): the last
    sample of each vCPU ends the message, every sample ends the tail.
    A vCPU still running gets the guest asked for its own backtrace
    (backtrace.py), whose answer the message names too."""
    snap = opts.backend.vcpu_snapshot(machine, ctx.variant)
    lines = list(snap.lines)
    nmi_where = None
    if snap.busy:
        found, nmi_where = backtrace.ask(machine, watcher, drain,
                                         opts.backend)
        lines += found
    last = {}
    for line in lines:
        head, sep, where = line.partition(": ")
        if sep and " vCPU " in head:
            last[head.split(" vCPU ")[1]] = where.split(" <- ")[0]
    if last:
        message += "; " + ", ".join(f"vCPU {cpu} {where}"
                                    for cpu, where in sorted(last.items()))
    # The first queue a device left the guest waiting on (virtqueues.py).
    trouble = [ln for ln in lines if ln.startswith("virtio ")]
    if trouble:
        message += "; " + trouble[0]
    if nmi_where:
        message += f"; at an NMI, {nmi_where}"
    tail = watcher.tail()
    if lines:
        tail = "\n".join(t for t in (tail, SNAPSHOT_HEADER, *lines) if t)
    return error(message, tail)


def _keep_console(tmp, out_dir):
    """A failed run keeps its console log for the post-mortem."""
    src = os.path.join(tmp, "console.log")
    if not os.path.exists(src):
        return None
    return _save(os.path.join(out_dir, "console.log"),
                 lambda p: _join_consoles(tmp, p))


def _write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def _join_consoles(tmp, dest):
    """console.log: with the virtio console, what the 8250 printed as the
    boot console (serial.log, until the virtio console registered), then
    what the virtio console printed; else the serial console alone."""
    with open(dest, "wb") as out:
        for name in ("serial.log", "console.log"):
            src = os.path.join(tmp, name)
            if os.path.exists(src):
                with open(src, "rb") as f:
                    shutil.copyfileobj(f, out)


def _save(path, write):
    """write(path) creates the file at path; returns the path.

    A write the results directory refuses (ENOSPC, EROFS, EIO, ...)
    removes everything of this variant, so that nothing partial is left,
    and ends the run with ResultsUnwritable.
    """
    out_dir = os.path.dirname(path)
    try:
        os.makedirs(out_dir, exist_ok=True)
        write(path)
    except OSError as e:
        shutil.rmtree(out_dir, ignore_errors=True)
        try:    # the run directory too, if this was its only variant
            os.rmdir(os.path.dirname(os.path.normpath(out_dir)))
        except OSError:
            pass
        raise ResultsUnwritable(
            f"{paths.display(path)}: {e.strerror or e}; run stopped, "
            f"nothing of this variant kept, no {runsummary.FILENAME}"
        ) from None
    return path
